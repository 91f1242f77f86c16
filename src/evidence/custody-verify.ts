/**
 * Verifies a custody log (custody.ts) and names its first broken entry. The checks, in order, for
 * the entry at position i (from 1): it parses and has the entry's shape; its seq is i (a gap means
 * entries were removed, a smaller seq that they were reordered or repeated); it belongs to the
 * case of the first entry; its prev is 64 zeros and its event case_created (i = 1), or the hash
 * of the entry before; its hash is the sha256 of its own canonical JSON; and the stored line is that
 * canonical JSON byte for byte, hash included.
 *
 * A chain proves that nothing inside it changed, not that nothing was cut from its end or that it
 * was not rewritten whole: `expect` pins the count and the last hash (the head) from elsewhere,
 * a bundle's manifest, the store's case row, or a head the analyst wrote down or sent on.
 */
import { type CustodyEntry, GENESIS, entryHash, entryShapeProblem, serializeEntry } from './custody.js';

const NOT_CANONICAL = 'its line is not the canonical JSON its hash was made from (a key twice, other spacing or key order): it was altered';

export interface ChainExpectation {
  caseId?: string;
  entries?: number;
  head?: string;
}

export interface BrokenEntry {
  /** Position in the log, from 1 (what "entry 3" means in messages). */
  position: number;
  event?: string;
  problem: string;
}

export type ChainReport = { ok: true; entries: number; head: string; caseId?: string } | { ok: false; entries: number; broken: BrokenEntry };

function parse(line: string): { entry?: CustodyEntry; problem?: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { problem: 'not valid JSON' };
  }
  const problem = entryShapeProblem(v);
  return problem ? { problem } : { entry: v as CustodyEntry };
}

/** `comesLater`: whether an entry after this one has that seq, to tell a reordering from a removal. */
function linkProblem(e: CustodyEntry, i: number, prev: CustodyEntry | undefined, caseId: string | undefined, comesLater: (seq: number) => boolean): string | undefined {
  if (e.seq > i && comesLater(i)) return `its seq is ${e.seq}: entries are out of order (entry ${i} comes later)`;
  if (e.seq > i) return `its seq is ${e.seq}: ${e.seq - i === 1 ? `entry ${i} was` : `entries ${i} to ${e.seq - 1} were`} removed`;
  if (e.seq < i) return `its seq is ${e.seq}: entries are out of order, or one was copied`;
  if (caseId !== undefined && e.case !== caseId) return `it belongs to case ${JSON.stringify(e.case)}, not ${JSON.stringify(caseId)}`;
  if (!prev) {
    if (e.prev !== GENESIS) return 'the first entry must have prev 0000…: entries before it were removed';
    if (e.event !== 'case_created') return `the first entry must be case_created, not ${e.event}`;
    return undefined;
  }
  if (e.prev !== prev.hash) return `its prev does not match the hash of entry ${i - 1}: entry ${i - 1} or this one was replaced`;
  return undefined;
}

/** Checks the stored lines of one case's log; the first failure is named, nothing after it is judged. */
export function verifyChain(lines: readonly string[], expect: ChainExpectation = {}): ChainReport {
  let prev: CustodyEntry | undefined;
  const caseId = expect.caseId;
  const parsed = lines.map(parse);
  for (let i = 1; i <= lines.length; i++) {
    const { entry, problem } = parsed[i - 1]!;
    const broken = (p: string, event?: string): ChainReport => ({ ok: false, entries: lines.length, broken: { position: i, ...(event ? { event } : {}), problem: p } });
    if (!entry) return broken(`not a custody entry: ${problem}`);
    const comesLater = (seq: number) => parsed.slice(i).some((p) => p.entry?.seq === seq);
    const link = linkProblem(entry, i, prev, caseId ?? prev?.case, comesLater);
    if (link) return broken(link, entry.event);
    if (entryHash(entry) !== entry.hash) return broken('its content does not match its hash: it was altered', entry.event);
    // The hash is over the parsed entry; a line that parses to it but is not its canonical JSON (a
    // key twice, other spacing or order) reads as another entry to a reader that keeps the first key.
    if (serializeEntry(entry) !== lines[i - 1]) return broken(NOT_CANONICAL, entry.event);
    prev = entry;
  }
  if (!prev) return { ok: false, entries: 0, broken: { position: 1, problem: 'the log is empty: a case starts with case_created' } };
  if (expect.entries !== undefined && expect.entries !== lines.length) {
    const problem = lines.length < expect.entries ? `the log ends after ${lines.length} entries, ${expect.entries} were expected: entries were removed from its end` : `the log has ${lines.length} entries, ${expect.entries} were expected: entries were added`;
    return { ok: false, entries: lines.length, broken: { position: Math.min(lines.length, expect.entries) + 1, problem } };
  }
  if (expect.head !== undefined && expect.head !== prev.hash) {
    return { ok: false, entries: lines.length, broken: { position: lines.length, event: prev.event, problem: `the last entry's hash is not the expected head ${expect.head.slice(0, 16)}…: the log was rewritten` } };
  }
  return { ok: true, entries: lines.length, head: prev.hash, caseId: prev.case };
}

/** "entry 3 (input_hashed): its content does not match its hash: it was altered". */
export function describeBroken(b: BrokenEntry): string {
  return `entry ${b.position}${b.event ? ` (${b.event})` : ''}: ${b.problem}`;
}
