/**
 * kill -9 in the middle of a video, then the same command again (issue 23 "Must show"): the
 * frames go through the batch journal like any images, so the rerun re-emits what was answered,
 * resends what was in flight with the same idempotency keys (the service replays them free), sends
 * the rest once, and nothing is paid twice. The sandbox lives in this process and outlives the
 * kill; its ledger is the witness. The frames of the rerun are the same bytes (frames.ts), which is
 * what lets the journal recognise them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneJson } from '../../src/media/scene.js';
import { CLIPS, FFMPEG, ffmpegTitle } from '../helpers/ffmpeg.js';
import { GEO_BIN, binEnv, spawnGeo } from '../helpers/run-cli.js';
import { dbRows } from '../helpers/store.js';
import { KEYS, type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { ledgerFigures } from './helpers.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** Runs geo until it has printed `after` NDJSON lines, then SIGKILLs it. */
function runAndKill(argv: string[], env: Record<string, string>, after: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GEO_BIN, ...argv], { env: binEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = 0;
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      printed += c.toString('utf8').split('\n').length - 1;
      if (printed >= after && !child.killed) child.kill('SIGKILL');
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve(printed) : reject(new Error(`geo exited ${code} before the kill: ${err}`))));
  });
}

describe.skipIf(!FFMPEG)(ffmpegTitle('kill -9 mid-video, then the same command'), () => {
  it('pays every frame once', async () => {
    sb = await startTestSandbox({ latencyMs: 300 });
    const env = { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-state-')), GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-data-')) };
    // --every 1: ten frames of the one-place take, two at a time.
    const argv = ['locate', join(CLIPS, 'one-place.mp4'), '--every', '1', '--concurrency', '2'];
    const printed = await runAndKill([...argv, '--format', 'ndjson'], env, 3);
    // What the store holds after the kill: answers committed, claims left open (sent, no answer heard).
    const answered = dbRows<{ n: number }>(env.GEO_DATA_DIR, "SELECT count(*) AS n FROM claims WHERE state = 'answered'")[0]!.n;
    const inFlight = dbRows<{ n: number }>(env.GEO_DATA_DIR, "SELECT count(*) AS n FROM claims WHERE state = 'open'")[0]!.n;
    console.log(`[kill -9 video] killed after ${printed} lines: ${answered} answered, ${inFlight} sent without an answer in the store`);
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(answered).toBeLessThan(10);

    const again = await spawnGeo([...argv, '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    const s = JSON.parse(again.stdout) as SceneJson;
    expect(s.frames).toHaveLength(10);
    expect(s.frames.every((f) => f.ok)).toBe(true);
    expect(s.consensus).toMatchObject({ agree: 10, of: 10 });
    expect(again.stderr).toMatch(new RegExp(`${answered} images answered by an earlier run of this command, not charged`));
    const f = ledgerFigures(sb.ledger(), KEYS.pro);
    console.log('[kill -9 video] ledger', f);
    expect(f.debits).toBe(10);
    expect(f.netCredits).toBe(10);
    expect(f.modelCalls).toBe(10);
    expect(f.idempotencyKeys).toBe(10);
  }, 60_000);
});
