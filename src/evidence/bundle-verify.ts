/**
 * `geo cases verify case.zip`: checks a bundle offline, with nothing but the file (no config, no
 * key, no network), and lists every failure by member name. In order: the archive itself (bytes no
 * member covers, local headers that disagree with the directory, duplicate names, links and
 * special members, names that could escape the folder: any refuses the bundle before anything
 * else is read; zip-read.ts), the manifest, every member's sha256 and size against it, the custody
 * chain against the manifest's count and head, the seal that chain ends with against every member
 * and the manifest (bundle-seal.ts), each raw answer against its record and its own result_linked
 * and answer_received entries, each original against an input_hashed entry, each working copy and
 * exhibit against its label and the entry that made or kept it (bundle-labels.ts), and the members made
 * from the log (signatures/, allowed_signers, VERIFY.md, SHA256SUMS) against what the log makes of
 * them (bundle-standard.ts). Then, apart: the signatures (custody-sign.ts: whose, under your
 * allowed_signers or the bundle's), the timestamps (custody-stamps.ts: each token in timestamps/
 * over the head it claims, under your --tsa-ca or the CA pinned beside it), the reviews
 * (review-sign.ts: each signature, current or stale, and --require-reviews), and the answers a
 * sandbox gave (not evidence: a failure unless allowed). Nothing is extracted or written.
 */
import type { FileHandle } from 'node:fs/promises';
import { copyLinkFailures } from './copy-check.js';
import { ALLOWED_SIGNERS_NAME, type BundleManifest, MANIFEST_NAME, ORIGINALS_DIR, RECORDS_DIR, TIMESTAMPS_DIR, isDerivedMember, manifestProblem } from './bundle-format.js';
import { bundledTokens, checkDerived } from './bundle-derived.js';
import { checkLabels } from './bundle-labels.js';
import { type BoundResult, checkBindings, checkSeal, simulatedAnswers } from './bundle-seal.js';
import { type AllowedSigners, parseAllowedSigners } from './allowed-signers.js';
import { type CustodyEntry, sha256Hex } from './custody.js';
import { type SignaturesSection, checkSignatures, uncheckedSignatures } from './custody-sign.js';
import { type TimestampsSection, checkStamps, uncheckedStamps } from './custody-stamps.js';
import { type ReviewsSection, checkReviews, uncheckedReviews } from './review-sign.js';
import { describeBroken, verifyChain } from './custody-verify.js';
import { simulatedCount } from './simulated.js';
import { type SimulatedSection, caveat, simulatedSection } from './verify-report.js';
import { type MemberDigest, type ZipMember, digestMember, readZipDirectory } from './zip-read.js';
import { openRegularFile } from '../files/read.js';

export interface BundleReport {
  file: string;
  /** Integrity holds and no simulated answer is refused. */
  ok: boolean;
  /** sha256 of manifest.json: compare it with the one the sender gave you apart from the bundle. */
  manifest_sha256?: string;
  case?: { id: string; name: string };
  integrity: {
    ok: boolean;
    /** The chain, when it verified: its entries and head. */
    custody?: { entries: number; head: string };
    /** The chain ends with bundle_sealed, which binds every other member. */
    sealed: boolean;
    /** Members whose sha256 and size match the manifest. */
    files: number;
    /** Raw answers that match their record and are bound to their own result_linked and answer_received entries. */
    answers: number;
    originals: number;
    /** Working copies and exhibits that match their labels and the entries that made or kept them. */
    working: number;
    exhibits: number;
    /** One line per failure, naming the member (and entry) that fails. */
    failures: string[];
    /** Whether the log carries signatures (the caveat says what they bind, or that it is unsigned). */
    signed: boolean;
    caveat: string;
  };
  signatures: SignaturesSection;
  timestamps: TimestampsSection;
  reviews: ReviewsSection;
  simulated: SimulatedSection;
  /** Every failure: integrity's, the signatures', the timestamps', the reviews', and the simulated answers' refusal. */
  failures: string[];
}

export interface BundleTrust {
  allowSandbox?: boolean;
  /** --allowed-signers FILE, read: only its keys count (else any valid key, principals from the bundle's allowed_signers). */
  allowedSigners?: AllowedSigners;
  /** --tsa-ca FILE, read: the only CAs a TSA is trusted under (else the CA pinned beside each token). */
  tsaCa?: string;
  requireSignature?: boolean;
  requireTimestamp?: boolean;
  /** --require-reviews N: that many current approvals by keys other than the conclusion's author. */
  requireReviews?: number;
}

/** Manifest, custody log and records are read whole; nothing geo writes comes near this. */
const MAX_TEXT = 64 * 1024 * 1024;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Throws ZipFormatError when the file is not a zip geo can read; every other problem is a failure in the report. */
export async function verifyBundle(path: string, opts: BundleTrust = {}): Promise<BundleReport> {
  // One descriptor for everything: never blocks on a FIFO, and what is read is what was checked.
  const fh = await openRegularFile(path);
  try {
    return await verifyOpen(fh, path, opts);
  } finally {
    await fh.close();
  }
}

async function verifyOpen(fh: FileHandle, path: string, opts: BundleTrust): Promise<BundleReport> {
  const allowSandbox = Boolean(opts.allowSandbox);
  const { members, refusals } = await readZipDirectory(fh);
  const failures: string[] = [];
  const fail = (line: string) => failures.push(line);
  const integrity: BundleReport['integrity'] = { ok: false, sealed: false, files: 0, answers: 0, originals: 0, working: 0, exhibits: 0, failures, signed: false, caveat: caveat('bundle', false) };
  let simulated = simulatedSection(0, allowSandbox, false);
  let signatures = uncheckedSignatures(Boolean(opts.requireSignature));
  let timestamps = uncheckedStamps(Boolean(opts.requireTimestamp));
  let reviews = uncheckedReviews(opts.requireReviews);
  const report = (extra: Partial<BundleReport> = {}): BundleReport => {
    integrity.ok = failures.length === 0;
    integrity.signed = signatures.signed;
    integrity.caveat = caveat('bundle', signatures.signed);
    return {
      file: path, ok: integrity.ok && signatures.ok && timestamps.ok && reviews.ok && simulated.ok, ...extra, integrity, signatures, timestamps, reviews, simulated,
      failures: [...failures, ...signatures.failures, ...timestamps.failures, ...reviews.failures, ...(simulated.ok ? [] : [simulatedCount(simulated.answers)])],
    };
  };
  if (refusals.length) return refusals.forEach(fail), report();
  const byName = new Map(members.map((m) => [m.name, m]));

  const manifestMember = byName.get(MANIFEST_NAME);
  if (!manifestMember) return fail(`no ${MANIFEST_NAME}: not a geo case bundle`), report();
  let manifest: BundleManifest;
  let manifestSha: string;
  try {
    const d = await digestMember(fh, manifestMember, { keep: true, maxKeep: MAX_TEXT });
    manifestSha = d.sha256;
    const parsed: unknown = JSON.parse(d.bytes!.toString('utf8'));
    const problem = manifestProblem(parsed);
    if (problem) throw new Error(problem);
    manifest = parsed as BundleManifest;
  } catch (e) {
    return fail(`${MANIFEST_NAME}: ${message(e)}`), report();
  }
  const extra = { manifest_sha256: manifestSha, case: { id: manifest.case.id, name: manifest.case.name } };

  const named = new Set<string>();
  const digests = new Map<string, MemberDigest | undefined>();
  // Read whole: what is parsed (log, records) and what is compared or checked as bytes (made from the log, tokens).
  const text = (p: string) => p === manifest.custody.path || p.startsWith(RECORDS_DIR) || p.startsWith(TIMESTAMPS_DIR) || isDerivedMember(p);
  const digest = async (p: string): Promise<MemberDigest | undefined> => {
    if (digests.has(p)) return digests.get(p);
    const m = byName.get(p);
    let d: MemberDigest | undefined;
    try {
      d = m && (await digestMember(fh, m, { keep: text(p), maxKeep: MAX_TEXT }));
    } catch (e) {
      fail(`${p}: ${message(e)}`);
      named.add(p);
    }
    digests.set(p, d);
    return d;
  };
  integrity.files = await checkFiles(manifest, byName, digest, named, fail);
  const entries = await checkCustody(manifest, digest, named, fail);
  if (entries) integrity.custody = { entries: entries.length, head: entries.at(-1)!.hash };
  if (entries) {
    integrity.sealed = await checkSeal({ manifest, entries, names: new Set([...byName.keys()].filter((n) => n !== MANIFEST_NAME)), digest, named, fail });
    await checkDerived(entries, [...byName.keys()], digest, named, fail);
    simulated = simulatedSection(simulatedAnswers(entries), allowSandbox);
    const bundled = byName.has(ALLOWED_SIGNERS_NAME) ? (await digest(ALLOWED_SIGNERS_NAME))?.bytes : undefined;
    const trust = { ...(opts.allowedSigners ? { allowed: opts.allowedSigners } : {}), ...(bundled ? { bundled: parseAllowedSigners(bundled.toString('utf8')) } : {}) };
    signatures = checkSignatures(entries, { ...trust, required: Boolean(opts.requireSignature) });
    reviews = checkReviews(entries, trust, opts.requireReviews);
    timestamps = checkStamps(entries, await bundledTokens(entries, byName, digest), { ...(opts.tsaCa !== undefined ? { tsaCa: opts.tsaCa } : {}), required: Boolean(opts.requireTimestamp), where: 'the bundle' });
  }
  integrity.answers = await checkAnswers(manifest, digest, entries, fail);
  // Each copy_linked entry against its own hashes and what came before it, as cases verify does.
  if (entries) for (const f of copyLinkFailures(entries.map((e, i) => ({ n: i + 1, e })))) fail(f);
  integrity.originals = await checkOriginals(manifest, digest, entries, fail);
  Object.assign(integrity, await checkLabels(manifest, entries, digest, fail));
  return report(extra);
}

/** Every listed member against its sha256 and size; members the manifest does not list. Returns how many match. */
async function checkFiles(manifest: BundleManifest, byName: Map<string, ZipMember>, digest: (p: string) => Promise<MemberDigest | undefined>, named: Set<string>, fail: (l: string) => void): Promise<number> {
  let good = 0;
  const say = (p: string, line: string) => (fail(line), named.add(p));
  for (const f of manifest.files) {
    if (!byName.has(f.path) || f.path === MANIFEST_NAME) say(f.path, `${f.path}: named in the manifest but absent from the bundle (removed)`);
    else {
      const d = await digest(f.path);
      if (d && d.sha256 === f.sha256 && d.size === f.size) good++;
      else if (d) say(f.path, `${f.path}: its sha256 is not the one in the manifest (altered)`);
    }
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const [name, m] of byName) {
    const folder = name.endsWith('/') && m.size === 0;
    if (name !== MANIFEST_NAME && !listed.has(name) && !folder) say(name, `${name}: in the bundle but not in the manifest (added)`);
  }
  return good;
}

/** The chain, pinned by the manifest's count and head; its entries when it verifies. */
async function checkCustody(manifest: BundleManifest, digest: (p: string) => Promise<MemberDigest | undefined>, named: Set<string>, fail: (l: string) => void): Promise<CustodyEntry[] | undefined> {
  const c = manifest.custody;
  if (!manifest.files.some((f) => f.path === c.path)) return fail(`${c.path}: the manifest does not list the custody log`), undefined;
  if (named.has(c.path)) return undefined; // already reported: altered, removed or damaged
  const d = await digest(c.path);
  if (!d) return undefined;
  const lines = d.bytes!.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const chain = verifyChain(lines, { caseId: manifest.case.id, entries: c.entries, head: c.head });
  if (!chain.ok) return fail(`${c.path}: ${describeBroken(chain.broken)}`), undefined;
  return lines.map((l) => JSON.parse(l) as CustodyEntry);
}

/** Each raw answer: its file, its record's response.raw and its result's answer_sha256 agree, and the log binds it (bundle-seal.ts). */
async function checkAnswers(manifest: BundleManifest, digest: (p: string) => Promise<MemberDigest | undefined>, entries: CustodyEntry[] | undefined, fail: (l: string) => void): Promise<number> {
  const bound: BoundResult[] = [];
  let whole = 0;
  for (const r of manifest.results) {
    const problems: string[] = [];
    const listed = (p: string) => manifest.files.some((f) => f.path === p);
    if (!listed(r.answer)) problems.push(`${r.answer}: a result names it, the manifest does not list it`);
    if (!listed(r.record)) problems.push(`${r.record}: a result names it, the manifest does not list it`);
    const answer = listed(r.answer) ? await digest(r.answer) : undefined;
    const record = listed(r.record) ? await digest(r.record) : undefined;
    if (answer && answer.sha256 !== r.answer_sha256) problems.push(`${r.answer}: its sha256 is not the answer_sha256 of its result`);
    let rec: BoundResult['record'] & { response?: { raw?: unknown } } = {};
    if (record) {
      try {
        rec = JSON.parse(record.bytes!.toString('utf8')) as typeof rec;
      } catch {
        problems.push(`${r.record}: not valid JSON`);
      }
      const raw = rec.response?.raw;
      if (typeof raw !== 'string') problems.push(`${r.record}: the record holds no raw answer`);
      else if (sha256Hex(raw) !== r.answer_sha256) problems.push(`${r.record}: its raw answer is not ${r.answer} (sha256 differs)`);
      if (rec.input?.sha256 !== r.input_sha256) problems.push(`${r.record}: its input sha256 is not the result's`);
    }
    problems.forEach(fail);
    if (problems.length === 0 && answer && record) {
      whole++;
      bound.push({ record: rec, result: r });
    }
  }
  return entries ? checkBindings(entries, bound, fail) : whole;
}

/** Originals: named by their sha256, and each one an input the custody log hashed. */
async function checkOriginals(manifest: BundleManifest, digest: (p: string) => Promise<MemberDigest | undefined>, entries: CustodyEntry[] | undefined, fail: (l: string) => void): Promise<number> {
  const hashed = new Set(entries?.filter((e) => e.event === 'input_hashed').map((e) => (e.data.input as { sha256?: string } | undefined)?.sha256));
  let good = 0;
  for (const f of manifest.files.filter((x) => x.path.startsWith(ORIGINALS_DIR))) {
    const d = await digest(f.path);
    if (!d) continue;
    const nameSha = f.path.slice(ORIGINALS_DIR.length).split('.')[0];
    if (nameSha !== d.sha256) fail(`${f.path}: its content's sha256 is not the one in its name`);
    else if (entries && !hashed.has(d.sha256)) fail(`${f.path}: not an input of the custody log (no input_hashed entry has its sha256)`);
    else good++;
  }
  return good;
}

