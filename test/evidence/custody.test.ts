/**
 * The custody log's format: every event sealed to the one before, the documented canonical form
 * recomputed here with node:crypto alone, and verification naming the first broken entry when a
 * byte is altered, an entry removed, two swapped, one forged, or the end cut off.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type CustodyEvent, GENESIS, parseEntry } from '../../src/evidence/custody.js';
import { CustodyLog, MemoryCustodyStorage, currentActor } from '../../src/evidence/custody-log.js';
import { type ChainReport, describeBroken, verifyChain } from '../../src/evidence/custody-verify.js';

const SHA = (c: string) => c.repeat(64);
/** The failure line of a report that must have failed. */
function brokenText(r: ChainReport): string {
  if (r.ok) throw new Error('the chain verified');
  return describeBroken(r.broken);
}

const ACTOR = { user: 'analyst', host: 'desk-1', geo: '0.1.0' };

/** One event of each kind, in the order a case meets them. */
export const EVENTS: CustodyEvent[] = [
  { event: 'case_created', data: { case: { id: 'case_1', name: 'Harbour fire' } } },
  { event: 'input_hashed', data: { input: { path: 'shots/pier.jpg', sha256: SHA('a'), size: 123456 } } },
  { event: 'request_sent', data: { request: { input_sha256: SHA('a'), sha256: SHA('b'), size: 120000, fields: { depth: 3 }, service: 'https://oceanir.ai', idempotency_key: 'geo-k1' } } },
  { event: 'answer_received', data: { answer: { sha256: SHA('c'), size: 2048, status: 200, service: 'https://oceanir.ai', analysis_id: 'an_1', sandbox: false } } },
  { event: 'result_linked', data: { result: { input_sha256: SHA('a'), answer_sha256: SHA('c'), analysis_id: 'an_1', input_path: 'shots/pier.jpg', service: 'https://oceanir.ai', sandbox: false } } },
  { event: 'file_written', data: { file: { kind: 'report', format: 'html', path: 'report.html', sha256: SHA('d'), size: 99 } } },
  {
    event: 'bundle_sealed',
    data: { bundle: { members: [{ path: 'answers/c.json', sha256: SHA('c'), size: 2048 }], results: [{ record: 'records/001-c.json', answer: 'answers/c.json', answer_sha256: SHA('c'), input_sha256: SHA('a'), analysis_id: 'an_1' }], originals: false } },
  },
  { event: 'bundle_made', data: { bundle: { path: 'case.zip', sha256: SHA('e'), size: 5000, manifest_sha256: SHA('f'), entries: 7, head: SHA('1'), originals: false } } },
];

async function logOf(events = EVENTS): Promise<{ log: CustodyLog; storage: MemoryCustodyStorage }> {
  const storage = new MemoryCustodyStorage();
  let t = Date.parse('2025-05-14T10:00:00Z');
  const log = new CustodyLog(storage, ACTOR, () => (t += 1000));
  for (const ev of events) await log.append('case_1', ev);
  return { log, storage };
}

/** The README's recipe, with node:crypto only: sort keys, no spaces, sha256 without `hash`. */
function independentHash(line: string): string {
  const canon = (v: unknown): string =>
    Array.isArray(v) ? `[${v.map(canon).join(',')}]` : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}` : JSON.stringify(v);
  const { hash: _h, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return createHash('sha256').update(canon(rest)).digest('hex');
}

describe('sealing', () => {
  it('every event kind: time, user, host, version, seq, prev = hash of the entry before, first prev all zeros', async () => {
    const { log } = await logOf();
    const lines = await log.lines('case_1');
    expect(lines).toHaveLength(8);
    const entries = lines.map(parseEntry);
    expect(entries.map((e) => e.event)).toEqual(EVENTS.map((e) => e.event));
    expect(entries[0]).toMatchObject({ schema: 'geo.custody/1', case: 'case_1', seq: 1, at: '2025-05-14T10:00:01.000Z', user: 'analyst', host: 'desk-1', geo: '0.1.0', prev: GENESIS });
    entries.forEach((e, i) => {
      expect(e.seq).toBe(i + 1);
      expect(e.hash).toBe(independentHash(lines[i]!));
      if (i > 0) expect(e.prev).toBe(entries[i - 1]!.hash);
    });
    // Stored as canonical JSON: the line is exactly the sorted, spaceless form.
    expect(lines[1]!.startsWith('{"at":"2025-05-14T10:00:02.000Z","case":"case_1","data":{"input":{"path":"shots/pier.jpg","sha256":"aaaa')).toBe(true);
    expect(await log.verify('case_1')).toEqual({ ok: true, entries: 8, head: entries[7]!.hash, caseId: 'case_1' });
  });

  it('a case starts with case_created; nothing is appended after a damaged last line', async () => {
    const storage = new MemoryCustodyStorage();
    const log = new CustodyLog(storage, ACTOR, () => 0);
    await expect(log.append('case_2', EVENTS[1]!)).rejects.toThrow(/first entry of case case_2 must be case_created/);
    expect(await storage.lines('case_2')).toEqual([]);
    await log.append('case_2', EVENTS[0]!);
    storage.raw('case_2')[0] = '{"broken';
    await expect(log.append('case_2', EVENTS[1]!)).rejects.toThrow(/custody log of case case_2 is damaged at its last entry \(not valid JSON\): nothing appended/);
    expect(await storage.lines('case_2')).toHaveLength(1);
  });

  it('the OS user and host name', () => {
    const a = currentActor('9.9.9');
    expect(a.geo).toBe('9.9.9');
    expect(a.user.length).toBeGreaterThan(0);
    expect(a.host.length).toBeGreaterThan(0);
  });
});

describe('verify names the first broken entry', () => {
  it('one byte of an entry changed', async () => {
    const { log, storage } = await logOf();
    const raw = storage.raw('case_1');
    raw[2] = raw[2]!.replace('"size":120000', '"size":120001');
    const r = await log.verify('case_1');
    expect(r.ok).toBe(false);
    expect(!r.ok && describeBroken(r.broken)).toBe('entry 3 (request_sent): its content does not match its hash: it was altered');
  });

  it('an entry altered and its hash recomputed: the next entry\'s link breaks', async () => {
    const { log, storage } = await logOf();
    const raw = storage.raw('case_1');
    const e = JSON.parse(raw[1]!);
    e.data.input.path = 'elsewhere.jpg';
    e.hash = independentHash(JSON.stringify(e));
    raw[1] = JSON.stringify(e);
    const r = await log.verify('case_1');
    expect(!r.ok && describeBroken(r.broken)).toBe('entry 3 (request_sent): its prev does not match the hash of entry 2: entry 2 or this one was replaced');
  });

  it('an entry removed', async () => {
    const { log, storage } = await logOf();
    storage.raw('case_1').splice(3, 1);
    const r = await log.verify('case_1');
    expect(!r.ok && describeBroken(r.broken)).toBe('entry 4 (result_linked): its seq is 5: entry 4 was removed');
  });

  it('two entries swapped', async () => {
    const { log, storage } = await logOf();
    const raw = storage.raw('case_1');
    [raw[2], raw[3]] = [raw[3]!, raw[2]!];
    const r = await log.verify('case_1');
    expect(!r.ok && describeBroken(r.broken)).toBe('entry 3 (answer_received): its seq is 4: entries are out of order (entry 3 comes later)');
  });

  it('a forged entry inserted with a made-up hash', async () => {
    const { log, storage } = await logOf();
    const raw = storage.raw('case_1');
    const forged = { ...JSON.parse(raw[1]!), data: { input: { path: 'planted.jpg', sha256: SHA('9'), size: 1 } }, hash: SHA('7') };
    raw.splice(2, 0, JSON.stringify(forged));
    const r = await log.verify('case_1');
    expect(!r.ok && describeBroken(r.broken)).toBe('entry 3 (input_hashed): its seq is 2: entries are out of order, or one was copied');
  });

  it('the first entry removed, a line that is not JSON, an entry of another case', async () => {
    const { storage } = await logOf();
    const lines = storage.raw('case_1');
    expect(brokenText(verifyChain(lines.slice(1)))).toBe('entry 1 (input_hashed): its seq is 2: entry 1 was removed');
    expect(brokenText(verifyChain([lines[0]!, 'garbage']))).toBe('entry 2: not a custody entry: not valid JSON');
    expect(brokenText(verifyChain(lines, { caseId: 'case_9' }))).toMatch(/^entry 1 \(case_created\): it belongs to case "case_1", not "case_9"$/);
  });

  it('the end cut off or the whole log rewritten: caught only against an expected count and head', async () => {
    const { storage } = await logOf();
    const lines = storage.raw('case_1');
    const head = parseEntry(lines[7]!).hash;
    expect(verifyChain(lines.slice(0, 5)).ok).toBe(true);
    expect(brokenText(verifyChain(lines.slice(0, 5), { entries: 8, head }))).toBe('entry 6: the log ends after 5 entries, 8 were expected: entries were removed from its end');
    const other = await logOf(EVENTS.map((e, i) => (i === 1 ? { event: 'input_hashed', data: { input: { path: 'x.jpg', sha256: SHA('2'), size: 1 } } } : e)));
    expect(brokenText(verifyChain(await other.storage.lines('case_1'), { entries: 8, head }))).toMatch(/^entry 8 \(bundle_made\): the last entry's hash is not the expected head [0-9a-f]{16}…: the log was rewritten$/);
    expect(verifyChain([])).toEqual({ ok: false, entries: 0, broken: { position: 1, problem: 'the log is empty: a case starts with case_created' } });
  });
});
