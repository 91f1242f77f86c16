/**
 * bench/batch (issue 5): N distinct images through runBatch against `geo sandbox --rate-limit R
 * --rate-window W --latency L` (the built CLI, its own process). Prints figures only, no verdict.
 *
 *   node --import tsx bench/batch.ts [--n 120] [--rate 60] [--window 10] [--latency 500] [--depth 1] [--concurrency C]
 *
 * Ceiling = (N / R) · W + L: N requests at R per W seconds take N/R windows, and the last answer
 * arrives one latency after the last start. The engine spaces starts evenly (2% margin), so its
 * expected wall time is (N - 1) · (W / R) · 1.02 + L plus start-up (GET /credits, journal fsyncs).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../src/api/client.js';
import { runBatch } from '../src/batch/run.js';

const ROOT = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '120' }, rate: { type: 'string', default: '60' }, window: { type: 'string', default: '10' },
    latency: { type: 'string', default: '500' }, depth: { type: 'string', default: '1' }, concurrency: { type: 'string' },
  },
});
const N = Number(values.n), R = Number(values.rate), W = Number(values.window), L = Number(values.latency);
const depth = Number(values.depth) as 1 | 2 | 3;

/** Distinct valid JPEGs: a fixture with a COM segment holding the index right after SOI. */
function makeImages(dir: string): void {
  const base = readFileSync(join(ROOT, 'fixtures/images/nogps.jpg'));
  for (let i = 0; i < N; i++) {
    const text = Buffer.from(`bench image ${i}`, 'latin1');
    const seg = Buffer.alloc(4);
    seg.writeUInt16BE(0xfffe, 0);
    seg.writeUInt16BE(text.length + 2, 2);
    writeFileSync(join(dir, `${String(i).padStart(4, '0')}.jpg`), Buffer.concat([base.subarray(0, 2), seg, text, base.subarray(2)]));
  }
}

async function startCliSandbox(): Promise<{ url: string; stop: () => void }> {
  if (!existsSync(join(ROOT, 'dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const child = spawn(process.execPath, [join(ROOT, 'bin/geo.js'), 'sandbox', '--port', '0', '--rate-limit', String(R), '--rate-window', String(W), '--latency', String(L)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      const line = buf.split('\n')[0]!;
      if (buf.includes('\n')) resolve(line.trim());
    });
    child.on('exit', (code) => reject(new Error(`geo sandbox exited ${code}`)));
  });
  child.stdout.resume();
  return { url, stop: () => child.kill('SIGTERM') };
}

const dir = mkdtempSync(join(tmpdir(), 'geo-bench-batch-'));
makeImages(dir);
const sb = await startCliSandbox();
let status429 = 0;
let requests = 0;
const client = new ApiClient({
  baseUrl: sb.url, apiKey: 'orca_sandbox_enterprise',
  // The debug hook sees every attempt's status line: the honest count of 429s on the wire.
  debug: (line) => {
    if (line.startsWith('< ')) requests++;
    if (line.startsWith('< 429 ')) status429++;
  },
});
try {
  const t0 = performance.now();
  const starts: number[] = [];
  let planAt = 0;
  const { summary } = await runBatch(
    {
      client, env: { GEO_STATE_DIR: join(dir, 'state') }, now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), cwd: dir,
      onEvent: (e) => {
        if (e.type === 'started') starts.push(performance.now() - t0);
        if (e.type === 'plan') planAt = performance.now() - t0;
      },
    },
    { inputs: ['.'], depth, ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}) },
  );
  const wallS = (performance.now() - t0) / 1000;
  const ceilingS = (N / R) * W + L / 1000;
  const ledger = (await (await fetch(`${sb.url}/__sandbox/ledger`)).json()) as { keys: Record<string, { debits: number; model_calls: number }> };
  const k = ledger.keys.orca_sandbox_enterprise!;
  const fmt = (x: number) => x.toFixed(2);
  console.log(`bench/batch  N=${N}  R=${R}/${W}s  L=${L}ms  depth=${depth}`);
  console.log(`  wall time          ${fmt(wallS)} s`);
  console.log(`  ceiling            ${fmt(ceilingS)} s   = (N/R)·W + L = (${N}/${R})·${W} + ${L / 1000}`);
  console.log(`  wall / ceiling     ${(wallS / ceilingS).toFixed(3)}   (budget 1.1)`);
  console.log(`  429 responses      ${status429}   (client retries on 429: ${summary.rateLimited})`);
  console.log(`  requests           ${requests} HTTP answers (incl. GET /credits); ok ${summary.ok}, failed ${summary.failed}, not sent ${summary.notSent}`);
  console.log(`  peak in flight     ${summary.concurrency}`);
  const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
  if (process.env.BENCH_GAPS) console.log(gaps.map((g, i) => [i + 1, Math.round(starts[i + 1]!), Math.round(g)]).filter((x) => x[2]! > 175).map((x) => x.join(":")).join(" "));
  console.log(`  timeline           plan ${fmt(planAt / 1000)} s, first start ${fmt(starts[0]! / 1000)} s, last start ${fmt(starts.at(-1)! / 1000)} s, mean gap ${(gaps.reduce((a, b) => a + b, 0) / gaps.length).toFixed(1)} ms (ideal ${((W * 1000) / R).toFixed(1)}), max gap ${Math.max(...gaps).toFixed(0)} ms`);
  console.log(`  ledger             debits ${k.debits}, model calls ${k.model_calls}`);
} finally {
  await client.close();
  sb.stop();
}
