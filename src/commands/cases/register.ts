/** `geo cases list | create`: investigation cases (pro and enterprise keys). */
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
    .description('list and create investigation cases (needs a pro or enterprise key)')
    .addHelpText('after', `${SANDBOX_NOTE}\n  $ geo --sandbox cases list\n  $ geo --sandbox cases create --name "Harbour fire" --json\n\nOn a terminal, geo cases create asks for the name, description and team.`);

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
};
