/** `geo cases work`: a case worked through on a terminal, writing the entries the investigation's flags write. */
import type { Command } from 'commander';
import { type Act, OFFLINE } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

export function registerWork(cases: Command, act: Act): void {
  declareJson('cases work', { names: ['case', 'written'] });
  cases
    .command('work')
    .summary('work a local case step by step (terminal)')
    .description('work a local case on a terminal: each result, its clues to accept or reject, notes, places ruled out, the conclusion; writes the entries the flags write')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .addHelpText(
      'after',
      `
Shows the case as geo cases show does, then each result in turn: its place and confidence, the
local witnesses (the EXIF check and the sun, never sent; the C2PA credentials the original
carried) and every clue, forensic support, contradiction and candidate by its id. For each one
not judged yet it asks accept, reject or skip (and why); then notes on the result (observations,
hypotheses); then, for the case, more notes, places or areas ruled out, and the conclusion.

Each answer is written at once, as its own entry, by the code its flags run: geo cases clues
accept|reject, note, rule-out and conclude write the very same entries, signed the same way when
a signing key is chosen. A bad answer (a place the offline index cannot settle, a radius of no
metres) is said and asked again. Ctrl-C or Esc stops: what was written stays (the error line
names its entries), exit 130. At the end it says what it wrote (--json: case and written).

It asks only on a terminal: with stdin or stdout not one, in CI or with --no-input, it is exit 2
and names the flags, which do the same without questions. More: docs/cases.md "Working a case".

Examples (the sandbox's answers are simulated; yours work the same way):
  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:paris --depth 3 --case Demo > /dev/null
  $ geo cases work Demo --no-input    # exit 2: no questions; names the flags
  $ geo cases clues Demo accept r1.clue1 --because "left-hand traffic on the street view"

On a terminal:
  geo cases work Demo`,
    )
    .action(act(async () => (await import('./work.js')).work, OFFLINE));
}
