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
Nothing is sent anywhere. It shows the hashes (sha256, PDQ), type and size; EXIF GPS, time (as
written, with its offset) and camera; the place (an offline GeoNames index; GPS 0,0 is flagged
as suspect); where the sun stood at the photo's GPS and time, to compare with its shadows; what
geo locate strips before upload; C2PA content credentials (valid or invalid; trusted only with
--c2pa-trust: geo ships no trust list); and "seen before": stored results of copies of this
photo (geo history --like lists them all). --json adds every metadata tag ("metadata", as
\`exiftool -j -n\` prints them). Exit 2 when the only file cannot be read, 7 when one of several
cannot. More: docs/evidence.md (inspect, C2PA, the sun), docs/store.md (copies of a photo).

Examples (sample:NAME and sample:all are photos shipped with geo):
  $ geo inspect sample:paris
  $ geo inspect --json sample:tokyo | jq .exif.gps
  $ geo inspect sample:all --format ndjson | jq -r 'select(.exif.gps) | [.input, .place.text] | @tsv'
  $ geo inspect --json sample:paris --jq '.c2pa.present'

With your own photos:
  geo inspect shots/*.jpg
  curl -s https://example.org/p.jpg | geo inspect -
  geo inspect --c2pa-trust c2pa-trust-anchors.pem signed.jpg`,
    )
    .action(act(async () => (await import('./handler.js')).inspect, OFFLINE));
};
