/**
 * The claims table's one decision (src/store/sqlite/claims.ts acquire, issue 30): a claim is found by the
 * request's fingerprint, whatever key the caller brings. Two stores on one file are two geo runs
 * (each its own owner); the rows are read back as sqlite3 would see them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parisRecord } from '../export/fixtures.js';
import { dbRows, openStore } from '../helpers/store.js';

const FP = 'f'.repeat(64);
const OTHER_FP = 'e'.repeat(64);
const openClaims = (dir: string) => dbRows<{ key: string }>(dir, "SELECT key FROM claims WHERE fp = ? AND state = 'open'", FP).map((r) => r.key);

describe('acquire finds a claim by what is sent, never by the key alone', () => {
  it('a caller key for a request another run holds open waits for that key; the caller key is never claimed beside it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-claims-'));
    const a = openStore(dir);
    const b = openStore(dir);
    try {
      const first = a.acquire(FP, {});
      expect(first.kind).toBe('send');
      const key = (first as { key: string }).key;
      expect(b.acquire(FP, { key: 'mine' })).toEqual({ kind: 'wait', key });
      expect(openClaims(dir)).toEqual([key]);
      expect(b.claim('mine')).toBeUndefined();
    } finally {
      a.close();
      b.close();
    }
  });

  it('an orphaned claim (its run is gone) is resent with its own key, not the caller\'s; once answered, any key reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-claims-'));
    const a = openStore(dir);
    const key = (a.acquire(FP, {}) as { key: string }).key;
    a.close(); // releases the claim: open, nobody holds it
    const b = openStore(dir);
    try {
      const again = b.acquire(FP, { key: 'mine' });
      expect(again).toMatchObject({ kind: 'send', key, takeover: true });
      const id = b.answer(key, { record: parisRecord(), sandbox: false, listed: true }, 1);
      expect(b.acquire(FP, { key: 'yours' })).toMatchObject({ kind: 'answered', key, resultId: id });
      expect(b.acquire(FP, {})).toMatchObject({ kind: 'answered', key, resultId: id });
      expect(b.claim('mine')).toBeUndefined();
      expect(b.claim('yours')).toBeUndefined();
    } finally {
      b.close();
    }
  });

  it('the caller key of this very request is followed; used for another request it is refused; --fresh sends a new key on purpose', () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-claims-'));
    const s = openStore(dir);
    try {
      expect(s.acquire(FP, { key: 'k1' })).toMatchObject({ kind: 'send', key: 'k1', takeover: false });
      const id = s.answer('k1', { record: parisRecord(), sandbox: false, listed: true }, 1);
      expect(s.acquire(FP, { key: 'k1' })).toMatchObject({ kind: 'answered', key: 'k1', resultId: id });
      expect(s.acquire(OTHER_FP, { key: 'k1' })).toMatchObject({ kind: 'failed', key: 'k1', error: { code: 'key_reused' } });
      // --fresh (only answers from `since` on count): the answer under k1 is older, so k2 is a new request.
      const t = Date.now() + 60_000;
      expect(s.acquire(FP, { key: 'k2', since: t })).toMatchObject({ kind: 'send', key: 'k2', takeover: false });
      // and while k2 is open, nobody opens a third key for the same request.
      expect(s.acquire(FP, { key: 'k3', since: t })).toMatchObject({ kind: 'send', key: 'k2', takeover: true });
      expect(openClaims(dir)).toEqual(['k2']);
    } finally {
      s.close();
    }
  });
});
