/** `geo history [--search] [--limit]`, `geo history show <ref>`: stored results, offline and free. */
import type { Register } from '../types.js';
import { RESULT_FIELDS, declareJson } from '../../output/json-fields.js';

/** The rows of `geo history --json` (output/views/history.ts HistoryRow). */
const HISTORY_FIELDS = ['stored_at', 'input', 'sha256', 'city', 'neighborhood', 'country', 'address', 'latitude', 'longitude', 'confidence', 'depth', 'analysis_id', 'charge', 'base_url', 'sandbox'];

export const register: Register = (program, act) => {
  declareJson('history', { names: HISTORY_FIELDS });
  declareJson('history show', { names: RESULT_FIELDS });
  const history = program
    .command('history')
    .description('results already paid for, from the local store: offline and free, newest first')
    .option('--search <text>', 'only results whose input path, place (city, neighbourhood, country, address), reasoning or analysis id has these words (the last may be the start of a word)')
    .option('--limit <n>', 'at most N results (default 50)')
    .addHelpText(
      'after',
      `
Columns: when it was received (UTC), input, place, confidence, depth, analysis id, and whether it
was paid, a free replay (the Idempotent-Replayed header) or a sandbox's simulated answer. --json
prints an array of these rows (with sha256, coordinates and service), --format ndjson one row per
line. Stored results are what geo locate, eval, mcp and api keep in the store, one SQLite file:
GEO_DATA_DIR/geo.db (default ~/.local/share/geo/geo.db). Nothing is sent and no key is needed.

Examples (run as written: the first stores a result to list):
  $ geo --sandbox locate sample:paris > /dev/null
  $ geo history
  $ geo history --search paris --limit 5
  $ geo history show 8687352 --json            # the body exactly as received, by sha256 prefix
  $ geo history --json | jq -r '.[].analysis_id'

Also: geo history show photo.jpg (the newest stored result of that image, as locate showed it)`,
    )
    .action(act(async () => (await import('./handler.js')).list));

  history
    .command('show')
    .description('show a stored result exactly as geo locate did (newest run of that image); offline and free')
    .argument('<ref>', 'an image file (hashed), a sha256 or a prefix of 6+ hex digits, or an analysis id')
    .option('-d, --depth <n>', 'the newest run at this depth (1, 2 or 3) when the image was located at several')
    .addHelpText(
      'after',
      `
--json prints the API body exactly as it was received. The view is locate's: place, coordinates,
confidence, address, map links, EXIF check, reasoning and, by depth, clues and forensic evidence.

Examples (run as written: the first stores a result to show):
  $ geo --sandbox locate sample:paris > /dev/null
  $ geo history show 8687352                   # by sha256 prefix (sample:paris), as locate showed it
  $ geo history show 8687352 --json | jq .location
  $ geo history show 8687352 --depth 1        # the newest depth-1 run of that image

Also: geo history show photo.jpg (an image file, hashed); geo history show an_… (an analysis id)`,
    )
    .action(act(async () => (await import('./handler.js')).show));
};
