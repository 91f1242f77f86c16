/**
 * Child process of cases.test.ts (run with `node --import tsx`): waits until the start file exists
 * (so both children append at once), then appends `n` file_written entries to one case through the
 * store's custody storage, as geo does, and prints "done".
 * argv[2] is JSON: { data, caseId, n, tag, start }.
 */
import { existsSync } from 'node:fs';
import { CustodyLog } from '../../src/evidence/custody-log.js';
import { openStore } from '../helpers/store.js';

const a = JSON.parse(process.argv[2]!) as { data: string; caseId: string; n: number; tag: string; start: string };
const store = openStore(a.data);
while (!existsSync(a.start)) await new Promise((r) => setTimeout(r, 2));
const log = new CustodyLog(store.cases(), { user: a.tag, host: 'test', geo: 'test' }, Date.now);
for (let i = 0; i < a.n; i++) {
  // A breath between appends, so the two children's runs surely overlap on a busy machine.
  await new Promise((r) => setTimeout(r, 3));
  await log.append(a.caseId, { event: 'file_written', data: { file: { kind: 'export', format: 'csv', path: `/${a.tag}/${i}.csv`, sha256: '0'.repeat(64), size: i } } });
}
store.close();
process.stdout.write('done\n');
