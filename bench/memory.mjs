/**
 * bench/memory (issue 21, "memory that does not grow with the batch"): peak RSS of whole `geo`
 * processes over many inputs, beside the budget.
 *
 *   geo locate <folder of --inputs tiny images> --dry-run     budget <= 200 MB peak RSS (100,000)
 *   geo locate <folder of --run tiny images> --format ndjson  against `geo sandbox` (no rate limit
 *                                                             worth the name): <= 200 MB peak RSS
 *
 * The images are distinct tiny JPEGs (the nogps fixture with a numbered comment, so every sha256
 * differs), written once per --dir and reused. Each run starts with an empty data folder, so
 * nothing is reused from the store and every input is planned (and, in the run, paid) anew. Peak
 * RSS comes from GNU time (or /proc VmHWM). NODE_EXTRA_CA_CERTS is unset for the timed processes.
 *
 *   node bench/memory.mjs [--inputs 100000] [--run 10000] [--dir /var/tmp/geo-bench-memory]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GEO_BIN, ROOT, benchEnv, load, measure, needBuild, printRows, row, startSandbox } from './lib.mjs';

const { values } = parseArgs({
  options: {
    inputs: { type: 'string', default: '100000' },
    run: { type: 'string', default: '10000' },
    dir: { type: 'string', default: '/var/tmp/geo-bench-memory' },
  },
});
const BUDGET_MB = 200;
const SANDBOX_KEY = 'orca_sandbox_enterprise'; // 100,000 credits: the run pays one per image

needBuild();

/** A folder of n distinct tiny JPEGs (written once; a stamp file says it is complete). */
function images(n) {
  const dir = join(values.dir, `images-${n}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const base = readFileSync(join(ROOT, 'fixtures/images/nogps.jpg'));
  for (let i = 0; i < n; i++) {
    const text = Buffer.from(`bench memory image ${i}`, 'latin1');
    const seg = Buffer.alloc(4);
    seg.writeUInt16BE(0xfffe, 0); // a JPEG comment (COM): removed before upload, but it makes the file distinct
    seg.writeUInt16BE(text.length + 2, 2);
    writeFileSync(join(dir, `img${String(i).padStart(6, '0')}.jpg`), Buffer.concat([base.subarray(0, 2), seg, text, base.subarray(2)]));
  }
  writeFileSync(join(dir, '.complete'), '');
  return dir;
}

function freshEnv(extra = {}) {
  const home = mkdtempSync(join(values.dir, 'home-'));
  return benchEnv({ HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), GEO_CACHE_DIR: join(home, 'cache'), ...extra });
}

async function one(label, n, args, env) {
  const r = await measure(process.execPath, [GEO_BIN, ...args], env);
  if (r.code !== 0) console.log(`  ${label}: exit ${r.code}: ${r.err.trim().split('\n').slice(-3).join(' | ')}`);
  const mb = r.rssKb / 1024;
  console.log(`  ${label}: ${(r.ms / 1000).toFixed(1)} s, peak RSS ${mb.toFixed(1)} MB (${((r.rssKb * 1024) / n).toFixed(0)} bytes per input)`);
  return [row(`${label}: peak RSS`, mb, 'MB', `<= ${BUDGET_MB} MB`, BUDGET_MB), row(`${label}: wall`, r.ms / 1000, 's', '(reference)')];
}

mkdirSync(values.dir, { recursive: true });
console.log(`bench/memory — ${process.version}, load ${load()}; NODE_EXTRA_CA_CERTS unset for every timed process`);
const rows = [];
const dryN = Number(values.inputs);
if (dryN > 0) {
  const dir = images(dryN);
  rows.push(...(await one(`geo locate <${dryN} images> --dry-run`, dryN, ['locate', dir, '--dry-run', '--sandbox'], freshEnv())));
}
const runN = Number(values.run);
if (runN > 0) {
  const dir = images(runN);
  const sb = await startSandbox(['--rate-limit', '100000', '--rate-window', '1']);
  try {
    const env = freshEnv({ GEO_API_KEY: SANDBOX_KEY, GEO_BASE_URL: sb.url });
    rows.push(...(await one(`geo locate <${runN} images> --format ndjson (sandbox)`, runN, ['locate', dir, '--format', 'ndjson', '--yes', '--max-credits', String(runN * 10)], env)));
  } finally {
    sb.stop();
  }
}
console.log(`\nload ${load()}`);
printRows(rows);
