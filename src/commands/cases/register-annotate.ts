/**
 * `geo cases annotate`: working copies of a case's originals with their clues' boxes drawn
 * (annotate.ts), each kept in the store and logged; the original is never changed.
 */
import type { Command } from 'commander';
import { type Act, OFFLINE } from '../types.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { declareJson } from '../../output/json-fields.js';

export function registerAnnotate(cases: Command, act: Act): void {
  declareJson('cases annotate', { names: ['case', 'copies', 'skipped', 'signed'] });

  cases
    .command('annotate')
    .summary('draw the clues\' boxes on working copies')
    .description('draw the clues\' boxes on a working copy of each original (offline; the original is never changed): kept in the store, logged as working_copy_made')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .argument('[result...]', 'r1, r2… (as geo cases show numbers them), an analysis id or a sha256 prefix; default: every result with a clue that has image coordinates')
    .option('--out <dir>', 'also write each copy into this folder as r<N>-annotated.png (.jpg with --jpeg; the folder made 0700 when absent)')
    .option('--jpeg', 'encode the copies as JPEG (quality 92): a fraction of a PNG\'s size, its pixels no longer exactly the original\'s')
    .option('--file-mode <mode>', `the files --out writes: ${FILE_MODE_HELP}`)
    .addHelpText(
      'after',
      `
Some visual clues carry image coordinates (answers at --depth 2 or 3): each is drawn as a magenta
outline, labelled with its id (r1.clue1: result 1's first visual clue), on a PNG (or JPEG) decoded
from the original with its EXIF orientation applied. The original must still hash to the sha256 the custody
log has for it; it is read, never written. The copy is kept in the store and logged as
working_copy_made (the original's sha256 and path, the copy's sha256, size and type, how it was
made, each box in pixels), then signed when a signing key is chosen. The same original and answer
give the same bytes: annotating again appends nothing. Bundles carry the copies in working/,
labelled "working copy (annotated)", apart from the originals, "original (evidence)".

Exit 2: a result that names nothing in the case, a case or result without a clue that has image
coordinates, or no original that still hashes to its sha256 (nothing is appended). Exit 7: some
copies were made, and the originals of the others could not be read (each said).

Examples (the sandbox's results are simulated; yours annotate the same way):
  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:tokyo --depth 2 --case Demo > /dev/null
  $ geo cases annotate Demo                      # every result with a box
  $ geo cases annotate Demo r1 --out work        # also work/r1-annotated.png
  $ geo cases annotate Demo r1 --jpeg            # a JPEG copy beside the PNG
  $ geo cases annotate Demo r1 --jq ".copies[0].boxes"   # appends nothing: made already
  $ geo cases annotate Demo r9                   # exit 2: no such result, nothing appended`,
    )
    .action(act(async () => (await import('./annotate.js')).annotate, OFFLINE));
}
