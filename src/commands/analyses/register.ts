/** `geo analyses`: saved analyses of the caller, searchable (api-spec.md "GET /api/v1/analyses"). */
import { Option } from 'commander';
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

const ANALYSIS_FIELDS = ['id', 'analysis_id', 'created_at', 'filename', 'neighborhood', 'city', 'country', 'latitude', 'longitude', 'confidence', 'depth'];

export const register: Register = (program, act) => {
  // api-spec.md: item fields "not shown"; the names the table reads, `id` for analysis_id, and any other an item carries.
  declareJson('analyses', { names: ANALYSIS_FIELDS, at: 'data', open: true, get: (r, n) => (n === 'id' ? (r.id ?? r.analysis_id) : r[n]) });
  program
    .command('analyses')
    .description('list saved analyses; search by neighborhood, city or file')
    .argument('[text]', 'search text (same as --search)')
    // gh's name for searching; -q stays the global --quiet. --query is the earlier name, kept.
    .option('-S, --search <text>', 'search neighborhood, city or filename (sent as q)')
    .addOption(new Option('--query <text>', 'same as --search').hideHelp())
    .option('--city <slug>', 'only this city (a slug, for example paris)')
    .option('--limit <n>', 'at most N analyses, 1-200 (default 50)')
    .addHelpText(
      'after',
      `
The table shows the columns the items carry (id, created, file, place, coordinates, confidence,
depth); --json prints the body exactly as received.

Examples (--sandbox: a fresh sandbox, so the list starts empty; drop it to use your key):
  $ geo --sandbox analyses
  $ geo --sandbox analyses -S montmartre          # search (also: --search TEXT, or a positional TEXT)
  $ geo --sandbox analyses --city paris --limit 10
  $ geo --sandbox analyses --json | jq -r '.data[].analysis_id'`,
    )
    .action(act(async () => (await import('./handler.js')).analyses));
};
