/**
 * kill -9 mid-batch, twice, then resume (issue 5 "Must show"). The batch runs in a child process;
 * the sandbox lives here, in the test process, so it outlives the kills and its ledger is the
 * witness: after the final resume, debits = unique successful images × depth cost, every model
 * call was paid once, and every input has exactly one result.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/batch/journal.js';
import { runBatch } from '../../src/batch/run.js';
import { DEPTH_COST } from '../../src/api/schemas.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { ledgerFigures, makeImages, realSleep, testClient, testStore } from './helpers.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CHILD = new URL('./kill-child.ts', import.meta.url).pathname;
const KEY = 'orca_sandbox_enterprise';
const N = 24;
const DEPTH = 2 as const;

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** Runs the child until it has printed `after` results, then SIGKILLs it; resolves with what it printed. */
function runAndKill(args: object, after: number): Promise<{ printed: number; finished: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(args)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    let printed = 0;
    let finished = false;
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.includes('"done":true')) finished = true;
        else printed++;
        if (printed >= after && !child.killed) child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL' && !finished) reject(new Error(`child exited ${code}: ${err}`));
      else resolve({ printed, finished });
    });
  });
}

describe('kill -9 and resume', () => {
  it('loses nothing and charges nothing twice', async () => {
    sb = await startSandbox({ rateLimit: 600, latencyMs: 200 });
    const dir = makeImages(N);
    copyFileSync(join(dir, '003.jpg'), join(dir, 'zz-dup-of-003.jpg'));
    const journal = join(mkdtempSync(join(tmpdir(), 'geo-kill9-')), 'batch.ndjson');
    const data = mkdtempSync(join(tmpdir(), 'geo-kill9-data-'));
    const args = { baseUrl: sb.url, key: KEY, cwd: dir, journal, data, depth: DEPTH };

    const kills: Array<{ after: number; printed: number; sentNoOutcome: number }> = [];
    for (const after of [3 + Math.floor(Math.random() * 6), 12 + Math.floor(Math.random() * 6)]) {
      const r = await runAndKill(args, after);
      const st = parseJournal(readFileSync(journal, 'utf8'));
      kills.push({ after, printed: r.printed, sentNoOutcome: [...st.keys.keys()].filter((id) => !st.done.has(id)).length });
    }

    const resumed = await runBatch(
      { client: testClient(sb.url, KEY), env: {}, now: Date.now, sleep: realSleep, cwd: dir, store: testStore(data), version: '0.0.0-test' },
      { inputs: [], depth: DEPTH, resume: journal, yes: true },
    );
    const f = ledgerFigures(sb.ledger(), KEY);
    const unique = N;
    console.log('[kill -9] kills', kills);
    console.log('[kill -9] resume summary', { ...resumed.summary, journal: undefined });
    console.log(`[kill -9] ledger: debits ${f.debits}, refunds ${f.refunds}, net credits ${f.netCredits} (expected ${unique} unique × ${DEPTH_COST[DEPTH]} = ${unique * DEPTH_COST[DEPTH]}), model calls ${f.modelCalls}, idempotency keys ${f.idempotencyKeys}, geolocate requests ${f.geolocateRequests}`);

    expect(resumed.records).toHaveLength(N + 1);
    expect(new Set(resumed.records.map((r) => r.input)).size).toBe(N + 1);
    expect(resumed.records.every((r) => r.ok)).toBe(true);
    expect(f.netCredits).toBe(unique * DEPTH_COST[DEPTH]);
    expect(f.debits).toBe(unique);
    expect(f.modelCalls).toBe(unique);
    expect(f.idempotencyKeys).toBe(unique);
    // Each image's analysis exists once: the duplicate shares its twin's analysis_id.
    const ids = resumed.records.map((r) => (r.result as { analysis_id: string }).analysis_id);
    expect(new Set(ids).size).toBe(unique);
  }, 60_000);
});
