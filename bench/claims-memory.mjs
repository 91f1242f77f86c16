/**
 * bench/claims-memory: peak RSS of `geo claims check <claims file> --dry-run` over a claims file of
 * many rows (default 1,000,000) that name a few photos, beside the budget (500 MB for a million
 * rows). The file is CSV, image,at, its rows cycling over four fixture photos and four claimed
 * places (two names, two LAT,LNG), written once per --dir and reused. Each run has an empty data
 * folder and its own in-process sandbox (--sandbox), so nothing is sent. Peak RSS from GNU time
 * (or /proc VmHWM); NODE_EXTRA_CA_CERTS is unset for the timed process.
 *
 *   node bench/claims-memory.mjs [--rows 1000000] [--dir /var/tmp/geo-bench-claims]
 */
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GEO_BIN, ROOT, benchEnv, load, measure, needBuild, printRows, row } from './lib.mjs';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, dir: { type: 'string', default: '/var/tmp/geo-bench-claims' } } });
const BUDGET_MB = 500;
const PHOTOS = ['paris.jpg', 'tokyo.jpg', 'sydney.jpg', 'newyork.jpg'];
const PLACES = ['"Kharkiv, UA"', '"49.99,36.23"', 'Paris', '"48.8584,2.2945"'];

needBuild();

/** claims-N.csv beside the four photos it names (written once). */
async function claimsFile(n) {
  mkdirSync(values.dir, { recursive: true });
  for (const p of PHOTOS) copyFileSync(join(ROOT, 'fixtures/images', p), join(values.dir, p));
  const file = join(values.dir, `claims-${n}.csv`);
  if (existsSync(file)) return file;
  const out = createWriteStream(`${file}.part`);
  out.write('image,at\n');
  for (let i = 0; i < n; i++) if (!out.write(`${PHOTOS[i % 4]},${PLACES[i % 4]}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  renameSync(`${file}.part`, file);
  return file;
}

const n = Number(values.rows);
const file = await claimsFile(n);
const home = mkdtempSync(join(values.dir, 'home-'));
const env = benchEnv({ HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), GEO_CACHE_DIR: join(home, 'cache') });
console.log(`bench/claims-memory — ${process.version}, load ${load()}; NODE_EXTRA_CA_CERTS unset`);
const r = await measure(process.execPath, [GEO_BIN, '--sandbox', 'claims', 'check', file, '--dry-run'], env);
if (r.code !== 0) console.log(`  exit ${r.code}: ${r.err.trim().split('\n').slice(-3).join(' | ')}`);
const mb = r.rssKb / 1024;
console.log(`  geo claims check <${n} rows> --dry-run: ${(r.ms / 1000).toFixed(1)} s, peak RSS ${mb.toFixed(1)} MB (${((r.rssKb * 1024) / n).toFixed(0)} bytes per row)`);
console.log(`\nload ${load()}`);
printRows([row(`claims check <${n} rows> --dry-run: peak RSS`, mb, 'MB', `<= ${BUDGET_MB} MB`, BUDGET_MB), row(`claims check <${n} rows> --dry-run: wall`, r.ms / 1000, 's', '(reference)')]);
