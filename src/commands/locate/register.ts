/** `geo locate <input...>`: images, folders, lists or URLs to evidence-backed locations (flags from DESIGN.md). */
import type { Register } from '../types.js';
import { RESULT_FIELDS, SCENE_FIELDS, declareJson, fieldUnion, ownOrResult } from '../../output/json-fields.js';

/** README "Many images": each NDJSON line. */
const LINE_FIELDS = ['input', 'sha256', 'ok', 'result', 'error', 'exif'];

export const register: Register = (program, act) => {
  // One image prints the API body, several one line each (`input`, …, `result`): a body field is read from either.
  declareJson('locate', { names: fieldUnion(LINE_FIELDS, RESULT_FIELDS, SCENE_FIELDS), get: ownOrResult });
  program
    .command('locate')
    .description('locate images: files, folders, -, https URLs, or one video')
    .argument('[input...]', 'images, folders, -, https URLs, or one video')
    .option('-d, --depth <n>', '1 Surface (1 credit), 2 Standard (2), 3 Forensic (10)')
    .option('-e, --effort <level>', 'instant, low, medium, high (at most the depth\'s own)')
    .option('--scope <city>', 'search within this city ("Paris, FR"); never evidence')
    .option('--center <lat,lng>', 'centre of --scope, e.g. 48.8566,2.3522')
    .option('--radius <km>', 'scope radius, 1-500 km (default 60)')
    .option('--captured-at <date>', 'when the photo was taken, YYYY-MM-DD… (scope)')
    .option('--batch-id <id>', 'a console batch bound to this key')
    .option('--async', 'submit and return at once (see geo analyses)')
    .option('--model <name>', 'model name; only orca-1.5 exists')
    .option('--idempotency-key <key>', 'one input: your own key; reusing it replays free')
    .option('--from-file <list>', 'inputs from this file, one path or URL per line')
    .option('--concurrency <n>', 'requests in flight at most, 1-256 (default: paced)')
    .option('--journal <file>', 'also write the batch to FILE as NDJSON')
    .option('--resume <id|file>', 'finish a batch: done inputs free, the rest resent')
    .option('--fresh', 'analyse again with new keys (charged again)')
    .option('--reuse-similar', 'a copy of a photo located before takes its answer')
    .option('--downscale', 'fit images above the 20 MB limit as JPEG, not refuse')
    .option('--keep-metadata', 'send files with their metadata (EXIF, XMP, IPTC)')
    .option('--service-fetch', 'send URLs for the service to fetch (image_url)')
    .option('--keep-original', 'keep each photo as read, for bundles --with-originals')
    .option('--dry-run', 'print the plan and requests with their cost only')
    .option('--max-credits <n>', 'a budget: above it exit 2 (plan) or 4 (while sending)')
    .option('--min-confidence <0-1>', 'exit 8 when a confidence is below this')
    .option('--report <file.html>', 'also write a self-contained HTML report')
    .option('--file-mode <mode>', '--report: 600 (default, only you) or 644 (everyone)')
    .option('--no-store', 'not kept for history or export (never paid twice)')
    .option('--case <case>', 'link results to this local case, with custody')
    .option('--together', 'photos of one scene: one consensus, as for a video')
    .option('--every <seconds>', 'video: one frame at least this often (default 10)')
    .option('--scene <0-1>', 'video: scene score starting a new shot (default 0.3)')
    .option('--max-frames <n>', 'video: frames sent at most, 1-100 (default 12)')
    .option('--max-duration <length>', 'video: refuse a longer clip (default 2h; 90m, 45s)')
    .option('--agree-km <km>', 'video or --together: answers this close agree (25)')
    .addHelpText(
      'after',
      `
Metadata is removed before upload, and the photo's GPS checked against the answer; WebP, AVIF,
TIFF, GIF and HEIC/HEIF go as JPEG; a URL is fetched by geo. A plan above 20 credits asks first;
a rerun never pays twice. More: geo help money, docs/batches.md (URLs, copies),
docs/evidence.md, docs/videos.md.

Examples (sample:NAME: photos shipped with geo; sample:all is all five):
  $ geo --sandbox locate sample:paris --depth 3    # street level
  $ geo --sandbox locate sample:all > all.ndjson   # one line each
  $ geo --sandbox locate sample:all --dry-run      # nothing sent
  # exit 2: costs 10 (--fresh reuses nothing)
  $ geo --sandbox locate sample:sydney -d 3 --fresh --max-credits 5
  $ geo --sandbox locate sample:clip --every 2     # needs ffmpeg`,
    )
    .action(act(async () => (await import('./handler.js')).locate));
};
