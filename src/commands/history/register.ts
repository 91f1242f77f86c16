/** `geo history [--search] [--limit]`, `geo history show <ref>`: stored results, offline and free. */
import type { Register } from '../../cli.js';

export const register: Register = (program, act) => {
  const history = program
    .command('history')
    .description('results already paid for, from the local store: offline and free, newest first')
    .option('--search <text>', 'only results whose input path, place (city, neighbourhood, country, address) or analysis id contains TEXT')
    .option('--limit <n>', 'at most N results (default 50)')
    .addHelpText(
      'after',
      `
Columns: when it was received (UTC), input, place, confidence, depth, analysis id, and whether it
was paid or a free replay (the Idempotent-Replayed header). --json prints an array of these rows
(with sha256, coordinates and the record's file), --format ndjson one row per line.
Stored results are the provenance records geo locate keeps (GEO_DATA_DIR; --no-store skips).
Nothing is sent and no key is needed.

Examples:
  $ geo history
  $ geo history --search paris --limit 5
  $ geo history show photo.jpg                 the newest stored result of this image, as locate showed it
  $ geo history show 8687352 --json            the body exactly as received, by sha256 prefix
  $ geo history --json | jq -r '.[].analysis_id'`,
    )
    .action(act(async () => (await import('./handler.js')).list));

  history
    .command('show')
    .description('show a stored result exactly as geo locate did (newest run of that image); offline and free')
    .argument('<ref>', 'an image file (hashed), a sha256 or a prefix of 6+ hex digits, or an analysis id')
    .addHelpText(
      'after',
      `
--json prints the API body exactly as it was received. The view is locate's: place, coordinates,
confidence, address, map links, EXIF check, reasoning and, by depth, clues and forensic evidence.

Examples:
  $ geo history show fixtures/images/paris.jpg
  $ geo history show an_f47ca3f41106ee9b --json | jq .location`,
    )
    .action(act(async () => (await import('./handler.js')).show));
};
