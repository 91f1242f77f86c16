/**
 * Checking a local case (issue 24): its custody log's chain, pinned by the count and head the
 * store kept at the last append (so entries cut off the end are caught); each linked result's raw
 * answer against the log's answer_received and result_linked entries; and each file the log says
 * was written (a report, an export, a bundle) against the sha256 it logged, when it is still there.
 */
import { type CustodyEntry, parseEntry, sha256Hex } from '../../evidence/custody.js';
import { type ChainReport, describeBroken, verifyChain } from '../../evidence/custody-verify.js';
import { sha256File } from '../../files/read.js';
import type { CaseVerifyView } from '../../output/views/case-show.js';
import type { CaseRow, Store } from '../../store/index.js';

/** What verifyCase found: the view's shape (output/views/case-show.ts). */
export type CaseReport = CaseVerifyView;

/** The case's chain, pinned to what the store kept at the last append. */
export async function caseChain(store: Store, c: CaseRow): Promise<ChainReport> {
  const lines = await store.cases().lines(c.id);
  return verifyChain(lines, { caseId: c.id, entries: c.custody_entries, ...(c.custody_head ? { head: c.custody_head } : {}) });
}

const fileOf = (e: CustodyEntry): { path: string; sha256: string } | undefined => {
  const f = (e.event === 'file_written' ? e.data.file : e.event === 'bundle_made' ? e.data.bundle : undefined) as { path?: unknown; sha256?: unknown } | undefined;
  return typeof f?.path === 'string' && typeof f.sha256 === 'string' && f.path !== '-' ? { path: f.path, sha256: f.sha256 } : undefined;
};

export async function verifyCase(store: Store, c: CaseRow): Promise<CaseReport> {
  const report: CaseReport = { case: { id: c.id, name: c.name }, ok: false, answers: 0, files: 0, failures: [], notes: [] };
  const chain = await caseChain(store, c);
  if (chain.ok) report.custody = { entries: chain.entries, head: chain.head };
  else report.failures.push(`custody log: ${describeBroken(chain.broken)}`);
  // What the entries that still parse say (a broken chain's other entries are still worth reading).
  const entries: Array<{ n: number; e: CustodyEntry }> = [];
  (await store.cases().lines(c.id)).forEach((line, i) => {
    try {
      entries.push({ n: i + 1, e: parseEntry(line) });
    } catch {
      // named by the chain check
    }
  });
  const received = new Set(entries.filter(({ e }) => e.event === 'answer_received').map(({ e }) => (e.data.answer as { sha256?: string }).sha256));
  const linked = new Set(entries.filter(({ e }) => e.event === 'result_linked').map(({ e }) => (e.data.result as { answer_sha256?: string }).answer_sha256));
  const inCase = new Set<string>();
  for (const s of store.cases().stored(c.id)) {
    const sha = sha256Hex(s.record.response.raw ?? '');
    inCase.add(sha);
    const what = `result ${s.id} (${s.record.input.path})`;
    if (!received.has(sha)) report.failures.push(`${what}: its raw answer in the store (sha256 ${sha.slice(0, 16)}…) is not one the custody log received: it was changed, or linked without the log`);
    else if (!linked.has(sha)) report.failures.push(`${what}: linked to the case, but no result_linked entry has its answer`);
    else report.answers++;
  }
  for (const { n, e } of entries) {
    if (e.event !== 'result_linked') continue;
    const sha = (e.data.result as { answer_sha256?: string }).answer_sha256;
    if (sha !== undefined && !inCase.has(sha)) report.failures.push(`entry ${n} (result_linked): no result linked to the case in the store has its answer (a link was removed, or an answer changed)`);
  }
  await checkFiles(entries, report);
  report.ok = report.failures.length === 0;
  return report;
}

/** The last entry naming each path is the one that counts: a report written again later supersedes the first. */
async function checkFiles(entries: ReadonlyArray<{ n: number; e: CustodyEntry }>, report: CaseReport): Promise<void> {
  const last = new Map<string, { n: number; e: CustodyEntry; sha256: string }>();
  for (const x of entries) {
    const f = fileOf(x.e);
    if (f) last.set(f.path, { ...x, sha256: f.sha256 });
  }
  for (const [path, { n, e, sha256 }] of last) {
    let now: string;
    try {
      now = await sha256File(path);
    } catch {
      report.notes.push(`entry ${n} (${e.event}): ${path} is gone (moved or deleted): not checked`);
      continue;
    }
    if (now === sha256) report.files++;
    else report.failures.push(`entry ${n} (${e.event}): ${path} was changed after it was written (its sha256 is not the one logged)`);
  }
}
