/**
 * `geo cases list | create | link | show`: investigation cases, on the service (pro and enterprise
 * keys) and on this machine; verify and bundle are in register-evidence.ts, sign and
 * stamp in register-trust.ts, the investigation (note, rule-out, conclude, clues) in
 * register-investigation.ts, and work (the same on a terminal) in register-work.ts.
 */
import { type Register, OFFLINE } from '../types.js';
import { declareJson } from '../../output/json-fields.js';
import { registerEvidence } from './register-evidence.js';
import { registerInvestigation } from './register-investigation.js';
import { registerAnnotate } from './register-annotate.js';
import { registerWork } from './register-work.js';
import { registerReport } from './register-report.js';

/** api-spec.md "Case", the team it was created for, and where it is. */
const CASE_FIELDS = ['id', 'name', 'description', 'teamId', 'createdAt', 'updatedAt'];

/** Cases need a pro key: the examples run against the in-process sandbox's (drop --sandbox for yours). */
export const SANDBOX_NOTE = '\nExamples (--sandbox: the sandbox\'s pro key; drop it to use yours):';

export const register: Register = (program, act) => {
  declareJson('cases list', { names: [...CASE_FIELDS, 'where', 'local_id', 'results'], at: 'data' });
  declareJson('cases create', { names: CASE_FIELDS, at: 'data' });
  declareJson('cases show', { names: ['case', 'results', 'simulated', 'custody', 'timestamps', 'investigation'] });
  declareJson('cases link', { names: ['case', 'linked', 'already', 'signed'] });
  const cases = program
    .command('cases')
    .description('investigation cases: results, custody, verifiable bundles')
    .addHelpText(
      'after',
      `
A case is recorded in geo's store (this machine's, or the team store's) with a custody log:
each event that touches it, the investigation's notes and conclusion too, is one entry sealed to
the one before by sha256; sign and stamp bind the log to your SSH key and to a time. Neither
proves a location right. More: geo help cases, docs/cases.md.
${SANDBOX_NOTE}
  $ geo --sandbox cases create --name "Harbour fire" --json
  $ geo --sandbox locate sample:all --case "Harbour fire" > /dev/null
  $ geo cases show "Harbour fire"                     # results, custody
  $ geo cases bundle "Harbour fire" harbour.zip       # one zip to hand over
  $ geo cases verify harbour.zip --allow-sandbox      # anywhere, offline`,
    );

  cases
    .command('list')
    .alias('ls')
    .summary('the service\'s cases and the local ones')
    .description('list cases, the service\'s and the local ones together: WHERE says both, service, local or another service\'s host')
    .option('--team <id>', 'only the cases of this team')
    .option('--limit <n>', 'at most N cases from the service, 1-200 (default 50)')
    .addHelpText(
      'after',
      `
Without a key, or when the service cannot be reached, the local cases are listed alone, with a
note on stderr. RESULTS: results linked here. --json: the service's body as received, each case
in data with where, local_id and results added, the local-only cases after them.
${SANDBOX_NOTE}
  $ geo --sandbox cases list
  $ geo --sandbox cases ls --team team_123 --limit 10
  $ geo --sandbox cases list --json | jq -r ".data[].id"
  $ geo cases list    # no key: the local cases only, and a note saying so`,
    )
    .action(act(async () => (await import('./handlers.js')).list));

  cases
    .command('create')
    .summary('create a case on the service, or --local')
    .description('create a case on the service and record it here; on a terminal, asks for whatever flags are missing and confirms')
    .option('--name <name>', 'case name (required; asked for when interactive)')
    .option('--description <text>', 'what the case is about')
    .option('--team <id>', 'team that owns the case')
    .option('--local', 'on this machine only: nothing is sent, no key is needed')
    .addHelpText(
      'after',
      `
The case is created on the service, then recorded here under geo's own id (lc_…) with the
service's id beside it; either id, or the name, names it in --case and the other cases commands.
A refusal (no cases on the plan: exit 4) records nothing: --local records it here only. When the
service cannot be reached, or its answer is lost, the case is recorded here only, marked so, and
geo exits 6 naming it (the case may exist on the service: geo cases list shows).
${SANDBOX_NOTE}
  $ geo --sandbox cases create --name "Harbour fire" --description "Port footage, May" --yes
  $ geo --sandbox cases create --name "Harbour fire" --no-input --json    # in scripts
  $ geo cases create --name "Field notes" --local    # no key, nothing sent

On a terminal:
  geo cases create                                # asks for whatever is missing, then confirms`,
    )
    .action(act(async () => (await import('./handlers.js')).create));

  cases
    .command('link')
    .summary('link results already paid for, offline')
    .description('link results already paid for to a local case (offline; appended to its custody log)')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .argument('<result...>', 'an image file (its newest result), a sha256 prefix (6+ hex digits) or an analysis id: what geo history shows')
    .addHelpText(
      'after',
      `
Every result is found before anything is written: one that is not in the store is exit 2, and
nothing is linked. Each result gets an answer_received entry (its raw answer's sha256, with
stored_at: it came from the store) and a result_linked entry. A result already in the case is
said and left as it is.

Examples (the sandbox's results are simulated; yours link the same way):
  $ geo --sandbox locate sample:paris sample:tokyo > /dev/null
  $ geo cases create --name Demo --local
  $ geo cases link Demo sample:paris           # the newest result of that image
  $ geo cases link Demo 2fdd8472               # by sha256 prefix (sample:tokyo)
  $ geo cases link Demo nosuchresult           # exit 2: no such result, nothing linked`,
    )
    .action(act(async () => (await import('./link.js')).link, OFFLINE));

  cases
    .command('show')
    .summary('a local case: results, map links, custody')
    .description('a local case, offline: its results with a map link each, and its custody log (entries, chain verified or the first broken entry)')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .addHelpText(
      'after',
      `
Reads the store only: no key, no network. Every value comes from the case's custody log and the
raw answers it hashes (the name from case_created, each place and coordinate from its raw answer,
input and sandbox flag from its own entries): a result the log does not vouch for is left out,
and "verified NO: N problems" said (geo cases verify lists them). A case nobody made, or a name
several cases share, is exit 2 (name it by its id then).
A geo sandbox's answers are never evidence: the view opens with how many the case holds ("2
simulated answers (sandbox): not evidence") and marks each; --json gives simulated (that count)
and sandbox per result.

Examples:
  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:paris --case Demo > /dev/null
  $ geo cases show Demo
  $ geo cases show Demo --json | jq ".results[].map_links[0].url"
  $ geo cases show Nobody                      # exit 2: no such case`,
    )
    .action(act(async () => (await import('./show.js')).show, OFFLINE));

  registerEvidence(cases, act);
  registerInvestigation(cases, act);
  registerAnnotate(cases, act);
  registerWork(cases, act);
  registerReport(cases, act);
};
