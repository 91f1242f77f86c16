/**
 * Issue 11, the per-account journal: nothing one key paid for is re-emitted for another. A pro key
 * locates at depth 3; the same command with a free key is sent (the ledger shows it) and gets the
 * service's 403, exit 3, with nothing re-emitted; a journal file written by another key is refused;
 * the same command's journal from before fingerprints is resent with its keys (a free replay for
 * the same account).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountFingerprint } from '../../src/api/secret.js';
import { batchId } from '../../src/batch/plan.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const requests = (key: string) => sb.ledger().keys[key]!.requests;

describe('the journal and the store are per account', () => {
  it('pro then free key, same command: the free key gets its own 403 (exit 3), nothing re-emitted', async () => {
    const env = { GEO_STATE_DIR: tmp('geo-state-'), GEO_DATA_DIR: tmp('geo-data-') };
    const argv = ['locate', `${IMG}sydney.jpg`, '--depth', '3', '--json'];
    const pro = await runner(sb, KEYS.pro)(argv, { env });
    expect(pro.code).toBe(0);
    const before = requests(KEYS.free);
    const free = await runner(sb, KEYS.free)(argv, { env });
    expect(free.code).toBe(3);
    expect(free.stdout).toBe('');
    expect(free.stderr).toMatch(/depth/i);
    expect(free.stderr).not.toMatch(/from the journal|from your results/);
    expect(requests(KEYS.free)).toBe(before + 1); // the free key's own request reached the service
    expect(footprint(sb, KEYS.free).debits).toBe(0);
    console.log('[per-account] free key requests', requests(KEYS.free) - before, 'pro debits', footprint(sb).debits);
  });

  it('a --journal file written by another key is refused (exit 2, nothing sent); --fresh starts it anew', async () => {
    const env = { GEO_STATE_DIR: tmp('geo-state-'), GEO_DATA_DIR: tmp('geo-data-') };
    const journal = join(tmp('geo-journal-'), 'case.ndjson');
    expect((await runner(sb, KEYS.pro)(['locate', `${IMG}tokyo.jpg`, '--journal', journal], { env })).code).toBe(0);
    const head = JSON.parse(readFileSync(journal, 'utf8').split('\n')[0]!);
    expect(head.account).toMatch(/^[0-9a-f]{20}$/);
    const before = footprint(sb, KEYS.starter);
    const other = await runner(sb, KEYS.starter)(['locate', `${IMG}tokyo.jpg`, '--journal', journal], { env });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/written with another API key .*hint: .*--fresh/);
    expect(other.stdout).toBe('');
    expect(footprint(sb, KEYS.starter)).toEqual(before);
    const fresh = await runner(sb, KEYS.starter)(['locate', `${IMG}tokyo.jpg`, '--journal', journal, '--fresh'], { env });
    expect(fresh.code).toBe(0);
    expect(footprint(sb, KEYS.starter).debits).toBe(before.debits + 1);
  });

  it('the same command\'s journal from before fingerprints: its answers are resent with their keys, replayed free', async () => {
    const env = { GEO_STATE_DIR: tmp('geo-state-'), GEO_DATA_DIR: tmp('geo-data-') };
    const dir = tmp('geo-legacy-');
    const photo = join(dir, 'nogps.jpg');
    copyFileSync(`${IMG}nogps.jpg`, photo);
    // What an older geo left: no store, a journal at the default path whose hash has no account,
    // and no account in its head. Made here by a run that writes its journal to a file, whose data
    // folder is then left behind. An older geo sent files as they were, so only --keep-metadata (the
    // same bytes) may resend its keys.
    const file = join(tmp('geo-journal-'), 'old.ndjson');
    expect((await runner(sb)(['locate', photo, '--no-store', '--keep-metadata', '--journal', file], { env: { ...env, GEO_DATA_DIR: tmp('geo-old-data-') } })).code).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    delete lines[0].account;
    mkdirSync(join(env.GEO_STATE_DIR, 'journals'));
    writeFileSync(join(env.GEO_STATE_DIR, 'journals', `${batchId({ args: [photo] }, { depth: 1 }, sb.url)}.ndjson`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const paid = footprint(sb);
    const again = await runner(sb)(['locate', photo, '--json', '--keep-metadata'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/an answer of a journal that predates account fingerprints is not re-emitted but resent with its key/);
    expect(again.stderr).toContain('replayed');
    expect(footprint(sb).debits).toBe(paid.debits);
    expect(footprint(sb).idempotency).toBe(paid.idempotency); // the old key, not a new one
  });
});

describe('accountFingerprint', () => {
  it('is one-way, short, stable, and differs per key and per origin', () => {
    const key = 'orca_live_0123456789abcdef0123456789abcdef';
    const a = accountFingerprint('https://oceanir.ai', key);
    expect(a).toMatch(/^[0-9a-f]{20}$/);
    expect(a).toBe(accountFingerprint('https://oceanir.ai/', key));
    for (const part of [key, key.slice(-8), 'orca_live']) expect(a).not.toContain(part);
    expect(accountFingerprint('https://oceanir.ai', key + 'x')).not.toBe(a);
    expect(accountFingerprint('http://127.0.0.1:4010', key)).not.toBe(a);
  });
});
