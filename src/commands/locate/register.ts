/** `geo locate <input...>`: images, folders, lists or URLs to evidence-backed locations (flags from DESIGN.md). */
import type { Register } from '../types.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { RESULT_FIELDS, SCENE_FIELDS, declareJson, fieldUnion, ownOrResult } from '../../output/json-fields.js';

/** README "Many images": each NDJSON line. */
const LINE_FIELDS = ['input', 'sha256', 'ok', 'result', 'error', 'exif'];

export const register: Register = (program, act) => {
  // One image prints the API body, several one line each (`input`, …, `result`): a body field is read from either.
  declareJson('locate', { names: fieldUnion(LINE_FIELDS, RESULT_FIELDS, SCENE_FIELDS), get: ownOrResult });
  program
    .command('locate')
    .description('locate images: files, folders (recursive), - for stdin bytes, https URLs (sent as image_url), --from-file LIST, or one video')
    .argument('[input...]', 'JPEG/PNG files (WebP, AVIF, TIFF, GIF converted), folders, -, https URLs, or one video (mp4, mov, webm, mkv, avi)')
    .option('-d, --depth <n>', '1 Surface (region, 1 credit), 2 Standard (block, 2), 3 Forensic (street, 10); default 1 or `geo config get depth`')
    .option('-e, --effort <level>', 'instant, low, medium or high; at most the depth\'s normal level (1 low, 2 medium, 3 high)')
    .option('--scope <city>', 'search within this city; never raises confidence. Without --center its centre comes from the offline GeoNames index: "Paris", "Paris, FR", "Paris, Texas"')
    .option('--center <lat,lng>', 'centre of the --scope city, decimal degrees, e.g. 48.8566,2.3522 (overrides the index)')
    .option('--radius <km>', 'scope radius, 1-500 km (default 60)')
    .option('--captured-at <date>', 'when the photo was taken, beginning YYYY-MM-DD (part of the scope)')
    .option('--batch-id <id>', 'a console batch bound to this key')
    .option('--async', 'submit and return at once (202); the result lands in `geo analyses`')
    .option('--model <name>', 'model name; only orca-1.5 exists')
    .option('--idempotency-key <key>', 'one input only: your own key; reuse it to replay a finished request free. A request already claimed under another key is waited for or reused instead (said on stderr): never sent twice')
    .option('--from-file <list>', 'read inputs from this file, one path or URL per line (# comments)')
    .option('--concurrency <n>', 'requests in flight at most, 1-256 (default: what the rate limit needs at the latency seen, up to 64)')
    .option('--journal <file>', 'also write the batch to FILE as NDJSON (its command, each key before it is sent, each answer)')
    .option('--resume <id|file>', 'run a batch again (its id from the resume hint, or a --journal FILE): finished inputs re-emitted, the rest resent with their keys')
    .option('--fresh', 'ignore your stored results: analyse again, with new idempotency keys (charged again; a key still in flight is resent first)')
    .option('--downscale', 'fit images above the 20 MB base64 limit under it as JPEG instead of refusing them')
    .option('--keep-metadata', 'send files as they are: EXIF (GPS, camera), XMP, IPTC and comments included (default: removed before upload, pixels untouched)')
    .option('--dry-run', 'print the plan and each request (key redacted, image elided) with the cost; send nothing')
    .option('--max-credits <n>', 'a budget: refuse (exit 2, nothing sent) a plan above N credits; one within it needs no confirmation. Kept against what the service charges: stops (exit 4) before a request that could pass it')
    .option('--min-confidence <0-1>', 'exit 8 when a confidence is below this (the result is still printed)')
    .option('--report <file.html>', 'also write a self-contained HTML report: image, result, evidence, map; several results open with a summary and an overview map (0600: see --file-mode)')
    .option('--file-mode <mode>', `--report: ${FILE_MODE_HELP}`)
    .option('--no-store', 'keep answers only so this command is never paid twice: not listed by geo history, exported or reused by other commands')
    .option('--case <case>', 'link each result to this local case (its id or name; geo cases create) and log it in the case\'s custody log')
    .option('--together', 'the images are photos of one scene: one consensus with its spread, as for a video\'s frames')
    .option('--every <seconds>', 'video: at least one frame every this many seconds (default 10)')
    .option('--scene <0-1>', 'video: a frame whose ffmpeg scene score is above this starts a new shot (default 0.3)')
    .option('--max-frames <n>', 'video: frames sent at most, 1-100, spread over the clip (default 12)')
    .option('--max-duration <length>', 'video: refuse a clip longer than this, e.g. 2h, 90m, 45s (default 2h)')
    .option('--agree-km <km>', 'video or --together: answers this close (great-circle) agree (default 25)')
    .addHelpText(
      'after',
      `
One image: the place, coordinates, confidence (number, bar, word), address, map links, the EXIF
check (the photo's own GPS against the estimate: agrees, contradicts, stripped or none; local,
never sent, never changes the confidence) and the reasoning; depth 2 adds thinking and visual
clues; depth 3 the forensic verdict, evidence, candidates and calibration. --json prints the API
body exactly as received (bytes that are not UTF-8 as \\udcXX escapes; the bytes are kept).
An answer that disagrees with the request is named on stderr and stored: a depth other than the
one asked (charged and shown as the answer's depth), a replay header on a new key's first send.
A 409 for a different payload is final: --fresh sends the image under a new key. A file that
changes while geo sends it stops that input (exit 2): a key never carries two different bodies.

Metadata stays home: before upload geo removes the file's metadata losslessly (JPEG EXIF, XMP,
IPTC, comments, maker segments; a PNG keeps only its picture and colour chunks, so text, eXIf,
tIME, C2PA caBX and private chunks go); the picture's bytes are unchanged and the
orientation is kept as a minimal EXIF. The service never sees the photo's GPS, camera serial or
owner, so the EXIF check is an independent witness. --dry-run says what would be removed;
provenance records keep both sha256s (file, bytes sent). --keep-metadata sends the file as it is.
URLs are fetched by the service itself, metadata and all.

Many images: piped, --json or --format ndjson print one line per input as it finishes:
{"input", "sha256", "ok", "result" | "error", "exif"}; on a terminal, a live progress line and a
results table. Identical images are sent once. A file in a folder that cannot be sent (HEIC,
empty, not an image, too large) gets a record with error code "skipped". Exit 7 when some inputs
failed or were skipped.

Pacing: a batch runs at the rate the service's RateLimit headers leave it (other clients' spend
on the key included), with a margin learnt from the network, halving its share at a 429; retries
take their turn too. A wait on a 429 is said on stderr (unless -q).

Consent: the plan (inputs, credits, balance) is printed on stderr before anything is spent
(unless -q). A plan above the confirm threshold (geo config set confirm_threshold, default 20
credits) asks on a terminal; where nothing can ask (piped, --no-input, CI) it is refused (exit 2,
nothing sent) unless --yes or --max-credits N covers it. While sending, the budget (--max-credits,
else what was agreed to, never less than the threshold; none with --yes) counts what the service
charged: an answer costs its own depth. Each further request is assumed to cost the most any
answer cost (at least its depth's price), and starts only if it fits with every request in
flight counted at 10; when the next could not fit, the batch stops (exit 4, the rest not sent).
So the total passes the budget by at most one answer's surprise: 10 minus the depth's price.

Never paying twice: every request is claimed in the store (one SQLite file, GEO_DATA_DIR/geo.db)
with its idempotency key before it is sent, and its answer committed before it is shown.
Rerunning the same command re-emits what was answered, free, and resends the rest with the same
keys, after a crash or Ctrl-C too; another geo process wanting the same request meanwhile waits
for its answer instead of paying again. A claim is found by what is sent (image bytes, request
fields, service, account), never by the key: --idempotency-key K for a request already claimed
under another key waits for that answer (or reuses it, or resends an unfinished run's key) and
says so on stderr; K itself is then never sent. The same K for the same request replays it; K
used for another image or fields is refused (exit 2, nothing sent). Any other command reuses a
stored result for the same image bytes, request fields, service and key, with a note. --fresh
analyses again (a request still in flight is waited for or resent first). At Ctrl-C,
requests in flight get records with error code "in_flight" (may have been charged; resuming
replays them free), and the summary ends with the exact geo locate --resume ID command that
finishes the run. A closed stdout (| head) stops new requests and stores those in flight.

Scope by name: --scope NAME alone takes the centre of the most prominent place of that name in
the offline index (named after its region, then the most places around it: the index has no
population) and says which on stderr; add a country code or region after a comma to choose
("Paris, FR", "Paris, Texas"). A name the index cannot settle ("Paris, US": eight of them)
exits 2 listing the top matches.

Videos (mp4, mov, webm, mkv, avi; recognised by their bytes) and photo sets (--together): geo
needs ffmpeg and ffprobe (GEO_FFMPEG/GEO_FFPROBE, else PATH; never downloaded) to pick frames: the
first, each scene change (ffmpeg scene score above --scene, default 0.3), at least one every
--every seconds (default 10), near-duplicates dropped (perceptual hash), at most --max-frames
(default 12) spread over the clip. Each frame is an image like any other: metadata removed, one
request, frames x depth credits in the plan, consent, --max-credits, --dry-run (the frames and
their times), the journal (never paid twice). Then one consensus: answers within --agree-km
(default 25) of each other are one place; its point is the geometric median of their votes on
the sphere (each frame one vote, shared with its depth-3 candidates by rank); the view shows k of
n frames agreeing, the spread (the radius holding them) and the time ranges, then every other
place, kept apart. --json is the scene object; --format ndjson one line per frame with its
"video" (or "set") origin; geojson, kml, kmz and --report draw the consensus, its circle and the
frames. One video per command; --idempotency-key, --async and --min-confidence do not apply.

Cases (issue 24): --case C links every answered result to the local case C (geo cases create)
and appends to its custody log what happened: the input hashed (sha256, size, path), the request
sent (the sha256 of the bytes after metadata removal, the fields), the answer received (the sha256
of the raw body, the service, the analysis id), the result linked; for a request that went out
and failed (an error after retries, a dropped connection, Ctrl-C in flight), the input hashed and
the request failed (its key, status and error); and the sha256 of what --report or an export
--format writes. The case is found before anything is sent (an unknown one is exit 2, nothing
charged); the answers are stored before anything is appended.

Formats: --format table|json|ndjson, or geojson|kml|kmz|csv|html for files others open (kmz is
binary: redirect it; on a terminal it is refused before anything is sent).
Results are kept in the store with their raw bytes and provenance, for geo history and geo export.

Examples (run as written, against an in-process sandbox; sample:NAME and sample:all are photos
shipped with geo: paris, tokyo, sydney, newyork, nogps):
  $ geo --sandbox locate sample:paris
  $ geo --sandbox locate sample:nogps --depth 3 --min-confidence 0.6    # exit 8: less sure than that
  $ geo --sandbox locate sample:paris --depth 3 --max-credits 5         # exit 2: costs 10, nothing sent
  $ geo --sandbox locate sample:tokyo --json | jq '.location'
  $ geo --sandbox locate sample:paris --scope Paris --center 48.8566,2.3522 --radius 30
  $ geo --sandbox locate sample:paris --scope Paris --radius 30   # centre from the offline index
  $ geo --sandbox locate sample:all --depth 2 > results.ndjson    # many: one line per image
  $ geo --sandbox locate sample:all --depth 3 --yes | jq .input  # piped: consent to 50 credits (> 20)
  $ geo --sandbox locate sample:all --dry-run                     # the plan and requests; nothing sent
  $ geo --sandbox locate sample:all --journal case42.ndjson        # then, after a crash or Ctrl-C:
  $ geo --sandbox locate --resume case42.ndjson                   # finished inputs free, the rest resent
  $ geo --sandbox locate sample:all --format geojson > shots.geojson   # QGIS; also kml, csv
  $ geo --sandbox locate sample:all --format kmz > shots.kmz           # Google Earth, photos in the balloons
  $ geo --sandbox locate sample:paris --depth 3 --report case42.html   # one file: image, result, map
  $ geo --sandbox locate sample:paris --idempotency-key case42-img7    # a rerun is replayed, not charged
  $ geo cases create --name Demo --local                          # a case on this machine
  $ geo --sandbox locate sample:all --case Demo --report demo.html    # linked, each step logged
  $ geo --sandbox locate sample:paris --case Nobody               # exit 2: no such case, nothing sent

Videos and sets (need ffmpeg; sample:clip is Paris, Tokyo, Paris again; sample:take one place):
  $ geo --sandbox locate sample:clip --every 2                   # two places, each with its time ranges
  $ geo --sandbox locate sample:clip --every 2 --dry-run         # the frames, their times and cost; nothing sent
  $ geo --sandbox locate sample:take --every 2 --json > take.json    # the scene: consensus, clusters, frames
  $ geo --sandbox locate sample:take --every 1 --max-frames 4 --format ndjson   # one line per frame
  $ geo --sandbox locate sample:clip --every 2 --report clip.html    # frame strip, map, consensus circle
  $ geo --sandbox locate sample:take --every 1 --depth 3 --max-credits 50    # exit 2: 100 credits
  $ geo --sandbox locate sample:paris sample:tokyo --together    # photos of one scene (here they disagree)

With your own key and photos:
  geo locate photo.jpg --depth 3
  cat photo.jpg | geo locate -
  geo locate https://example.org/street.jpg --depth 2 --effort low
  geo locate photo.jpg --scope "Paris, Texas"             # or "Paris, FR"; ambiguous names list matches
  geo locate shots/ --depth 2 > results.ndjson          # a folder (recursive)
  geo locate --from-file list.txt --max-credits 200      # paths and URLs, one per line
  geo locate clip.mp4 --depth 2 --report clip.html       # frames of a video: one consensus
  geo locate shots/ --together                           # photos of one scene: one consensus`,
    )
    .action(act(async () => (await import('./handler.js')).locate));
};
