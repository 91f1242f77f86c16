/** `geo cases list | create`: investigation cases (pro and enterprise keys). */
import type { Register } from '../../cli.js';

export const register: Register = (program, act) => {
  const cases = program
    .command('cases')
    .description('list and create investigation cases (needs a pro or enterprise key)')
    .addHelpText('after', '\nExamples:\n  $ geo cases list\n  $ geo cases create                      asks for name, description and team\n  $ geo cases create --name "Harbour fire" --json');

  cases
    .command('list')
    .alias('ls')
    .description('list cases (id, name, description, team, created, updated)')
    .option('--team <id>', 'only the cases of this team')
    .option('--limit <n>', 'at most N cases, 1-200 (default 50)')
    .addHelpText('after', '\nExamples:\n  $ geo cases list\n  $ geo cases list --team team_123 --limit 10\n  $ geo cases list --json | jq -r ".data[].id"')
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
Examples:
  $ geo cases create                                      interactive
  $ geo cases create --name "Harbour fire" --description "Port footage, May" --yes
  $ geo cases create --name "Harbour fire" --no-input --json    in scripts`,
    )
    .action(act(async () => (await import('./handlers.js')).create));
};
