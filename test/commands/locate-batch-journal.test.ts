/**
 * "A rerun of the same work never pays twice", through the command: the same single-input locate
 * run again prints the same body without a charge, --fresh pays again, and --resume FILE finishes
 * what the same key left, sending only that (another key's journal is refused). Ledger debits are
 * the proof.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeolocateResponseSchema } from '../../src/api/schemas.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));

describe('the journal behind every locate', () => {
  it('rerunning the same single-input command re-emits the stored body, not charged; --fresh pays again', async () => {
    const env = { GEO_STATE_DIR: tmp('geo-state-'), GEO_DATA_DIR: tmp('geo-data-') };
    const run = (argv: string[]) => runner(sb)(argv, { env });
    const argv = ['locate', `${IMG}sydney.jpg`, '--depth', '2', '--json'];
    const first = await run(argv);
    expect(first.code).toBe(0);
    const body = GeolocateResponseSchema.parse(JSON.parse(first.stdout));
    const paid = footprint(sb);

    const again = await run(argv);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toMatch(/from the store, not charged: .*--fresh to analyse again/);
    expect(again.stderr).not.toContain('sandbox: simulated results'); // nothing was sent
    expect(footprint(sb)).toEqual(paid);

    const view = await run(argv.slice(0, -1));
    expect(view.code).toBe(0);
    expect(view.stdout).toContain('from the store (an earlier run of this request): nothing sent, not charged');
    expect(footprint(sb)).toEqual(paid);

    const fresh = await run([...argv, '--fresh']);
    expect(fresh.code).toBe(0);
    expect(JSON.parse(fresh.stdout).analysis_id).not.toBe(body.analysis_id);
    const after = footprint(sb);
    console.log('[rerun] debits', { first: paid.debits, rerun: paid.debits, fresh: after.debits });
    expect(after.debits).toBe(paid.debits + 1);
    expect(after.idempotency).toBe(paid.idempotency + 1); // a new key
  });

  it('--resume FILE: a batch stopped by a 402 is not finished by another key; the same key sends only what was left', async () => {
    const dir = tmp('geo-resume-');
    for (const n of ['tokyo.jpg', 'nogps.jpg', 'plain.png']) copyFileSync(`${IMG}${n}`, join(dir, n));
    const journal = join(tmp('geo-journal-'), 'case42.ndjson');
    const stopped = await runner(sb, KEYS.broke)(['locate', dir, '--journal', journal, '--concurrency', '1']);
    expect(stopped.code).toBe(4);
    expect(readFileSync(journal, 'utf8')).toMatch(/^\{"t":"head"/);
    // A journal is one account's (issue 11): another key is refused, nothing sent.
    const before = footprint(sb);
    const other = await runner(sb)(['locate', '--resume', journal]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/written with another API key/);
    expect(footprint(sb)).toEqual(before);

    // The same key: a run that stopped before its last image (its lines never written) resumes it alone.
    const own = join(tmp('geo-journal-'), 'case43.ndjson');
    expect((await runner(sb)(['locate', dir, '--journal', own, '--no-store'])).code).toBe(0);
    const lines = readFileSync(own, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    const left = lines.find((l) => l.t === 'send' && l.input.endsWith('plain.png')).id;
    writeFileSync(own, lines.filter((l) => l.id !== left).map((l) => JSON.stringify(l) + '\n').join(''));
    const paid = footprint(sb);
    const resumed = await runner(sb)(['locate', '--resume', own]);
    expect(resumed.code).toBe(0);
    const recs = resumed.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    // Lines come as inputs finish (concurrently), so their order is not fixed.
    expect(recs.map((r) => [r.input.replace(/.*\//, ''), r.ok]).sort()).toEqual([['nogps.jpg', true], ['plain.png', true], ['tokyo.jpg', true]]);
    expect(resumed.stderr).toMatch(/2 images answered by an earlier run of this command, not charged/);
    expect(footprint(sb).debits).toBe(paid.debits + 1);

    // And once more: everything from the store, nothing sent.
    const done = footprint(sb);
    const again = await runner(sb)(['locate', '--resume', own]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/3 images answered by an earlier run of this command, not charged \(--fresh to analyse again\)/);
    expect(footprint(sb)).toEqual(done);
  });

  it('--idempotency-key: the caller\'s key, resent and replayed by the service, never charged twice', async () => {
    const env = { GEO_STATE_DIR: tmp('geo-state-'), GEO_DATA_DIR: tmp('geo-state-') };
    const key = `journal-test-${Date.now()}`;
    const first = await runner(sb)(['locate', `${IMG}tokyo.jpg`, '--idempotency-key', key, '--json'], { env });
    const paid = footprint(sb);
    // Another machine (another store) with the caller's key: the service replays it.
    const again = await runner(sb)(['locate', `${IMG}tokyo.jpg`, '--idempotency-key', key, '--json'], { env: { ...env, GEO_DATA_DIR: tmp('geo-other-data-') } });
    expect(again.stderr).toContain('replayed: the stored response for this Idempotency-Key, no credits charged');
    expect(JSON.parse(again.stdout).analysis_id).toBe(JSON.parse(first.stdout).analysis_id);
    // The same store: the answer is there already, nothing is sent.
    const requests = sb.ledger().keys[KEYS.pro]!.requests;
    const local = await runner(sb)(['locate', `${IMG}tokyo.jpg`, '--idempotency-key', key, '--json'], { env });
    expect(local.stderr).toMatch(/from the store, not charged/);
    expect(sb.ledger().keys[KEYS.pro]!.requests).toBe(requests);
    expect(footprint(sb).debits).toBe(paid.debits);
  });
});
