/** `geo cases list | create | verify`: investigation cases (pro and enterprise keys); verify is offline. */
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

/** api-spec.md "Case", and the team it was created for. */
const CASE_FIELDS = ['id', 'name', 'description', 'teamId', 'createdAt', 'updatedAt'];

/** Cases need a pro key: the examples run against the in-process sandbox's (drop --sandbox for yours). */
const SANDBOX_NOTE = '\nExamples (--sandbox: the sandbox\'s pro key; drop it to use yours):';

export const register: Register = (program, act) => {
  for (const path of ['cases list', 'cases create']) declareJson(path, { names: CASE_FIELDS, at: 'data' });
  const cases = program
    .command('cases')
    .description('list and create investigation cases (needs a pro or enterprise key); verify a case bundle offline')
    .addHelpText('after', `${SANDBOX_NOTE}\n  $ geo --sandbox cases list\n  $ geo --sandbox cases create --name "Harbour fire" --json\n\nOn a terminal, geo cases create asks for the name, description and team.\ngeo cases verify case.zip checks a case bundle with no key, no config and no network.`);

  cases
    .command('list')
    .alias('ls')
    .description('list cases (id, name, description, team, created, updated)')
    .option('--team <id>', 'only the cases of this team')
    .option('--limit <n>', 'at most N cases, 1-200 (default 50)')
    .addHelpText('after', `${SANDBOX_NOTE}\n  $ geo --sandbox cases list\n  $ geo --sandbox cases ls --team team_123 --limit 10\n  $ geo --sandbox cases list --json | jq -r ".data[].id"`)
    .action(act(async () => (await import('./handlers.js')).list));

  cases
    .command('create')
    .description('create a case; on a terminal, asks for whatever flags are missing and confirms')
    .option('--name <name>', 'case name (required; asked for when interactive)')
    .option('--description <text>', 'what the case is about')
    .option('--team <id>', 'team that owns the case')
    .addHelpText(
      'after',
      `
${SANDBOX_NOTE}
  $ geo --sandbox cases create --name "Harbour fire" --description "Port footage, May" --yes
  $ geo --sandbox cases create --name "Harbour fire" --no-input --json    # in scripts

Interactive: geo cases create (asks for whatever is missing, then confirms).`,
    )
    .action(act(async () => (await import('./handlers.js')).create));

  cases
    .command('verify')
    .description('check a case bundle offline: every file\'s sha256, the custody chain, each raw answer against its record')
    .argument('<case.zip>', 'a bundle written by geo cases bundle')
    .addHelpText(
      'after',
      `
Needs no key, no config and no network: only the file. Nothing is extracted or written.
Checked, in order: member names (a ../ or absolute path refuses the bundle), manifest.json,
every member's sha256 and size against the manifest (altered, removed or added members are
named), the custody log's hash chain against the manifest's entry count and head (the first
broken entry is named), each raw answer against its provenance record and an answer_received
entry, each original file against an input_hashed entry.

Exit 0: the bundle verifies. Exit 1: something fails (every failure listed). Exit 2: the
argument is not a bundle (absent, a folder, not a zip). The README's "Cases as evidence"
section documents the manifest, so a bundle can be checked without geo.

Examples (no bundle ships with geo: the first shows the one line for a missing file):
  $ geo cases verify missing.zip    # exit 2: no such file
  geo cases verify case.zip
  geo cases verify case.zip --json | jq .failures`,
    )
    .action(act(async () => (await import('./verify.js')).verify));
};
