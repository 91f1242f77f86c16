/**
 * Checking a local case, in sections reported apart:
 * integrity: its custody log's chain, pinned by the count and head the store kept at the last
 *   append (so entries cut off the end are caught); each linked result held to its own
 *   result_linked entry and that answer's answer_received entry, every value the store keeps for it
 *   (raw answer, body, columns, record, sandbox flag) and the case's own row against the log
 *   (batch/case-results.ts); each file the log says was written (a report, an export, a bundle)
 *   against the sha256 it logged, when it is still there, read without ever blocking or
 *   following a link put in its place.
 * signatures: each head_signed entry, and every entry past the last valid one (custody-sign.ts).
 * timestamps: each head_stamped entry's token, from the store, over the head it claims (custody-stamps.ts).
 * simulated: the answers a sandbox gave, which are not evidence (refused unless --allow-sandbox).
 */
import { type CaseEvidence, evidenceFailures, readCaseEvidence } from '../../batch/case-results.js';
import type { AllowedSigners } from '../../evidence/allowed-signers.js';
import { type CustodyEntry, sha256Hex } from '../../evidence/custody.js';
import { checkSignatures, uncheckedSignatures } from '../../evidence/custody-sign.js';
import { checkReviews, uncheckedReviews } from '../../evidence/review-sign.js';
import { type KeptToken, type StampedHead, checkStamps, uncheckedStamps } from '../../evidence/custody-stamps.js';
import { simulatedCount } from '../../evidence/simulated.js';
import { caveat, simulatedSection } from '../../evidence/verify-report.js';
import { NotRegularFileError, sha256RegularFile } from '../../files/read.js';
import type { CaseVerifyView } from '../../output/views/case-show.js';
import type { CaseRow, StoreApi } from '../../store/index.js';
import type { TimestampRow } from '../../store/index.js';

/** What verifyCase found: the view's shape (output/views/case-show.ts). */
export type CaseReport = CaseVerifyView;

export interface TrustOptions {
  allowSandbox?: boolean;
  /** --allowed-signers FILE, read: only its keys count, under its principals. */
  allowedSigners?: AllowedSigners;
  /** --tsa-ca FILE (or the tsa-ca setting), read: the only CAs a TSA is trusted under. */
  tsaCa?: string;
  requireSignature?: boolean;
  requireTimestamp?: boolean;
  /** --require-reviews N: that many current approvals by keys other than the conclusion's author. */
  requireReviews?: number;
}

const fileOf = (e: CustodyEntry): { path: string; sha256: string } | undefined => {
  const f = (e.event === 'file_written' ? e.data.file : e.event === 'bundle_made' ? e.data.bundle : undefined) as { path?: unknown; sha256?: unknown } | undefined;
  return typeof f?.path === 'string' && typeof f.sha256 === 'string' && f.path !== '-' ? { path: f.path, sha256: f.sha256 } : undefined;
};

/** The store's token for a head_stamped entry: the one it logged, else the one kept for that head and TSA (to name what is wrong with it). */
export function storedToken(rows: readonly TimestampRow[]): (n: number, s: StampedHead) => KeptToken | undefined {
  // The driver hands a BLOB back as an ArrayBuffer: bytes either way.
  const stamped = rows.filter((r) => r.state === 'stamped' && r.reply !== null && r.ca_pem !== null).map((r) => ({ ...r, bytes: Buffer.from(r.reply as Uint8Array) }));
  return (_n, s) => {
    const row = stamped.find((r) => sha256Hex(r.bytes) === s.token_sha256) ?? stamped.find((r) => r.head === s.head && r.tsa === s.tsa);
    return row ? { reply: row.bytes, caPem: row.ca_pem! } : undefined;
  };
}

export async function verifyCase(store: StoreApi, c: CaseRow, opts: TrustOptions = {}): Promise<CaseReport> {
  const ev: CaseEvidence = await readCaseEvidence(store, c);
  const failures = evidenceFailures(ev);
  const notes: string[] = [];
  const files = await checkFiles(ev, failures, notes);
  const simulated = simulatedSection(ev.vouch.simulated, Boolean(opts.allowSandbox));
  // Signatures and timestamps are judged on the log as it is, whenever every line of it reads.
  const readable = ev.entries.length === ev.chain.entries && ev.entries.length > 0;
  const entries = ev.entries.map((x) => x.e);
  const allowed = opts.allowedSigners ? { allowed: opts.allowedSigners } : {};
  const signatures = readable ? checkSignatures(entries, { ...allowed, required: Boolean(opts.requireSignature) }) : uncheckedSignatures(Boolean(opts.requireSignature));
  const reviews = readable ? checkReviews(entries, allowed, opts.requireReviews) : uncheckedReviews(opts.requireReviews);
  const rows = await store.timestamps.forCase(c.id);
  const timestamps = readable
    ? checkStamps(entries, storedToken(rows), { ...(opts.tsaCa !== undefined ? { tsaCa: opts.tsaCa } : {}), required: Boolean(opts.requireTimestamp), where: 'the store' }, rows.filter((r) => r.state === 'pending').length)
    : uncheckedStamps(Boolean(opts.requireTimestamp));
  const integrity: CaseReport['integrity'] = {
    ok: failures.length === 0,
    ...(ev.chain.ok ? { custody: { entries: ev.chain.entries, head: ev.chain.head } } : {}),
    answers: ev.vouch.results.filter((r) => r.ok).length,
    files, failures, notes, signed: signatures.signed, caveat: caveat('case', signatures.signed),
  };
  return {
    case: { id: c.id, name: ev.vouch.case.name || c.id },
    ok: integrity.ok && signatures.ok && timestamps.ok && reviews.ok && simulated.ok,
    integrity, signatures, timestamps, reviews, simulated,
    failures: [...failures, ...signatures.failures, ...timestamps.failures, ...reviews.failures, ...(simulated.ok ? [] : [simulatedCount(simulated.answers)])],
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
