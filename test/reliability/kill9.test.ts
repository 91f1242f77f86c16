/**
 * kill -9 at ten random moments of a batch, each followed by a resume (issue 7). The BUILT binary
 * (`node bin/geo.js locate <dir> --journal FILE --json`) runs the batch against a sandbox in this
 * process (with latency, so requests are in flight when the kill lands); the sandbox outlives the
 * kill and its ledger is the witness. The moments are seeded, spread over the measured length of
 * an unkilled run, so they fall during start-up, mid-flight and near the end. After each resume
 * (alternately the same command again and `--resume FILE`): every input has exactly one result,
 * the ledger's net debits equal unique images x depth cost, and no key was charged twice.
 * (test/batch/kill9.test.ts kills a runBatch child twice; this kills the real command ten times.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPTH_COST } from '../../src/api/schemas.js';
import { parseJournal } from '../../src/batch/journal.js';
import { mulberry32 } from '../../src/sandbox/faults.js';
import { KEYS, type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { GEO_BIN, binEnv, spawnGeo, tempConfigDir } from '../helpers/run-cli.js';
import { makeImages } from '../batch/helpers.js';
import { errorLines, figures } from './helpers.js';

const KILLS = 10;
const SEED = 2026;
const KEY = KEYS.pro;
const DEPTH = 2;
const COST = DEPTH_COST[DEPTH];
const UNIQUE = 8;
const INPUTS = UNIQUE + 1;
const LATENCY_MS = 150;

let dir = '';
beforeAll(() => {
  if (!existsSync(new URL('../../dist/cli.js', import.meta.url))) throw new Error('run `npm run build` first: this test spawns bin/geo.js');
  dir = makeImages(UNIQUE);
  copyFileSync(join(dir, '003.jpg'), join(dir, 'zz-dup.jpg'));
});

let sb: TestSandbox | undefined;
afterAll(async () => sb?.close());

const args = (journal: string) => ['locate', dir, '--json', '--depth', String(DEPTH), '--concurrency', '2', '--journal', journal];
const envFor = (s: TestSandbox) => ({ GEO_API_KEY: KEY, GEO_BASE_URL: s.url, GEO_STATE_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir() });

/**
 * Spawns the binary and SIGKILLs it `delayMs` after `ready()` first holds (polled every 5 ms);
 * resolves with what it printed and whether the kill landed before the run ended.
 */
function runAndKill(argv: string[], env: Record<string, string>, ready: () => boolean, delayMs: number): Promise<{ lines: number; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [GEO_BIN, ...argv], {
      env: binEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    let timer: NodeJS.Timeout | undefined;
    const poll = setInterval(() => {
      if (!ready()) return;
      clearInterval(poll);
      timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    }, 5);
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ lines: out.split('\n').filter(Boolean).length, killed: signal === 'SIGKILL' });
    });
  });
}

interface Rec {
  input: string;
  ok: boolean;
  result?: { analysis_id: string };
}

/** A count from the summary on stderr ("3 answers replayed ...", "2 images answered by an earlier run ..."). */
const summaryCount = (stderr: string, what: RegExp): number => Number(new RegExp(`^(\\d+) ${what.source}`, 'm').exec(stderr)?.[1] ?? 0);

describe(`kill -9 of the built binary: ${KILLS} cases`, () => {
  it(`kill -9 at ${KILLS} random moments, each resumed: every input one result, net debits = ${UNIQUE} unique x ${COST}, nothing charged twice`, async () => {
    // An unkilled run: its length, and when its first request reached the sandbox (before that
    // it is Node and geo starting up), so the moments can be spread over the batch itself.
    sb = await startTestSandbox({ latencyMs: LATENCY_MS });
    const s0 = sb;
    const t0 = Date.now();
    let firstMs = 0;
    const poll = setInterval(() => {
      if (!firstMs && Object.keys(s0.ledger().keys[KEY]!.idempotency).length > 0) firstMs = Date.now() - t0;
    }, 5);
    const base = await spawnGeo(args(join(mkdtempSync(join(tmpdir(), 'geo-k9-')), 'j.ndjson')), { env: envFor(s0) });
    clearInterval(poll);
    const runMs = Date.now() - t0;
    expect(base.code).toBe(0);
    await s0.close();

    const rand = mulberry32(SEED);
    const rows: string[] = [];
    let landed = 0;
    let unheardTotal = 0;
    for (let i = 1; i <= KILLS; i++) {
      sb = await startTestSandbox({ latencyMs: LATENCY_MS });
      const s = sb;
      const env = envFor(s);
      const journal = join(mkdtempSync(join(tmpdir(), 'geo-k9-')), 'j.ndjson');
      // The moment is chosen by progress, not by the clock, so it lands mid-batch on a loaded
      // machine too: after the sandbox has received `sentBefore` of the unique requests (0: at
      // start-up, before anything is sent), plus a random part of one latency (answers in flight).
      const sentBefore = Math.floor(rand() * UNIQUE);
      const delay = Math.round(rand() * (sentBefore === 0 ? firstMs : LATENCY_MS * 0.6));
      const at = `${sentBefore} requests + ${delay} ms`;
      const k = await runAndKill(args(journal), env, () => Object.keys(s.ledger().keys[KEY]?.idempotency ?? {}).length >= sentBefore, delay);
      if (k.killed) landed++;
      // Requests the killed run had in flight still finish on the server (and are charged).
      await new Promise((r) => setTimeout(r, LATENCY_MS + 100));
      const st = existsSync(journal) ? parseJournal(readFileSync(journal, 'utf8')) : undefined;
      const sent = st?.keys.size ?? 0;
      const answered = st ? [...st.done.values()].filter((d) => d.ok).length : 0;
      const killed = figures(s.ledger(), KEY);
      // Paid for, but the killed run never wrote the answer down: what the resume must replay.
      const unheard = killed.debits - answered;
      unheardTotal += unheard;
      expect(killed.net).toBeLessThanOrEqual(UNIQUE * COST);
      // The key is on disk before the request is sent: nothing reached the server unjournaled.
      expect(killed.requestsByKey.size).toBeLessThanOrEqual(sent);

      // The resume: --resume with the journal or the same command again (alternately). A kill
      // before the journal's first line leaves nothing to --resume, and nothing was sent then.
      const how = i % 2 && st?.head ? '--resume' : 'rerun';
      const argv = how === 'rerun' ? args(journal) : ['locate', '--resume', journal, '--json'];
      const r = await spawnGeo(argv, { env });
      const recs = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Rec);
      const f = figures(s.ledger(), KEY);
      const replayed = summaryCount(r.stderr, /answers? replayed/);
      const fromJournal = summaryCount(r.stderr, /images? answered by an earlier run of this command/);
      rows.push(
        `#${i} kill at ${at}${k.killed ? '' : ' (run had ended)'}: ${k.lines} printed; journal ${sent} sent, ${answered} answered; ` +
          `${killed.debits} debited by then (${unheard} paid, unheard) | ${how}: exit ${r.code}, ${recs.length} results, ${fromJournal} from the journal, ${replayed} replayed | ` +
          `ledger: debits ${f.debits}, refunds ${f.refunds}, net ${f.net} credits, keys ${f.netByKey.size}, model calls ${f.modelCalls}`,
      );

      expect(r.code, r.stderr).toBe(0);
      expect(errorLines(r.stderr)).toHaveLength(0);
      expect(recs).toHaveLength(INPUTS);
      expect(new Set(recs.map((x) => x.input)).size).toBe(INPUTS);
      expect(recs.every((x) => x.ok)).toBe(true);
      expect(fromJournal).toBe(answered);
      expect(replayed).toBe(unheard); // no lost result: each paid-for answer came back, free
      expect(f.net).toBe(UNIQUE * COST);
      expect(f.debits).toBe(UNIQUE);
      expect(f.refunds).toBe(0);
      expect(f.netByKey.size).toBe(UNIQUE);
      expect([...f.netByKey.values()].every((v) => v === COST)).toBe(true);
      expect(f.modelCalls).toBe(UNIQUE); // every analysis ran once: nothing redone after the kill
      // Each result is the analysis that was paid for.
      const ids = new Set(recs.map((x) => x.result!.analysis_id));
      expect(ids.size).toBe(UNIQUE);
      expect([...ids].every((id) => f.analysisIds.includes(id))).toBe(true);
      await s.close();
      sb = undefined;
    }
    console.log(
      `[kill -9] unkilled run ${runMs} ms (first request at ${firstMs} ms); ${INPUTS} inputs (${UNIQUE} unique), depth ${DEPTH} (${COST} credits), latency ${LATENCY_MS} ms, concurrency 2\n` +
        rows.join('\n') +
        `\n[kill -9] ${landed}/${KILLS} kills landed before the run ended; ${unheardTotal} paid-but-unheard answers replayed free; ` +
        `after every resume: ${INPUTS} results, debits ${UNIQUE}, net ${UNIQUE * COST} credits (${UNIQUE} unique x ${COST}), no key charged twice`,
    );
    // A moment drawn inside the run's length should almost always land before it ends.
    expect(landed).toBe(KILLS);
  }, 60_000);
});
