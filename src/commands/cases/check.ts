/**
 * Checking a local case (issues 24 and 30), in sections reported apart:
 * integrity: its custody log's chain, pinned by the count and head the store kept at the last
 *   append (so entries cut off the end are caught); each linked result held to its own
 *   result_linked entry and that answer's answer_received entry, every value the store keeps for it
 *   (raw answer, body, columns, record, sandbox flag) and the case's own row against the log
 *   (batch/case-results.ts); each file the log says was written (a report, an export, a bundle)
 *   against the sha256 it logged, when it is still there, read without ever blocking or
 *   following a link put in its place.
 * simulated: the answers a sandbox gave, which are not evidence (refused unless --allow-sandbox).
 */
import { type CaseEvidence, evidenceFailures, readCaseEvidence } from '../../batch/case-results.js';
import type { CustodyEntry } from '../../evidence/custody.js';
import { simulatedCount } from '../../evidence/simulated.js';
import { UNSIGNED, simulatedSection } from '../../evidence/verify-report.js';
import { NotRegularFileError, sha256RegularFile } from '../../files/read.js';
import type { CaseVerifyView } from '../../output/views/case-show.js';
import type { CaseRow, Store } from '../../store/index.js';

/** What verifyCase found: the view's shape (output/views/case-show.ts). */
export type CaseReport = CaseVerifyView;

const fileOf = (e: CustodyEntry): { path: string; sha256: string } | undefined => {
  const f = (e.event === 'file_written' ? e.data.file : e.event === 'bundle_made' ? e.data.bundle : undefined) as { path?: unknown; sha256?: unknown } | undefined;
  return typeof f?.path === 'string' && typeof f.sha256 === 'string' && f.path !== '-' ? { path: f.path, sha256: f.sha256 } : undefined;
};

export async function verifyCase(store: Store, c: CaseRow, opts: { allowSandbox?: boolean } = {}): Promise<CaseReport> {
  const ev: CaseEvidence = await readCaseEvidence(store, c);
  const failures = evidenceFailures(ev);
  const notes: string[] = [];
  const files = await checkFiles(ev, failures, notes);
  const simulated = simulatedSection(ev.vouch.simulated, Boolean(opts.allowSandbox));
  const integrity: CaseReport['integrity'] = {
    ok: failures.length === 0,
    ...(ev.chain.ok ? { custody: { entries: ev.chain.entries, head: ev.chain.head } } : {}),
    answers: ev.vouch.results.filter((r) => r.ok).length,
    files, failures, notes, signed: false, caveat: UNSIGNED.case,
  };
  return {
    case: { id: c.id, name: ev.vouch.case.name || c.id },
    ok: integrity.ok && simulated.ok,
    integrity, simulated,
    failures: [...failures, ...(simulated.ok ? [] : [simulatedCount(simulated.answers)])],
  };
}

/** The last entry naming each path is the one that counts: a report written again later supersedes the first. */
async function checkFiles(ev: CaseEvidence, failures: string[], notes: string[]): Promise<number> {
  const last = new Map<string, { n: number; e: CustodyEntry; sha256: string }>();
  for (const x of ev.entries) {
    const f = fileOf(x.e);
    if (f) last.set(f.path, { ...x, sha256: f.sha256 });
  }
  let good = 0;
  for (const [path, { n, e, sha256 }] of last) {
    const at = `entry ${n} (${e.event})`;
    let now: string;
    try {
      now = await sha256RegularFile(path, { noFollow: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (err instanceof NotRegularFileError) failures.push(`${at}: ${path} is now ${err.kind}, not the file geo wrote: not read`);
      else if (code === 'ENOENT' || code === 'ENOTDIR') notes.push(`${at}: ${path} is gone (moved or deleted): not checked`);
      else failures.push(`${at}: ${path} cannot be read (${code ?? String(err)}): not checked`);
      continue;
    }
    if (now === sha256) good++;
    else failures.push(`${at}: ${path} was changed after it was written (its sha256 is not the one logged)`);
  }
  return good;
}
