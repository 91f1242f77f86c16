/** `geo inspect <file...>`: what an image file itself says, offline and free. */
import { type Register, OFFLINE } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  declareJson('inspect', { names: [], open: true });
  program
    .command('inspect')
    .description('offline and free: hashes, EXIF GPS/time/camera, place, C2PA')
    .argument('<file...>', 'image files, or - for stdin')
    .option('--c2pa-trust <file>', 'PEM certificates: a C2PA signer whose chain ends in one of them is "trusted" (none by default)')
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
Content credentials (C2PA): whether the file carries a manifest (JPEG APP11, PNG caBX, HEIF,
WebP...) and, when it does, one line: who signed it (the certificate's subject), with what
software (the claim generator), when (the time-stamp authority's time, if any), and whether it
holds: valid, or invalid with the failing C2PA status codes (assertion.dataHash.mismatch: the
pixels or bytes changed since signing). It is checked offline by the C2PA reference reader
(c2pa-rs), loaded only for a file that has a manifest; nothing is fetched. geo ships no trust
list, so a valid signature reads "signer on no trust list (signingCredential.untrusted)" unless
--c2pa-trust names the CA certificates you trust. --json prints it as "c2pa" ({"present": false}
without one), and every metadata tag of the file (EXIF, GPS, XMP, IPTC, ICC) as "metadata": tag
names and values as \`exiftool -j -n\` prints them (GPSLatitude signed decimal degrees, dates as
written), at most 256 KB ("truncated" says what was left out). geo locate keeps both in its store,
and in a case's input_hashed entry, before it strips the upload; neither is ever sent.

PDQ is the file's perceptual hash (Meta's 256-bit PDQ, computed locally): copies of a photo
(re-encoded, resized, stripped of metadata) lie a few bits from it, other photos about 128. When
stored results are of such a copy (within 31 bits), "seen before" lists the nearest three, with
their distance, file, time and place; --json prints "perceptual" and "seen_before" ([] when none).
geo history --like lists them all. The store is read, never written to but to give results stored
before geo hashed images their hash, from their files.

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
  $ geo inspect --json sample:paris --jq '.metadata.tags.GPSLatitude'
  $ geo inspect --json sample:paris --jq '.c2pa.present'
  $ geo inspect --json sample:paris --jq '.seen_before'

With your own photos:
  geo inspect shots/*.jpg
  curl -s https://example.org/p.jpg | geo inspect -
  geo inspect --c2pa-trust c2pa-trust-anchors.pem signed.jpg`,
    )
    .action(act(async () => (await import('./handler.js')).inspect, OFFLINE));
};
