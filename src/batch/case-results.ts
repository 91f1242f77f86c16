/**
 * "A case's results as the log vouches for them": the one code path `geo cases
 * verify`, `cases show`, `cases bundle` and `geo export --case` read a case through. The
 * chain is checked (pinned to the count and head the store kept), the entries that still parse
 * are read, and each linked result is held to its own entries (evidence/case-vouch.ts). Views are
 * built from what comes out, never from the store's columns.
 */
import { NotVerifiedError } from '../errors.js';
import { type CaseVouch, type Numbered, vouchCase } from '../evidence/case-vouch.js';
import { parseEntry } from '../evidence/custody.js';
import { type ChainReport, describeBroken, verifyChain } from '../evidence/custody-verify.js';
import type { CaseRow, StoreApi } from '../store/index.js';

export interface CaseEvidence {
  chain: ChainReport;
  /** The entries that parse, with their positions (a broken chain's other entries are still worth reading). */
  entries: Numbered[];
  vouch: CaseVouch;
}

export async function readCaseEvidence(store: StoreApi, c: CaseRow): Promise<CaseEvidence> {
  const lines = await store.cases.lines(c.id);
  const chain = verifyChain(lines, { caseId: c.id, entries: c.custody_entries, ...(c.custody_head ? { head: c.custody_head } : {}) });
  const entries: Numbered[] = [];
  lines.forEach((line, i) => {
    try {
      entries.push({ n: i + 1, e: parseEntry(line) });
    } catch {
      // named by the chain check
    }
  });
  return { chain, entries, vouch: vouchCase(entries, c, await store.cases.linked(c.id)) };
}

/** Every failure: the chain's first, then the results' and the case's. */
export function evidenceFailures(ev: CaseEvidence): string[] {
  return [...(ev.chain.ok ? [] : [`custody log: ${describeBroken(ev.chain.broken)}`]), ...ev.vouch.failures];
}

/**
 * The case's evidence for something that will carry it on (a bundle, an export): refused whole
 * when anything fails, so a forged value never leaves in a file. `doing` names what is refused.
 */
export async function vouchedOrRefuse(store: StoreApi, c: CaseRow, doing: string): Promise<CaseEvidence> {
  const ev = await readCaseEvidence(store, c);
  const failures = evidenceFailures(ev);
  if (failures.length) {
    const more = failures.length > 1 ? ` (and ${failures.length - 1} more)` : '';
    throw new NotVerifiedError(`case ${c.id} does not verify, so ${doing}: ${failures[0]}${more}`, `geo cases verify ${c.id} lists what fails`);
  }
  return ev;
}
