/**
 * `npm run bench`: every bench of issue 7 in turn, then one table of figure, value, budget and
 * value/budget. Figures only: nothing here passes or fails. Needs `npm run build` first.
 *
 *   node bench/run.mjs [--only startup,image,batch,rps]
 *
 * Timings run without NODE_EXTRA_CA_CERTS (it adds ~45 ms to every Node 20 start on this machine).
 * The load average is printed next to each group: the machine is shared, so read ratios, not ms.
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runImage } from './image.mjs';
import { ROOT, benchEnv, load, needBuild, printRows } from './lib.mjs';
import { runRps } from './rps.mjs';
import { runStartup } from './startup.mjs';

/** bench/batch.ts (issues 5, 12, 21) as it is, in its own process: its worst ratio and its 429s are the figures. */
function runBatch() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/batch.ts')], { cwd: ROOT, env: benchEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      process.stdout.write(String(c).replace(/^/gm, '  '));
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ratio = /worst ratio\s+([\d.]+)/.exec(out);
      const r429 = /429 responses\s+(\d+)/.exec(out);
      if (code !== 0 || !ratio) return reject(new Error(`bench/batch.ts exited ${code}`));
      resolve([
        { figure: 'batch wall / (ceiling + 1 s), worst of 21 rows', value: Number(ratio[1]), unit: '', budget: '<= 1.1', ratio: Number(ratio[1]) / 1.1 },
        { figure: 'batch 429 responses, all rows', value: Number(r429?.[1] ?? NaN), unit: '', budget: '<= 1 per 100 requests per row' },
      ]);
    });
  });
}

const { values } = parseArgs({ options: { only: { type: 'string', default: 'startup,image,batch,rps' } } });
const only = new Set(values.only.split(','));
needBuild();
console.log(`geo bench — ${process.version}, ${cpus().length} cores, load ${load()} (1/5/15 min); NODE_EXTRA_CA_CERTS unset for every timed process`);
const rows = [];
if (only.has('startup')) {
  console.log(`\n[startup] hyperfine against node -e 0; load ${load()}`);
  rows.push(...(await runStartup()));
}
if (only.has('image')) {
  console.log(`\n[image] 14.9 MB JPEG through geo locate --json vs bench/baseline-post.mjs; load ${load()}`);
  rows.push(...(await runImage()));
}
if (only.has('batch')) {
  console.log(`\n[batch] bench/batch.ts: 3 limiters x 7 conditions; load ${load()}`);
  rows.push(...(await runBatch()));
}
if (only.has('rps')) {
  console.log(`\n[rps] sandbox GET /api/v1/credits; load ${load()}`);
  rows.push(...(await runRps()));
}
console.log(`\nSummary (load ${load()}):`);
printRows(rows);
