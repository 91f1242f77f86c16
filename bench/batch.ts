/**
 * bench/batch (issues 5, 12 and 21): distinct images through runBatch (real client, journal on disk)
 * against `geo sandbox --rate-limit R --rate-window W --latency L --rate-algorithm A` (the built CLI,
 * its own process). Prints figures beside their budgets, no verdict.
 *
 *   node --import tsx bench/batch.ts                 every row: 3 limiters x (3 cases of issue 12 + 4 field conditions of issue 21)
 *   node --import tsx bench/batch.ts --only j,o      only the field rows (j: relay; o: relay + another client)
 *   node --import tsx bench/batch.ts --algorithm bucket --n 120 --rate 20 --window 3 [--latency 500] [--concurrency C] [--jitter] [--other]
 *
 * N = the requests geo makes: the images plus the balance read before the batch. The ceiling is the
 * fastest any client could finish with the quota left to it, Q per window: Q = R, or 3R/4 when
 * another client spends a quarter of every window. Fixed and sliding windows let Q start per
 * window, so (ceil(N/Q) - 1) · W + L; a bucket lets R start at once and then Q per W, so
 * max(0, N - R) · W/Q + L. Ratio = wall / (ceiling + 1 s), the second for process start-up and the
 * balance read. Budgets (issue 21): ratio <= 1.1 and at most 1 answer of 429 per 100 requests.
 *
 * Field conditions (bench/field.ts): j = geo talks to the sandbox through a relay that holds each
 * request and each answer for a seeded random 0-40 ms; o = the same relay plus a second client on
 * the same key spending R/4 of every window (one GET every 4·W/R s). Its own 429s are printed apart.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../src/api/client.js';
import { runBatch } from '../src/batch/run.js';
import { processProbe } from '../src/cli.js';
import { Store, asStoreApi } from '../src/store/index.js';
import { type OtherClient, type Relay, otherClient, startRelay } from './field.js';
import { ROOT, load, startSandbox } from './lib.mjs';

const { values } = parseArgs({
  options: {
    algorithm: { type: 'string' }, n: { type: 'string' }, rate: { type: 'string' }, window: { type: 'string' },
    latency: { type: 'string', default: '500' }, depth: { type: 'string', default: '1' }, concurrency: { type: 'string' },
    jitter: { type: 'boolean' }, other: { type: 'boolean' }, only: { type: 'string' }, seed: { type: 'string', default: '21' },
  },
});
type Alg = 'fixed' | 'sliding' | 'bucket';
interface Case { label: string; alg: Alg; images: number; R: number; W: number; L: number; jitter?: boolean; other?: boolean }

/** Distinct valid JPEGs: a fixture with a COM segment holding the index right after SOI. */
function makeImages(dir: string, n: number): string {
  mkdirSync(dir, { recursive: true });
  const base = readFileSync(join(ROOT, 'fixtures/images/nogps.jpg'));
  for (let i = 0; i < n; i++) {
    const text = Buffer.from(`bench image ${i}`, 'latin1');
    const seg = Buffer.alloc(4);
    seg.writeUInt16BE(0xfffe, 0);
    seg.writeUInt16BE(text.length + 2, 2);
    writeFileSync(join(dir, `${String(i).padStart(4, '0')}.jpg`), Buffer.concat([base.subarray(0, 2), seg, text, base.subarray(2)]));
  }
  return dir;
}

/** The sandbox as the built CLI, its own process; lib.mjs waits until its geocoder warm-up is over. */
function startCliSandbox(c: Case) {
  return startSandbox(['--rate-limit', String(c.R), '--rate-window', String(c.W), '--latency', String(c.L), '--rate-algorithm', c.alg]);
}

/** The quota of a window left to geo: all of it, or 3/4 beside a client that spends a quarter. */
const quotaLeft = (c: Case): number => (c.other ? c.R - Math.floor(c.R / 4) : c.R);

export function ceilingS(c: Case, requests: number): number {
  const L = c.L / 1000;
  const Q = quotaLeft(c);
  if (c.alg === 'bucket') return (Math.max(0, requests - c.R) * c.W) / Q + L;
  return (Math.ceil(requests / Q) - 1) * c.W + L;
}

async function runCase(c: Case, dir: string) {
  const sb = await startCliSandbox(c);
  const relay: Relay | undefined = c.jitter || c.other ? await startRelay(sb.url, Number(values.seed)) : undefined;
  const base = relay?.url ?? sb.url;
  let other: OtherClient | undefined;
  let status429 = 0;
  let requests = 0;
  const client = new ApiClient({
    baseUrl: base, apiKey: 'orca_sandbox_enterprise',
    // The debug hook sees every attempt's status line: the honest count of requests and 429s.
    debug: (line) => {
      if (line.startsWith('< ')) requests++;
      if (line.startsWith('< 429 ')) status429++;
    },
  });
  try {
    // The other client starts first: its quarter of the first window is spent before geo's balance read.
    if (c.other) other = otherClient(base, 'orca_sandbox_enterprise', (4 * c.W * 1000) / c.R);
    const t0 = performance.now();
    const { summary, records } = await runBatch(
      {
        client, env: { GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-bench-state-')) }, now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), cwd: dir,
        store: asStoreApi(Store.open(mkdtempSync(join(tmpdir(), 'geo-bench-data-')), { probe: processProbe(), now: Date.now }), Date.now), version: 'bench',
      },
      // yes: the bench consents to its plan, as `geo locate --yes` would (issue 11: no spending without it).
      { inputs: ['.'], yes: true, depth: Number(values.depth) as 1 | 2 | 3, ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}) },
    );
    const wallS = (performance.now() - t0) / 1000;
    const failures = new Map<string, number>();
    for (const rec of records) if (!rec.ok) failures.set(rec.error?.code ?? '?', (failures.get(rec.error?.code ?? '?') ?? 0) + 1);
    if (failures.size) console.error(`  ${c.alg} ${c.label}: failed ${[...failures].map(([k, n]) => `${n} ${k}`).join(', ')}; ${records.find((r) => !r.ok)?.error?.message ?? ''}`);
    const ceiling = ceilingS(c, c.images + 1);
    return { wallS, ceiling, ratio: wallS / (ceiling + 1), status429, requests, ok: summary.ok, peak: summary.concurrency, other: other ? `${other.ok}/${other.sent} ok, ${other.limited} 429` : '-' };
  } finally {
    other?.stop();
    await client.close();
    await relay?.close();
    sb.stop();
  }
}

const root = mkdtempSync(join(tmpdir(), 'geo-bench-batch-'));
const L = Number(values.latency);
const cases: Case[] = [];
const field = { ...(values.jitter || values.other ? { jitter: true } : {}), ...(values.other ? { other: true } : {}) };
if (values.algorithm || values.n || values.rate || values.window) {
  cases.push({ label: `custom${values.other ? '+o' : values.jitter ? '+j' : ''}`, alg: (values.algorithm ?? 'fixed') as Alg, images: Number(values.n ?? 120), R: Number(values.rate ?? 60), W: Number(values.window ?? 10), L, ...field });
} else {
  const only = values.only?.split(',');
  const want = (tag: string) => !only || only.includes(tag);
  for (const alg of ['fixed', 'sliding', 'bucket'] as const) {
    const b = { alg, images: 120, R: 20, W: 3, L };
    const c = { alg, images: 120, R: 60, W: 10, L };
    if (want('a')) cases.push({ label: '(a)', alg, images: 19, R: 20, W: 60, L });
    if (want('b')) cases.push({ label: '(b)', ...b });
    if (want('c')) cases.push({ label: '(c)', ...c });
    if (want('j')) cases.push({ label: '(b)+j', ...b, jitter: true }, { label: '(c)+j', ...c, jitter: true });
    if (want('o')) cases.push({ label: '(b)+o', ...b, jitter: true, other: true }, { label: '(c)+o', ...c, jitter: true, other: true });
  }
}
const folders = new Map<number, string>();
console.log(`load ${load()} (1/5/15 min)`);
console.log('limiter  case    images  N    R/W     Q   L      wall s  budget s  ceiling s  ratio  429s  budget  requests  ok   peak  other client');
let worst = 0;
let all429 = 0;
let over = 0;
for (const c of cases) {
  if (!folders.has(c.images)) folders.set(c.images, makeImages(join(root, String(c.images)), c.images));
  const r = await runCase(c, folders.get(c.images)!);
  worst = Math.max(worst, r.ratio);
  all429 += r.status429;
  // Issue 21's budgets, per row: wall <= 1.1 x (ceiling + 1 s); at most 1 answer of 429 per 100 requests.
  const wallBudget = 1.1 * (r.ceiling + 1);
  const budget429 = Math.floor(r.requests / 100);
  if (r.wallS > wallBudget || r.status429 > budget429) over++;
  const cells = [c.alg.padEnd(7), c.label.padEnd(6), String(c.images).padEnd(6), String(c.images + 1).padEnd(3), `${c.R}/${c.W}s`.padEnd(6), String(quotaLeft(c)).padEnd(2), `${c.L / 1000}s`.padEnd(5),
    r.wallS.toFixed(2).padStart(7), wallBudget.toFixed(2).padStart(8), r.ceiling.toFixed(2).padStart(9), r.ratio.toFixed(3).padStart(6), String(r.status429).padStart(5), `<= ${budget429}`.padStart(6),
    String(r.requests).padStart(9), String(r.ok).padStart(4), String(r.peak).padStart(5), `  ${r.other}`];
  console.log(cells.join('  '));
}
console.log(`load ${load()}`);
console.log(`worst ratio ${worst.toFixed(3)} (budget 1.1)   429 responses ${all429} (budget 1 per 100 requests, per row)   rows over a budget: ${over}`);
