/** `geo inspect <file...>`: what an image file itself says, offline and free. */
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  declareJson('inspect', { names: [], open: true });
  program
    .command('inspect')
    .description('offline and free: sha256, type (from the bytes), size, dimensions, EXIF GPS/time/camera/software, place name')
    .argument('<file...>', 'image files, or - for stdin')
    .addHelpText(
      'after',
      `
Nothing is sent anywhere: the place name comes from an offline GeoNames index (country, region,
nearest town within 100 km; "at sea" outside every country). A GPS position of exactly 0,0 is
flagged as suspect, since devices write it when they had no fix. DateTimeOriginal is printed as
written, with its OffsetTime when the camera recorded one (never shifted to another zone).
With GPS and a capture time, "sun" says where the sun stood there and then (azimuth, elevation,
shadow direction and length, or twilight/night), from the EXIF offset or, without one, the time
zone at the GPS point (looked up offline; the line says which): compare it with the shadows in
the photo.
Broken or truncated files still show what can be read, with the EXIF warnings. A pipe or device
is judged by its first bytes, so anything that is not an image is refused at once; a pipe is read
whole up to 64 MiB, and a larger file only in its first 16 MB for EXIF.

Output: key/value blocks; --json prints one object for one file and one line per file for
several (as --format ndjson does). Exit 2 when the only file cannot be read; with several files
the others are still inspected and the exit code is 7.

Examples (sample:NAME and sample:all are photos shipped with geo):
  $ geo inspect sample:paris
  $ geo inspect --json sample:tokyo | jq .exif.gps
  $ geo inspect sample:all --format ndjson | jq -r 'select(.exif.gps) | [.input, .place.text] | @tsv'

With your own photos:
  geo inspect shots/*.jpg
  curl -s https://example.org/p.jpg | geo inspect -`,
    )
    .action(act(async () => (await import('./handler.js')).inspect));
};
