/**
 * bench/batch (issues 5 and 12): distinct images through runBatch (real client, journal on disk)
 * against `geo sandbox --rate-limit R --rate-window W --latency L --rate-algorithm A` (the built CLI,
 * its own process). Prints figures only, no verdict.
 *
 *   node --import tsx bench/batch.ts                 the nine rows of issue 12 (3 limiters x 3 cases)
 *   node --import tsx bench/batch.ts --algorithm bucket --n 120 --rate 20 --window 3 [--latency 500] [--concurrency C]
 *
 * N = the requests geo makes: the images plus the balance read before the batch. The ceiling is the
 * fastest any client could finish: fixed and sliding windows let R start per window, so
 * (ceil(N/R) - 1) · W + L; a bucket lets R start at once and then one every W/R, so
 * max(0, N - R) · W/R + L. Ratio = wall / (ceiling + 1 s), the second for process start-up and the
 * balance read.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../src/api/client.js';
import { runBatch } from '../src/batch/run.js';
import { processProbe } from '../src/cli.js';
import { Store } from '../src/store/index.js';
import { ROOT, load, startSandbox } from './lib.mjs';

const { values } = parseArgs({
  options: {
    algorithm: { type: 'string' }, n: { type: 'string' }, rate: { type: 'string' }, window: { type: 'string' },
    latency: { type: 'string', default: '500' }, depth: { type: 'string', default: '1' }, concurrency: { type: 'string' },
  },
});
type Alg = 'fixed' | 'sliding' | 'bucket';
interface Case { label: string; alg: Alg; images: number; R: number; W: number; L: number }

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

export function ceilingS(c: Case, requests: number): number {
  const L = c.L / 1000;
  if (c.alg === 'bucket') return (Math.max(0, requests - c.R) * c.W) / c.R + L;
  return (Math.ceil(requests / c.R) - 1) * c.W + L;
}

async function runCase(c: Case, dir: string) {
  const sb = await startCliSandbox(c);
  let status429 = 0;
  let requests = 0;
  const client = new ApiClient({
    baseUrl: sb.url, apiKey: 'orca_sandbox_enterprise',
    // The debug hook sees every attempt's status line: the honest count of requests and 429s.
    debug: (line) => {
      if (line.startsWith('< ')) requests++;
      if (line.startsWith('< 429 ')) status429++;
    },
  });
  try {
    const t0 = performance.now();
    const { summary } = await runBatch(
      {
        client, env: { GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-bench-state-')) }, now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), cwd: dir,
        store: Store.open(mkdtempSync(join(tmpdir(), 'geo-bench-data-')), { probe: processProbe(), now: Date.now }), version: 'bench',
      },
      // yes: the bench consents to its plan, as `geo locate --yes` would (issue 11: no spending without it).
      { inputs: ['.'], yes: true, depth: Number(values.depth) as 1 | 2 | 3, ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}) },
    );
    const wallS = (performance.now() - t0) / 1000;
    const ceiling = ceilingS(c, c.images + 1);
    return { wallS, ceiling, ratio: wallS / (ceiling + 1), status429, requests, ok: summary.ok, peak: summary.concurrency };
  } finally {
    await client.close();
    sb.stop();
  }
}

const root = mkdtempSync(join(tmpdir(), 'geo-bench-batch-'));
const L = Number(values.latency);
const cases: Case[] = [];
if (values.algorithm || values.n || values.rate || values.window) {
  cases.push({ label: 'custom', alg: (values.algorithm ?? 'fixed') as Alg, images: Number(values.n ?? 120), R: Number(values.rate ?? 60), W: Number(values.window ?? 10), L });
} else {
  for (const alg of ['fixed', 'sliding', 'bucket'] as const) {
    cases.push({ label: '(a)', alg, images: 19, R: 20, W: 60, L }, { label: '(b)', alg, images: 120, R: 20, W: 3, L }, { label: '(c)', alg, images: 120, R: 60, W: 10, L });
  }
}
const folders = new Map<number, string>();
console.log(`load ${load()} (1/5/15 min)`);
console.log('limiter  case  images  N    R/W      L      wall s   ceiling s  ratio  429s  requests  ok   peak in flight');
let worst = 0;
let all429 = 0;
for (const c of cases) {
  if (!folders.has(c.images)) folders.set(c.images, makeImages(join(root, String(c.images)), c.images));
  const r = await runCase(c, folders.get(c.images)!);
  worst = Math.max(worst, r.ratio);
  all429 += r.status429;
  const cells = [c.alg.padEnd(7), c.label.padEnd(4), String(c.images).padEnd(6), String(c.images + 1).padEnd(3), `${c.R}/${c.W}s`.padEnd(7), `${c.L / 1000}s`.padEnd(5),
    r.wallS.toFixed(2).padStart(7), r.ceiling.toFixed(2).padStart(10), r.ratio.toFixed(3).padStart(6), String(r.status429).padStart(5), String(r.requests).padStart(9), String(r.ok).padStart(4), String(r.peak).padStart(5)];
  console.log(cells.join('  '));
}
console.log(`load ${load()}`);
console.log(`worst ratio ${worst.toFixed(3)} (budget 1.1)   429 responses ${all429} (budget 0)`);
