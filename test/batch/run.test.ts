/**
 * runBatch against the real sandbox over HTTP with the real client: duplicates, a 422 image, a
 * 402 stop, dry-run, --max-credits, rerun from the journal. Ledger figures are the proof.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BatchDeps, runBatch } from '../../src/batch/run.js';
import type { BatchEvent } from '../../src/batch/types.js';
import { UsageError } from '../../src/errors.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { FIXTURES, ledgerFigures, makeImages, realSleep, testClient, testStore } from './helpers.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

function deps(url: string, cwd: string, key?: string, events: BatchEvent[] = []): BatchDeps {
  return {
    client: testClient(url, key), env: { GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-state-')) }, store: testStore(), version: '0.0.0-test', now: Date.now, sleep: realSleep,
    cwd, onEvent: (e) => events.push(e),
  };
}

describe('runBatch', () => {
  it('sends duplicates once, records a 422 and goes on, one record per input', async () => {
    sb = await startSandbox({ rateLimit: 600 });
    const dir = makeImages(5);
    copyFileSync(join(dir, '001.jpg'), join(dir, 'dup-of-001.jpg'));
    copyFileSync(join(FIXTURES, 'blocked.png'), join(dir, 'blocked.png'));
    const events: BatchEvent[] = [];
    const d = deps(sb.url, dir, undefined, events);
    const { records, summary } = await runBatch(d, { inputs: ['.', './000.jpg'], depth: 2 });
    expect(records).toHaveLength(8);
    expect(records.map((r) => r.input)).toEqual(['000.jpg', '001.jpg', '002.jpg', '003.jpg', '004.jpg', 'blocked.png', 'dup-of-001.jpg', './000.jpg']);
    const blocked = records.find((r) => r.input === 'blocked.png')!;
    expect(blocked).toMatchObject({ ok: false, error: { code: 'content_blocked', status: 422 }, exif: null });
    expect(records.filter((r) => r.ok)).toHaveLength(7);
    expect(records[1]!.result).toEqual(records[6]!.result); // the duplicate shares the answer
    expect(summary).toMatchObject({ inputs: 8, unique: 6, ok: 7, failed: 1, creditsSpent: 10 });
    const f = ledgerFigures(sb.ledger(), 'orca_sandbox_enterprise');
    console.log('[duplicates+422] ledger', f);
    expect(f.geolocateRequests).toBe(6);
    expect(f.netCredits).toBe(5 * 2);
    // NDJSON lines go out as each input finishes, and progress follows each one.
    expect(events.filter((e) => e.type === 'finished')).toHaveLength(8);
    expect(events.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ progress: { done: 7, failed: 1, total: 8 } });

    // Rerun of the same command (the same batch): everything comes from the store, nothing is sent.
    const again = await runBatch({ ...d, onEvent: undefined }, { inputs: ['.', './000.jpg'], depth: 2 });
    expect(again.summary).toMatchObject({ fromJournal: 6, creditsSpent: 0, batch: summary.batch });
    expect(again.records.map((r) => r.ok)).toEqual(records.map((r) => r.ok));
    expect(ledgerFigures(sb.ledger(), 'orca_sandbox_enterprise').geolocateRequests).toBe(6);
    // A photo added to the folder: the same command sends only the new one.
    copyFileSync(join(FIXTURES, 'paris.jpg'), join(dir, 'new.jpg'));
    const third = await runBatch({ ...d, onEvent: undefined }, { inputs: ['.', './000.jpg'], depth: 2 });
    expect(third.summary).toMatchObject({ fromJournal: 6, creditsSpent: 2, inputs: 9 });
    expect(ledgerFigures(sb.ledger(), 'orca_sandbox_enterprise').geolocateRequests).toBe(7);
  });

  it('402 stops the batch: nothing further is sent, the rest are not_sent', async () => {
    sb = await startSandbox({ rateLimit: 600 });
    const dir = makeImages(8);
    const { records, summary } = await runBatch(deps(sb.url, dir, 'orca_sandbox_broke'), { inputs: ['.'], depth: 1, concurrency: 2 });
    expect(summary.stopped?.reason).toBe('credits');
    expect(records).toHaveLength(8);
    const sent = records.filter((r) => r.error?.code === 'payment_required').length;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(2); // only what was in flight
    expect(records.filter((r) => r.error?.code === 'not_sent')).toHaveLength(8 - sent);
    const f = ledgerFigures(sb.ledger(), 'orca_sandbox_broke');
    console.log('[402 stop] ledger', f, 'sent', sent);
    expect(f.geolocateRequests).toBe(sent);
    expect(f.netCredits).toBe(0);
  });

  it('--dry-run previews redacted requests and sends nothing; --max-credits refuses', async () => {
    sb = await startSandbox({ rateLimit: 600 });
    const dir = makeImages(3);
    const d = deps(sb.url, dir, 'orca_sandbox_pro');
    const { plan, records, previews } = await runBatch(d, { inputs: ['.'], depth: 3, dryRun: true });
    expect(records).toEqual([]);
    expect(plan).toMatchObject({ inputs: 3, unique: 3, toSend: 3, costPerImage: 10, credits: 30, available: 10_000, needsConfirm: true, insufficient: false });
    const requests = [];
    for await (const r of previews!) requests.push(r);
    expect(requests).toHaveLength(3);
    const text = JSON.stringify(requests);
    expect(text).not.toContain('orca_sandbox_pro');
    expect(text).toContain('[REDACTED]');
    expect(requests[0]!.body).toMatchObject({ depth: 3, image_b64: expect.stringMatching(/elided/) });
    await expect(runBatch(d, { inputs: ['.'], depth: 3, maxCredits: 29 })).rejects.toThrow(UsageError);
    expect(ledgerFigures(sb.ledger(), 'orca_sandbox_pro').geolocateRequests).toBe(0);
  });

  it('a declined confirmation sends nothing', async () => {
    sb = await startSandbox({ rateLimit: 600 });
    const dir = makeImages(3);
    writeFileSync(join(dir, 'list.txt'), '000.jpg\n# a comment\n\n001.jpg\n002.jpg\n');
    const d = { ...deps(sb.url, dir), confirm: async () => false };
    await expect(runBatch(d, { inputs: [], fromFile: 'list.txt', depth: 3 })).rejects.toThrow(/you said no: nothing was sent/);
    expect(ledgerFigures(sb.ledger(), 'orca_sandbox_enterprise').geolocateRequests).toBe(0);
  });
});

describe('runBatch cancelled', () => {
  it('Ctrl-C mid-batch: in-flight requests are left resendable, a rerun finishes with one charge each', async () => {
    sb = await startSandbox({ rateLimit: 600, latencyMs: 150 });
    const dir = makeImages(12);
    const ac = new AbortController();
    let finished = 0;
    const d = { ...deps(sb.url, dir), signal: ac.signal, onEvent: (e: BatchEvent) => void (e.type === 'finished' && ++finished === 3 && ac.abort(new Error('interrupted'))) };
    const first = await runBatch(d, { inputs: ['.'], depth: 1 });
    expect(first.summary.stopped?.reason).toBe('cancelled');
    expect(first.records).toHaveLength(12);
    // Every input accounted: answered, in flight at the abort (may have been charged), or never sent.
    const { ok, inFlight, notSent, failed } = first.summary;
    expect([ok + inFlight + notSent, failed]).toEqual([12, 0]);
    expect(first.records.filter((r) => r.error?.code === 'in_flight')).toHaveLength(inFlight);
    const second = await runBatch({ ...d, signal: new AbortController().signal, onEvent: () => undefined }, { inputs: ['.'], depth: 1 });
    expect(second.records.every((r) => r.ok)).toBe(true);
    const f = ledgerFigures(sb.ledger(), 'orca_sandbox_enterprise');
    console.log('[cancel] first', { ok: first.summary.ok, failed: first.summary.failed, notSent: first.summary.notSent }, 'ledger', f);
    expect(f.netCredits).toBe(12);
    expect(f.modelCalls).toBe(12);
  });
});
