/** `geo locate <input>`: one image to an evidence-backed location (flags from DESIGN.md). */
import type { Register } from '../../cli.js';

export const register: Register = (program, act) => {
  program
    .command('locate')
    .description('locate one image: a file, - for stdin bytes, or an https URL (sent as image_url)')
    .argument('<input...>', 'ONE image for now: a JPEG/PNG file, -, or an https URL (folders and batches come next)')
    .option('-d, --depth <n>', '1 Surface (region, 1 credit), 2 Standard (block, 2), 3 Forensic (street, 10); default 1 or `geo config get depth`')
    .option('-e, --effort <level>', 'instant, low, medium or high; at most the depth\'s normal level (1 low, 2 medium, 3 high)')
    .option('--scope <city>', 'search within this city (needs --center); never raises confidence')
    .option('--center <lat,lng>', 'centre of the --scope city, decimal degrees, e.g. 48.8566,2.3522')
    .option('--radius <km>', 'scope radius, 1-500 km (default 60)')
    .option('--captured-at <date>', 'when the photo was taken, beginning YYYY-MM-DD (part of the scope)')
    .option('--batch-id <id>', 'a console batch bound to this key')
    .option('--async', 'submit and return at once (202); the result lands in `geo analyses`')
    .option('--model <name>', 'model name; only orca-1.5 exists')
    .option('--idempotency-key <key>', 'reuse to replay a finished request free (same input and flags only)')
    .option('--dry-run', 'print the request (key redacted, image elided) and its cost; send nothing')
    .option('--max-credits <n>', 'refuse (exit 2, nothing sent) when the call would cost more than N credits')
    .option('--min-confidence <0-1>', 'exit 8 when the confidence is below this (the result is still printed)')
    .addHelpText(
      'after',
      `
Output: the place, coordinates, confidence (number, bar, word), address, map links and the
reasoning; depth 2 adds thinking and visual clues; depth 3 adds the forensic verdict, evidence,
candidates and calibration. --json prints the API body exactly as received.

Examples:
  $ geo locate photo.jpg
  $ geo locate photo.jpg --depth 3 --min-confidence 0.6
  $ geo locate photo.jpg --json | jq '.location'
  $ cat photo.jpg | geo locate -
  $ geo locate https://example.org/street.jpg --depth 2 --effort low
  $ geo locate photo.jpg --scope Paris --center 48.8566,2.3522 --radius 30
  $ geo locate photo.jpg --depth 3 --dry-run          see the request and its cost
  $ geo locate photo.jpg --idempotency-key case42-img7   rerun: replayed, not charged twice
  $ geo --sandbox locate fixtures/images/paris.jpg     try it without an account`,
    )
    .action(act(async () => (await import('./handler.js')).locate));
};
