/**
 * bench/team (issue 32): the team store on a real PostgreSQL over loopback TCP (Debian's binaries,
 * started in a temporary folder by test/helpers/postgres.ts and stopped at the end). Prints, beside
 * their budgets:
 *
 *   claim overhead per request (acquire + the answer committed with its claim), median   <= 10 ms
 *   the two-machine race's charges: 2 machines x 4 `geo locate` processes over 12 images against
 *   an independent charging server, 3 killed with SIGKILL, then all run again         exactly 12
 *   the same race under a team budget of 7 credits: what the server charged           <= 7
 *   at --results team results (default 1,000,000; bench/store-data.mjs's answers, loaded by
 *   team-fill.mjs): the reads of the look-ups in process (StoreApi), for the store's share; then
 *   geo history --limit 20, geo history --search CITY --limit 20 and geo history show ID as whole
 *   processes (NODE_EXTRA_CA_CERTS unset) on the local SQLite file of the same N answers
 *   (bench/store-build.mjs, in --local-dir, built once and reused), on the team store directly and
 *   through PgBouncer in transaction pooling, interleaved in one run, --runs rounds (team-lookups.mjs):
 *     team store directly / local file, medians                                   <= 1.4 each
 *     through PgBouncer / local file, medians                                     <= 1.2 each
 *
 * Figures, 2026-11-29, a 2-core VM shared with other jobs (load 4-6), Node v20.20.2,
 * NODE_EXTRA_CA_CERTS unset, PostgreSQL 15 (fsync off), PgBouncer 1.18, 1,000,000 results (team
 * load 125-152 s, local file 300 s), two runs (21 and 31 rounds; node -e 0 21.8 and 33.4 ms):
 *   claim + answer committed 1.8-1.9 ms; race 12 charges; budgeted race 7 credits under 7
 *   list / search / show, direct / local:    1.20 / 1.29 / 1.35 and 1.24 / 1.38 / 1.15   (<= 1.4)
 *   list / search / show, PgBouncer / local: 0.98 / 1.15 / 1.24 and 1.15 / 1.20 / 1.02   (<= 1.2)
 *   docs/internals/store-bench.md has the medians and where the time goes.
 *
 *   node --import tsx bench/team.mjs [--results 1000000] [--runs 21] [--local-dir /var/tmp/geo-bench-store] [--keep]
 */
import { parseArgs } from 'node:util';
import { createHash } from 'node:crypto';
import { GEO_BIN, benchEnv, median, needBuild, printRows, row } from './lib.mjs';
import { buildLocalStore } from './store-build.mjs';
import { compareLookups } from './team-lookups.mjs';
import { processProbe } from '../src/cli.ts';
import { buildRecord } from '../src/evidence/records.ts';
import { openStore } from '../src/store/index.ts';
import { resultColumnsOf, RESULT_COLUMNS } from '../src/store/sqlite/results.ts';
import { contentSha, searchDocument } from '../src/store/postgres/results.ts';
import { openPool } from '../src/store/postgres/driver.ts';
import { dropForFill, fillFromTemplates, restoreAfterFill } from './team-fill.mjs';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChargingServer } from '../test/helpers/charging-server.ts';
import { freshStore, startPostgres } from '../test/helpers/postgres.ts';
import { startPgBouncer } from '../test/helpers/pgbouncer.ts';
import { FIXTURES, distinctJpeg } from '../test/batch/helpers.ts';
import { CITIES, body } from './store-data.mjs';

const { values } = parseArgs({
  options: { results: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '21' }, 'local-dir': { type: 'string', default: '/var/tmp/geo-bench-store' }, keep: { type: 'boolean', default: false } },
});
const N = Number(values.results);
const RUNS = Number(values.runs);
const BASE_URL = 'http://127.0.0.1:9';
const PARIS = readFileSync(join(FIXTURES, 'paris.jpg'));
needBuild();

function record(i) {
  const b = body(i);
  return buildRecord({
    input: { path: `/cases/${Math.floor(i / 1000)}/photo-${i}.jpg`, sha256: createHash('sha256').update(`image ${i}`).digest('hex') }, request: { image_b64: 'x', depth: 3 },
    response: { data: b, raw: JSON.stringify(b), status: 200, headers: { 'x-request-id': `req_${i}` }, replayed: false, requestId: `req_${i}`, idempotencyKey: `bench-${i}` },
    baseUrl: BASE_URL, account: 'bench-account', cliVersion: 'bench', now: Date.UTC(2026, 0, 1) + i * 1000,
  });
}

const pg = startPostgres({ tcp: true });
if ('skip' in pg) {
  console.log(`bench/team: skipped: ${pg.skip}`);
  process.exit(0);
}
try {
  await freshStore(pg);
  const store = await openStore({ kind: 'team', url: pg.tcpUrl }, { probe: processProbe(), now: Date.now });
  const rows = [];

  // 1. Claim overhead: what the store adds to each request (the request itself is the service's).
  const per = [];
  for (let i = 0; i < 300; i++) {
    // The answer is made before the clock starts: it is the service's part, not the store's.
    const answered = { record: record(N + i), sandbox: false, listed: true };
    const t0 = performance.now();
    const acq = await store.acquire(createHash('sha256').update(`claim ${i}`).digest('hex'), { input: `c${i}.jpg` });
    await store.answer(acq.key, answered, 10);
    per.push(performance.now() - t0);
  }
  rows.push(row('claim + answer committed, per request (median of 300)', median(per), 'ms', '<= 10 ms', 10));

  // 2. The race: two machines (a HOME and a copy of the images each) x four `geo locate`
  // processes, three killed at random, then all again; then the same under a budget of 7 more.
  const wait = (child) => new Promise((r) => child.on('close', r));
  const homes = ['laptop-a', 'laptop-b'].map((m) => mkdtempSync(join(tmpdir(), `geo-bench-${m}-`)));
  const wave = (server, from) => homes.flatMap((home) => {
    const dir = mkdtempSync(join(home, 'photos-'));
    for (let i = 0; i < 12; i++) writeFileSync(join(dir, `img${i}.jpg`), distinctJpeg(from + i, PARIS));
    return Array.from({ length: 4 }, () => spawn(process.execPath, [GEO_BIN, 'locate', dir, '--json', '--yes'], {
      env: benchEnv({ HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), GEO_API_KEY: 'orca_bench_team', GEO_BASE_URL: server.url, GEO_STORE_URL: pg.tcpUrl }),
      stdio: 'ignore',
    }));
  });
  const race = async (from) => {
    const server = await startChargingServer({ delayMs: 1000 });
    const first = wave(server, from);
    for (const v of [...first].sort(() => Math.random() - 0.5).slice(0, 3)) setTimeout(() => v.kill('SIGKILL'), 800 + Math.random() * 3000);
    await Promise.all(first.map(wait));
    await Promise.all(wave(server, from).map(wait));
    await server.close();
    return server;
  };
  rows.push(row('two machines x four geo locate, 12 images, 3 killed, run again: charges', (await race(0)).charges(), '', 'exactly 12', 12));
  // The cap is the admin's: set through the admin's own login, as a team's admin would.
  const adminStore = await openStore({ kind: 'team', url: pg.adminUrl }, { probe: processProbe(), now: Date.now });
  const before = await adminStore.budget.set(1_000_000, 'month');
  await adminStore.budget.set(before.spent + 7, 'month');
  rows.push(row('the same race under a budget of 7 more credits: credits charged', (await race(100)).credits(), '', '<= 7', 7));
  await adminStore.budget.set(1_000_000, 'month'); // no DELETE for an analyst's role: the cap is lifted instead
  await adminStore.close();

  // 3. N team results. The first TEMPLATES are stored with the columns and words geo itself
  // computes (resultColumnsOf, searchDocument), 100 a statement; the rest are made from them by the
  // server (INSERT … SELECT generate_series, fill.mjs), in the engine's own schema. TEMPLATES is a
  // multiple of every period in store-data.mjs's bodies (cities 16, quarters 50, addresses 300,
  // sentences 33), so row i has body(i)'s place and words; its id, path, sha256, time,
  // coordinates, confidence and analyst are computed from i.
  const t0 = Date.now();
  const COLS = RESULT_COLUMNS.split(', ');
  const B = 100;
  const TEMPLATES = Math.min(N, 13_200);
  const width = COLS.length + 4;
  const TYPES = { sandbox: 'integer', status: 'integer', usable: 'integer', listed: 'integer', depth: 'integer', latitude: 'float8', longitude: 'float8', confidence: 'float8', raw: 'bytea' };
  const types = [...COLS.map((c) => TYPES[c] ?? 'text'), 'text', 'text', 'text', 'text'];
  const marks = (k) => `(${types.map((t, j) => `$${k * width + j + 1}::${t}`).join(', ')})`;
  // The rows, then their words (results_search), in one statement per 100.
  const sqlFor = (n) => `WITH v (${RESULT_COLUMNS}, content_sha, paid_user, paid_host, words) AS (VALUES ${Array.from({ length: n }, (_, k) => marks(k)).join(', ')}),
    r AS (INSERT INTO results (${RESULT_COLUMNS}, content_sha, paid_user, paid_host) SELECT ${RESULT_COLUMNS}, content_sha, paid_user, paid_host FROM v RETURNING id, listed, content_sha)
    INSERT INTO results_search (id, listed, search) SELECT r.id, r.listed, to_tsvector('simple', v.words) FROM r JOIN v USING (content_sha)`;
  const full = sqlFor(B);
  const admin = openPool(pg.adminUrl, 1);
  const fill = await admin.connect();
  await dropForFill(fill);
  for (let from = 0; from < TEMPLATES; from += B) {
    const n = Math.min(B, TEMPLATES - from);
    const params = [];
    for (let i = from; i < from + n; i++) {
      const { row: r, search } = resultColumnsOf({ record: record(i), sandbox: false, listed: true });
      params.push(...COLS.map((c) => r[c]), contentSha(r), `analyst${i % 7}`, `laptop${i % 3}`, searchDocument(search));
    }
    await fill.query(n === B ? full : sqlFor(n), params);
  }
  console.error(`  ${TEMPLATES} template results stored by geo's code (${Math.round((Date.now() - t0) / 1000)} s)`);
  await fillFromTemplates(fill, COLS, TEMPLATES, N, (done) => console.error(`  … ${done} results (${Math.round((Date.now() - t0) / 1000)} s)`));
  await restoreAfterFill(fill);
  fill.release();
  await admin.end();
  console.error(`  ${N} results loaded in ${Math.round((Date.now() - t0) / 1000)} s`);

  // 4. The reads of geo history (in process), median of RUNS each.
  const time = async (fn) => {
    const xs = [];
    for (let r = 0; r < RUNS; r++) {
      const s = performance.now();
      await fn();
      xs.push(performance.now() - s);
    }
    return median(xs);
  };
  const AID = `an_bench_${(N >> 1).toString(16).padStart(8, '0')}`;
  rows.push(row(`history --limit 20 reads at ${N} results (in process)`, await time(async () => store.paidBy((await store.newest(20)).map((r) => r.id))), 'ms', '', undefined));
  rows.push(row(`history --search ${CITIES[3]} reads (in process)`, await time(async () => store.paidBy((await store.search(CITIES[3], 20)).rows.map((r) => r.id))), 'ms', '', undefined));
  rows.push(row('history show <analysis id> reads (in process)', await time(() => store.byAnalysisId(AID)), 'ms', '', undefined));
  await store.close();

  // 5. The look-ups as whole processes on the local file, the team store directly and through
  // PgBouncer, interleaved (team-lookups.mjs); the local file of N answers is bench/store.mjs's, reused.
  const { data: localData } = buildLocalStore(N, values['local-dir']);
  const pooled = await startPgBouncer(pg);
  if ('skip' in pooled) console.log(`  NOTICE: not timed through PgBouncer: ${pooled.skip}`);
  try {
    rows.push(...compareLookups({ runs: RUNS, local: localData, direct: pg.tcpUrl, pooled: 'skip' in pooled ? undefined : pooled.analystUrl, aid: AID, city: CITIES[3] }));
  } finally {
    if (!('skip' in pooled)) pooled.stop();
  }
  console.log(`bench/team: PostgreSQL over loopback TCP, ${N} team results; Node ${process.version}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the end`);
  printRows(rows);
  if (values.keep) {
    // --keep: the filled server stays up for EXPLAIN and whole-process runs by hand, until Ctrl-C.
    console.log(`\nkept running (Ctrl-C stops it): psql '${pg.adminUrl}'; GEO_STORE_URL='${pg.tcpUrl}'`);
    // A pending promise alone does not keep Node running: the timer does, until the signal.
    const alive = setInterval(() => {}, 1 << 30);
    await new Promise((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));
    clearInterval(alive);
  }
} finally {
  pg.stop();
}
