/** `geo locate <input...>`: images, folders, lists or URLs to evidence-backed locations (flags from DESIGN.md). */
import type { Register } from '../../cli.js';

export const register: Register = (program, act) => {
  program
    .command('locate')
    .description('locate images: files, folders (recursive), - for stdin bytes, https URLs (sent as image_url), or --from-file LIST')
    .argument('[input...]', 'JPEG/PNG files (WebP, AVIF, TIFF, GIF converted), folders, -, https URLs')
    .option('-d, --depth <n>', '1 Surface (region, 1 credit), 2 Standard (block, 2), 3 Forensic (street, 10); default 1 or `geo config get depth`')
    .option('-e, --effort <level>', 'instant, low, medium or high; at most the depth\'s normal level (1 low, 2 medium, 3 high)')
    .option('--scope <city>', 'search within this city; never raises confidence. Without --center its centre comes from the offline GeoNames index: "Paris", "Paris, FR", "Paris, Texas"')
    .option('--center <lat,lng>', 'centre of the --scope city, decimal degrees, e.g. 48.8566,2.3522 (overrides the index)')
    .option('--radius <km>', 'scope radius, 1-500 km (default 60)')
    .option('--captured-at <date>', 'when the photo was taken, beginning YYYY-MM-DD (part of the scope)')
    .option('--batch-id <id>', 'a console batch bound to this key')
    .option('--async', 'submit and return at once (202); the result lands in `geo analyses`')
    .option('--model <name>', 'model name; only orca-1.5 exists')
    .option('--idempotency-key <key>', 'one input only: your own key; reuse it to replay a finished request free')
    .option('--from-file <list>', 'read inputs from this file, one path or URL per line (# comments)')
    .option('--concurrency <n>', 'requests in flight at most (default: from the rate limit and the latency seen)')
    .option('--journal <file>', 'the journal to write (default: one per command in the XDG state folder)')
    .option('--resume <file>', 'run a journal\'s command again: finished inputs are re-emitted, the rest resent with their keys')
    .option('--fresh', 'ignore what the journal holds: analyse again, with new idempotency keys (charged again)')
    .option('--downscale', 'fit images above the 20 MB base64 limit under it as JPEG instead of refusing them')
    .option('--dry-run', 'print the plan and each request (key redacted, image elided) with the cost; send nothing')
    .option('--max-credits <n>', 'refuse (exit 2, nothing sent) when the plan could cost more than N credits')
    .option('--min-confidence <0-1>', 'exit 8 when a confidence is below this (the result is still printed)')
    .option('--report <file.html>', 'also write a self-contained HTML report: image, result, evidence, map')
    .option('--no-store', 'do not keep provenance records of the results (default: kept in the XDG data folder)')
    .addHelpText(
      'after',
      `
One image: the place, coordinates, confidence (number, bar, word), address, map links, the EXIF
check (the photo's own GPS against the estimate: agrees, contradicts, stripped or none; local,
never sent, never changes the confidence) and the reasoning; depth 2 adds thinking and visual
clues; depth 3 the forensic verdict, evidence, candidates and calibration. --json prints the API
body exactly as received.

Many images: piped, --json or --format ndjson print one line per input as it finishes:
{"input", "sha256", "ok", "result" | "error", "exif"}; on a terminal, a live progress line and a
results table. Identical images are sent once. Exit 7 when some inputs failed.

Never paying twice: every run keeps a journal (idempotency key written before each request).
Rerunning the same command re-emits what was answered, free, and resends the rest with the same
keys, after a crash or Ctrl-C too. --fresh analyses again. On a terminal a plan above the
confirm threshold (geo config set confirm_threshold, default 20 credits) asks first unless --yes.

Scope by name: --scope NAME alone takes the centre of the most prominent place of that name in
the offline index (named after its region, then the most places around it: the index has no
population) and says which on stderr; add a country code or region after a comma to choose
("Paris, FR", "Paris, Texas"). A name the index cannot settle ("Paris, US": eight of them)
exits 2 listing the top matches.

Formats: --format table|json|ndjson, or geojson|kml|csv|html for files others open.
Results are kept as provenance records (GEO_DATA_DIR; --no-store skips) for geo history and geo export.

Examples:
  $ geo locate photo.jpg
  $ geo locate photo.jpg --depth 3 --min-confidence 0.6
  $ geo locate photo.jpg --json | jq '.location'
  $ cat photo.jpg | geo locate -
  $ geo locate https://example.org/street.jpg --depth 2 --effort low
  $ geo locate photo.jpg --scope Paris --radius 30          centre from the offline index
  $ geo locate photo.jpg --scope "Paris, Texas"             or "Paris, FR", or --center LAT,LNG
  $ geo locate shots/ --depth 2 > results.ndjson        a folder, one line per image
  $ geo locate --from-file list.txt --max-credits 200    paths and URLs, one per line
  $ geo locate shots/ --dry-run                          the plan and requests; nothing sent
  $ geo locate shots/ --journal case42.ndjson            then, after a crash or Ctrl-C:
  $ geo locate --resume case42.ndjson                    finished inputs free, the rest resent
  $ geo locate shots/ --format geojson > shots.geojson   QGIS; also kml (Google Earth), csv
  $ geo locate photo.jpg --depth 3 --report case42.html  one file: image, result, map
  $ geo locate photo.jpg --idempotency-key case42-img7   your own key: replayed, not charged twice
  $ geo --sandbox locate fixtures/images/                try it without an account`,
    )
    .action(act(async () => (await import('./handler.js')).locate));
};
