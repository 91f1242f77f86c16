/** `geo claims check`: is each photo where they say?. Flags only; the work is in run.ts. */
import { CLAIM_FIELDS } from '../../claims/record.js';
import { declareJson } from '../../output/json-fields.js';
import type { Register } from '../types.js';

export const register: Register = (program, act) => {
  declareJson('claims check', { names: CLAIM_FIELDS });
  const claims = program
    .command('claims')
    .description('claim checks: is each photo where they say?')
    .addHelpText(
      'after',
      `
Each photo is located without the claim, then judged: agrees, contradicts or
unverifiable, with the rule that fired and the evidence. geo eval --claims
calibrates the rules. More: geo help claims, docs/claims.md.

Examples (sample:NAME: photos shipped with geo; --sandbox: no credits):
  $ geo --sandbox claims check sample:paris --at "Paris, FR"   # a verdict
  $ geo --sandbox eval sample:all --claims --dry-run           # calibration plan`,
    );
  claims
    .command('check')
    .description('is each photo where they say? a verdict for each')
    .argument('<input...>', 'images (files, folders, sample:NAME) or claims files')
    .option('--at <place>', 'the claimed place ("Kharkiv, UA") or LAT,LNG')
    .option('--within <km>', 'tolerance in km (default: the place\'s extent; 1)')
    .option('--captured-at <date>', 'when, YYYY-MM-DD... (sent with --scoped)')
    .option('-d, --depth <n>', '1, 2 or 3 (default 1); 3 adds the candidates')
    .option('--scoped', 'also send each claim as the scope (one more request)')
    .option('--dry-run', 'print the plan and its cost; send nothing')
    .option('--max-credits <n>', 'refuse (exit 2, nothing sent) a plan above N')
    .option('--fresh', 'locate again, ignoring stored results (charged)')
    .option('--concurrency <n>', 'requests in flight at most, 1-256 (default: paced)')
    .option('--no-store', 'keep no new answers (stored ones are still reused)')
    .option('--report <file.html>', 'also write an HTML report: verdicts, evidence, map')
    .option('--file-mode <mode>', '--report: 600 (default, only you) or 644 (everyone)')
    .option('--case <case>', 'link answers to this local case; log claim_checked')
    .option('--fail-on <verdict>', 'contradicts: exit 9 when a claim is contradicted')
    .addHelpText(
      'after',
      `
Each image is located WITHOUT the claim (a scope is never evidence), reusing any
stored answer free, then judged by the first rule that matches. A contradiction
needs a confident estimate well beyond the tolerance and nothing near the claim;
the photo's own EXIF GPS can hold a verdict back, never make one. A claims file
is CSV with a header image,at (within, captured_at optional) or NDJSON of the
same fields; a row that cannot be checked is one line on stderr, nothing sent
for it, the rest checked (exit 7). Exit 9: a claim contradicted, with --fail-on.
The rules, tolerances and outputs: geo help claims, docs/claims.md.

Examples (sample:NAME: photos shipped with geo; --sandbox: no credits):
  $ geo --sandbox claims check sample:paris --at "Paris, FR"   # one photo
  $ geo --sandbox claims check sample:paris --at 50.45,30.52 -d 3 --scoped
  $ printf 'image,at\\nsample:paris,Paris\\nsample:tokyo,Lagos\\n' > claims.csv
  $ geo --sandbox claims check claims.csv --dry-run            # nothing sent
  $ geo --sandbox claims check claims.csv --yes --report claims.html
  $ geo --sandbox claims check claims.csv --json input,verdict,rule,reason
  $ geo --sandbox claims check claims.csv --fail-on contradicts   # none here: 0`,
    )
    .action(act(async () => (await import('./handler.js')).check));
};
