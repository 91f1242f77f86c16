/** `geo history [--search] [--limit]`, `geo history show <ref>`: stored results, offline and free. */
import { type Register, OFFLINE } from '../types.js';
import { LIKE_DISTANCE } from '../../image/pdq.js';
import { MAX_LIKE_DISTANCE } from '../../store/pdq-index.js';
import { RESULT_FIELDS, SCENE_FIELDS, declareJson, fieldUnion } from '../../output/json-fields.js';

/** The rows of `geo history --json` (output/views/history.ts HistoryRow); a video's or a set's entry adds its frames. */
const HISTORY_FIELDS = ['stored_at', 'input', 'sha256', 'city', 'neighborhood', 'country', 'address', 'latitude', 'longitude', 'confidence', 'depth', 'analysis_id', 'charge', 'paid_by', 'base_url', 'sandbox', 'kind', 'frames', 'agree', 'of', 'spread_km', 'batch', 'distance'];

export const register: Register = (program, act) => {
  declareJson('history', { names: HISTORY_FIELDS });
  declareJson('history show', { names: fieldUnion(RESULT_FIELDS, SCENE_FIELDS) });
  const history = program
    .command('history')
    .description('results already paid for, from the store: offline and free')
    .option('--search <text>', 'only results whose input path, place (city, neighbourhood, country, address), reasoning or analysis id has these words (the last may be the start of a word)')
    .option('--limit <n>', 'at most N results (default 50)')
    .option('--like <image>', 'results whose image is a near-duplicate of this one (a re-encoded, resized or stripped copy), nearest first, with their distance')
    .option('--distance <bits>', `with --like: how far a copy may lie, in bits of the 256 of its perceptual hash (PDQ), 0-${MAX_LIKE_DISTANCE} (default ${LIKE_DISTANCE})`)
    .addHelpText(
      'after',
      `
Columns: when it was received (UTC), input, place, confidence, depth, analysis id, and whether it
was paid, a free replay (the Idempotent-Replayed header) or a sandbox's simulated answer, and
PAID BY: who paid (on a team store the database role its server authenticated, else user@host).
--json prints an array of these rows (with sha256, coordinates, service and paid_by: role on a
team store, user, host, at), --format ndjson one
row per line. A video is one entry with its frames, and photos located --together one entry with its
photos: its place is the consensus of their answers, CONFIDENCE says how many agree ("2/4
agree"), ANALYSIS says "batch" and the batch id that geo history show takes, and --json adds kind (result,
video or set), frames (each with its time, answer and cluster), agree, of, spread_km and batch. Stored results are what geo locate, eval, mcp and api keep in the store, one SQLite file:
GEO_DATA_DIR/geo.db (default ~/.local/share/geo/geo.db). Nothing is sent and no key is needed.
--like IMG lists the results whose image is a copy of IMG (re-encoded, resized, stripped of its
metadata), nearest first, with DISTANCE: the bits of 256 in which their perceptual hashes (PDQ)
differ; copies lie a few bits apart, other photos about 128. --distance sets how far (default 31).
Results stored before geo hashed images get their hash first, from their files when still there.

Examples (run as written: the first stores a result to list):
  $ geo --sandbox locate sample:paris > /dev/null
  $ geo history
  $ geo history --search paris --limit 5
  $ geo history --like sample:paris --json distance,input    # copies of a photo, nearest first
  $ geo history show 8687352 --json            # the body exactly as received, by sha256 prefix
  $ geo history --json | jq -r '.[].analysis_id'
  $ geo --sandbox locate sample:clip --every 2 > /dev/null    # a video (ffmpeg): one entry, 4 frames
  $ geo history --json kind,input,agree,of --jq '.[0]'

Also:
  geo history show photo.jpg    # the newest stored result of that image, as locate showed it`,
    )
    .action(act(async () => (await import('./handler.js')).list, OFFLINE));

  history
    .command('show')
    .description('show a stored result exactly as geo locate did (newest run of that image); offline and free')
    .argument('<ref>', 'an image or video file (hashed), a sha256 or a prefix of 6+ hex digits, an analysis id, or the batch id geo history lists for a video or a set')
    .option('-d, --depth <n>', 'the newest run at this depth (1, 2 or 3) when the image (or video) was located at several')
    .option('--agree-km <km>', 'a video or a set: answers this close agree (default 25)')
    .addHelpText(
      'after',
      `
--json prints the API body exactly as it was received. The view is locate's: place, coordinates,
confidence, address, map links, EXIF check, reasoning and, by depth, clues and forensic evidence.
A video (the file, or the batch id geo history lists) or a set of photos located --together (its
batch id) is shown as geo locate showed it: the consensus drawn again from the stored answers of
its frames, with its spread, the other places and the frame table; --json is the same scene object
locate --json prints (without the frames not sent). Nothing is decoded: no ffmpeg is needed.
A geo sandbox's answer opens with "simulated answer (sandbox): not evidence" (--json: on stderr,
before the body).

Examples (run as written: the first stores a result to show):
  $ geo --sandbox locate sample:paris > /dev/null
  $ geo history show 8687352                   # by sha256 prefix (sample:paris), as locate showed it
  $ geo history show 8687352 --json | jq .location
  $ geo history show 8687352 --depth 1        # the newest depth-1 run of that image
  $ geo --sandbox locate sample:take --every 2 > /dev/null    # a video (ffmpeg): 5 frames stored
  $ geo history show sample:take               # its consensus again, from the stored frames

Also:
  geo history show photo.jpg    # an image file, hashed
  geo history show an_…         # an analysis id
  geo history show clip.mp4     # a video: its consensus, from its stored frames`,
    )
    .action(act(async () => (await import('./handler.js')).show, OFFLINE));
};
