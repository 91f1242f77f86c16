/** `geo eval <inputs...>`: how good the service is on images whose true position is known. */
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  declareJson('eval', { names: [], open: true });
  program
    .command('eval')
    .description('accuracy and calibration on images with a known position')
    .argument('[input...]', 'images, folders, sample:NAME, videos (with --truth)')
    .option('-d, --depth <list>', '1, 2 or 3, or several side by side: 1,3 (default 1)')
    .option('-e, --effort <level>', 'instant, low, medium or high (up to the depth\'s)')
    .option('--truth <file>', 'CSV file,lat,lng or GeoJSON Points (default: EXIF)')
    .option('--correct-within <km>', 'an answer this close (km) is correct (default 25)')
    .option('--from <results.ndjson>', 'score geo locate\'s NDJSON output; nothing is sent')
    .option('--from-file <list>', 'inputs from this file, one path per line')
    .option('--concurrency <n>', 'requests in flight at most, 1-256 (default: paced)')
    .option('--fresh', 'analyse again, ignoring stored results (charged)')
    .option('--downscale', 'fit images above the 20 MB limit as JPEG, not refuse')
    .option('--keep-metadata', 'send EXIF GPS too (measures a service reading it)')
    .option('--dry-run', 'print the plan of every depth with its cost only')
    .option('--max-credits <n>', 'a budget for all depths: above it exit 2, none sent')
    .option('--report <file.html>', 'also write an HTML page: figures, CDF, reliability')
    .option('--file-mode <mode>', '--report: 600 (default, only you) or 644 (everyone)')
    .option('--no-store', 'keep no provenance records of the results')
    .option('--case <case>', 'link results to this local case, with custody')
    .option('--every <seconds>', 'videos: one frame at least this often (default 10)')
    .option('--scene <0-1>', 'videos: scene score starting a new shot (0.3)')
    .option('--max-frames <n>', 'videos: frames per clip at most, 1-100 (default 12)')
    .option('--max-duration <length>', 'videos: refuse a longer clip (default 2h; 90m, 45s)')
    .option('--agree-km <km>', 'videos, --together: answers this close agree (25)')
    .option('--together', 'each folder is one scene: its consensus scored too')
    .option('--claims [truth]', 'calibrate claim checks: true and false claims')
    .option('--within <km>', '--claims: each claim\'s tolerance (default 25)')
    .option('--claim-distances <list>', '--claims: km to the false ones (25,200,750,2500)')
    .option('--seed <n>', '--claims: seed placing the false claims (default 1)')
    .option('--scoped', '--claims: also send each claim as a scope (paid)')
    .option('--copies <dir>', 'calibrate the perceptual hash on a set of copies')
    .addHelpText(
      'after',
      `
Truth is each image's own EXIF GPS (never sent), or --truth FILE. Each depth is one batch
of the engine locate uses: one plan, consent, --max-credits, a rerun pays nothing twice.
The figures, the truth file and videos: docs/eval.md; --claims: docs/claims.md.
--copies DIR: DIR/originals/ and one folder per kind of copy; hashed here, nothing sent.

Examples (the samples carry EXIF GPS, but sample:nogps, listed and skipped):
  $ geo --sandbox eval sample:all
  # exit 2: costs 40 (--fresh reuses nothing)
  $ geo --sandbox eval sample:all --depth 3 --fresh --max-credits 5
  $ geo --sandbox eval sample:all --depth 3 --dry-run          # nothing sent
  $ geo --sandbox eval sample:all --claims --dry-run           # claims: the plan
  $ geo --sandbox eval sample:all -d 1,3 --yes --report e.html
  $ geo --sandbox locate sample:all --depth 2 > results.ndjson
  $ geo eval --from results.ndjson                             # no request

With a set of copies (fixtures/make-copies.js in geo's repository makes one):
  geo eval --copies calibration/ --json                        # no request`,
    )
    .action(act(async () => (await import('./run.js')).evaluateImages));
};
