/** `geo claims check`: is each photo where they say? (issue 33). Flags only; the work is in run.ts. */
import { CLAIM_FIELDS } from '../../batch/claim-record.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { declareJson } from '../../output/json-fields.js';
import type { Register } from '../types.js';

export const register: Register = (program, act) => {
  declareJson('claims check', { names: CLAIM_FIELDS });
  const claims = program
    .command('claims')
    .description('claim checks: is each photo where they say? a verdict with its rule and evidence')
    .addHelpText(
      'after',
      `
See geo claims check --help for the rules, the tolerance and the outputs; geo eval --claims
calibrates them.

Examples (--sandbox: no account, no credits; sample:NAME is a photo shipped with geo):
  $ geo --sandbox claims check sample:paris --at "Paris, FR"        # the verdict, its rule, the evidence
  $ geo --sandbox eval sample:all --claims --dry-run                # what calibrating the rules would cost`,
    );
  claims
    .command('check')
    .description('check where photos are said to have been taken: agrees, contradicts or unverifiable, each with its rule and reason')
    .argument('<input...>', 'images (files, folders, sample:NAME) claimed at --at, or claims files: CSV with a header naming image,at (within, captured_at optional) or NDJSON of the same fields')
    .option('--at <place>', 'where the images are said to have been taken: a place ("Kharkiv, UA", "Paris, Texas") or LAT,LNG; in a claims file, for rows without their own')
    .option('--within <km>', 'the claim\'s tolerance in km (default: a place\'s extent from the offline index, a point 1 km)')
    .option('--captured-at <date>', 'when they are said to have been taken, beginning YYYY-MM-DD (sent in the scope with --scoped); in a claims file, for rows without their own')
    .option('-d, --depth <n>', '1, 2 or 3 (default 1 or `geo config get depth`); depth 3 lists the candidates a contradiction must rule out')
    .option('--scoped', 'also send each image with the claim as its scope: scope_consistent false (hard evidence against the claim) is named from the reasoning')
    .option('--dry-run', 'print the plan and its cost; send nothing')
    .option('--max-credits <n>', 'refuse (exit 2, nothing sent) a plan above N credits')
    .option('--fresh', 'ignore your stored results: locate again (charged again)')
    .option('--concurrency <n>', 'requests in flight at most, 1-256 (default: what the rate limit needs)')
    .option('--no-store', 'do not keep new answers in your history (stored ones are still reused)')
    .option('--report <file.html>', 'also write the HTML report: verdicts first, the evidence, the service\'s own calibration verdict, the map (0600: see --file-mode)')
    .option('--file-mode <mode>', `--report: ${FILE_MODE_HELP}`)
    .option('--case <case>', 'link each answer to this local case and log each check as a claim_checked custody entry')
    .option('--fail-on <verdict>', 'contradicts: exit 9 when any claim is contradicted (for scripts)')
    .addHelpText(
      'after',
      `
Each image is located WITHOUT the claim (the scope is never evidence: api-spec.md), reusing any
stored answer for free, then judged. T is the claim's tolerance, D the distance from the claim to
the leading estimate, R the answer's resolution (its precision tier, else 100 km at depth 1 and
25 km at depths 2-3), M = max(50 km, 2R) the margin a contradiction needs beyond T. First match:
  not_located          unverifiable  no answer with a location
  scope_overridden     contradicts   --scoped answer says scope_consistent false, D > T+M,
                                     confidence >= 0.3, no candidate within T+M, no EXIF GPS within T+5
  service_abstains     unverifiable  the depth-3 calibration says abstain
  witnesses_disagree   unverifiable  D <= T, confidence >= 0.5, but the EXIF GPS lies beyond T+5 km
                                     or the scoped answer says scope_consistent false
  estimate_near        agrees        D <= T, confidence >= 0.5
  estimate_near_unsure unverifiable  D <= T, confidence below 0.5: thin evidence never agrees
  candidate_near       unverifiable  D > T+M, confidence >= 0.6, but a candidate within T+M
  exif_near            unverifiable  D > T+M, confidence >= 0.6, but the EXIF GPS within T+5 km
  estimate_far         contradicts   D > T+M, confidence >= 0.6
  estimate_far_unsure  unverifiable  D > T+M, confidence below 0.6
  estimate_between     unverifiable  T < D <= T+M
The photo's own EXIF GPS (read from the original before geo strips it) is a witness that can be
forged: it can hold a verdict back, never make one. Tolerance by default: LAT,LNG 1 km; a place
30 km with 50+ places of the offline index within 10 km, 20 km with 10-49, else 10 km.

Outputs: a table (one image: its verdict and evidence), --json (one object for one image, else
an array; --json FIELDS, --jq), --format ndjson|csv|geojson|kml|html (the claim as its tolerance
circle, the estimate, the candidates, a line between). A claims file row that cannot be checked
is one line on stderr naming it, nothing sent for it; the rest are checked (exit 7).
Exit codes: 0; 2 nothing to check or a plan refused (nothing sent); 3-6, 130 as geo locate;
7 some rows not checked or not located; 9 a claim contradicted with --fail-on contradicts.

Examples (--sandbox: no account, no credits; sample:NAME is a photo shipped with geo):
  $ geo --sandbox claims check sample:paris --at "Paris, FR"            # one photo, one place
  $ geo --sandbox claims check sample:paris --at 50.45,30.52 --within 25 --depth 3 --scoped   # a point; also as scope
  $ printf 'image,at\\nsample:paris,"Paris, FR"\\nsample:sydney,Lagos\\n' > claims.csv
  $ geo --sandbox claims check claims.csv --dry-run                    # the plan; nothing sent
  $ geo --sandbox claims check claims.csv --yes --report claims.html   # verdicts, evidence, maps
  $ geo --sandbox claims check claims.csv --json verdict,rule,reason   # fields for scripts
  $ geo --sandbox claims check claims.csv --fail-on contradicts || echo "a claim was contradicted"`,
    )
    .action(act(async () => (await import('./handler.js')).check));
};
