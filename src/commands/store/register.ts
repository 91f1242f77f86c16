/** `geo store status | push | migrate | budget set | budget show`: which store answers, moving in, a team's budget. */
import { Option } from 'commander';
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

const STORES = `
Stores: the local SQLite file in geo's data folder (the default, one analyst), or a team's
PostgreSQL server shared by every analyst's machine, chosen by --store URL > GEO_STORE_URL >
\`geo config set store URL\` (its password kept in the OS keyring). --store local uses this
machine's file for one run. geo never stores an API key or an image in a team store. Many
analysts: a pooler in front of the server (PgBouncer, transaction pooling) saves each command
starting a server process; docs/store.md "Many analysts: a pooler".`;

export const register: Register = (program, act) => {
  for (const path of ['store status', 'store push', 'store migrate', 'store budget set', 'store budget show']) declareJson(path, { names: [], open: true });
  const store = program
    .command('store')
    .description("which store answers; a team's PostgreSQL store and budget")
    .addHelpText('after', `${STORES}\n\nExamples:\n  $ geo store status                 # here: this machine's file\n  $ geo store budget show\n\nWith a team's PostgreSQL:\n  GEO_STORE_URL=postgres://ana@db.example.org/geo geo store push`);

  store
    .command('status')
    .description('the store in use: where (password masked), its schema version, one round trip, how many results, open claims, cases')
    .addHelpText('after', '\nExit 6 when a team store cannot be reached.\n\nExamples:\n  $ geo store status\n  $ geo store status --json')
    .action(act(async () => (await import('./handlers.js')).status));

  store
    .command('push')
    .description("copy this machine's local store into the team store (results, claims, batches, cases with their custody logs, timestamps, what originals embedded); a second push copies nothing")
    .addHelpText('after', '\nRecords, raw answers and custody lines are copied byte for byte: every hash stays what it was.\nA case whose two logs went different ways is named and left as it is.\n\nExamples:\n  $ geo store push                   # exit 2 here: no team store is chosen\n\nWith a team store:\n  geo store push --store postgres://ana@db.example.org/geo?sslmode=verify-full')
    .action(act(async () => (await import('./handlers.js')).push));

  store
    .command('migrate')
    .description("bring the team store's schema to this geo's (run by an admin role: analysts' roles have no DDL)")
    .addHelpText('after', '\nA store migrated by a newer geo is refused (upgrade geo). docs/store.md "A team store" gives the roles and grants.\n\nExamples:\n  $ geo store migrate                # exit 2 here: no team store is chosen\n\nWith a team store (an admin role):\n  geo store migrate --store postgres://geo_admin@db.example.org/geo?sslmode=verify-full')
    .action(act(async () => (await import('./handlers.js')).migrate));

  const budget = store
    .command('budget')
    .description("the store's credit budget: a cap per day, week or month (UTC), reserved before each request is sent")
    .addHelpText('after', '\nExamples:\n  $ geo store budget set 500 --per month\n  $ geo store budget show');
  budget
    .command('set <credits>')
    .description('cap what the service may charge per period; each request reserves its credits first, a request that would pass the cap is not sent. On a team store only the admin role may set it (docs/store.md)')
    .addOption(new Option('--per <period>', 'the period the cap is for').choices(['day', 'week', 'month']).default('month'))
    .addHelpText('after', '\nExamples:\n  $ geo store budget set 500 --per month\n  $ geo store budget set 0          # nothing more may be spent this period')
    .action(act(async () => (await import('./handlers.js')).budgetSet));
  budget
    .command('show')
    .description("the cap, this period's spend and what is reserved in flight, by analyst and by case")
    .addHelpText('after', '\nExamples:\n  $ geo store budget show\n  $ geo store budget show --json')
    .action(act(async () => (await import('./handlers.js')).budgetShow));
};
