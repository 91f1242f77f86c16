/**
 * `geo cases verify case.zip`: checks a bundle offline, with nothing but the file (no config, no
 * key, no network), and lists every failure by member name. In order: member names (any that
 * could escape the folder refuses the bundle before anything else is read), the manifest, every
 * member's sha256 and size against it (altered, removed, added), the custody chain against the
 * manifest's count and head, each raw answer against its record and an answer_received entry,
 * each original against an input_hashed entry. Nothing is extracted or written.
 */
import { open } from 'node:fs/promises';
import { type BundleManifest, MANIFEST_NAME, ORIGINALS_DIR, RECORDS_DIR, manifestProblem, unsafeMemberName } from './bundle-format.js';
import { type CustodyEntry, sha256Hex } from './custody.js';
import { describeBroken, verifyChain } from './custody-verify.js';
import { type MemberDigest, type ZipMember, digestMember, readZipDirectory } from './zip-read.js';

export interface BundleReport {
  file: string;
  ok: boolean;
  /** sha256 of manifest.json: compare it with the one the sender gave you apart from the bundle. */
  manifest_sha256?: string;
  case?: { id: string; name: string };
  /** The chain, when it verified: its entries and head. */
  custody?: { entries: number; head: string };
  /** Members whose sha256 and size match the manifest. */
  files: number;
  /** Raw answers that match their record and an answer_received entry. */
  answers: number;
  originals: number;
  /** One line per failure, naming the member (and entry) that fails. */
  failures: string[];
}

/** Manifest, custody log and records are read whole; nothing geo writes comes near this. */
const MAX_TEXT = 64 * 1024 * 1024;
const q = (s: string) => JSON.stringify(s);
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Throws ZipFormatError when the file is not a zip geo can read; every other problem is a failure in the report. */
export async function verifyBundle(path: string): Promise<BundleReport> {
  const fh = await open(path, 'r');
  let members: ZipMember[];
  try {
    members = await readZipDirectory(fh);
  } finally {
    await fh.close();
  }
  const report: BundleReport = { file: path, ok: false, files: 0, answers: 0, originals: 0, failures: [] };
  const fail = (line: string) => report.failures.push(line);
  const done = () => ({ ...report, ok: report.failures.length === 0 });

  const byName = new Map<string, ZipMember>();
  for (const m of members) {
    const bad = unsafeMemberName(m.name);
    if (bad) fail(`refused: member ${q(m.name)} has ${bad}`);
    else if (byName.has(m.name)) fail(`refused: member ${q(m.name)} appears twice`);
    byName.set(m.name, m);
  }
  if (report.failures.length) return done();

  const manifestMember = byName.get(MANIFEST_NAME);
  if (!manifestMember) return fail(`no ${MANIFEST_NAME}: not a geo case bundle`), done();
  let manifest: BundleManifest;
  try {
    const d = await digestMember(path, manifestMember, { keep: true, maxKeep: MAX_TEXT });
    report.manifest_sha256 = d.sha256;
    const parsed: unknown = JSON.parse(d.bytes!.toString('utf8'));
    const problem = manifestProblem(parsed);
    if (problem) throw new Error(problem);
    manifest = parsed as BundleManifest;
  } catch (e) {
    return fail(`${MANIFEST_NAME}: ${message(e)}`), done();
  }
  report.case = { id: manifest.case.id, name: manifest.case.name };

  const digests = await checkFiles(path, manifest, byName, fail);
  report.files = digests.size;
  const entries = checkCustody(manifest, digests, fail);
  if (entries) report.custody = { entries: entries.length, head: entries.at(-1)!.hash };
  report.answers = checkAnswers(manifest, digests, entries, fail);
  report.originals = checkOriginals(manifest, digests, entries, fail);
  return done();
}

/** Every listed member against its sha256 and size; members the manifest does not list. */
async function checkFiles(path: string, manifest: BundleManifest, byName: Map<string, ZipMember>, fail: (l: string) => void): Promise<Map<string, MemberDigest>> {
  const digests = new Map<string, MemberDigest>();
  const text = (p: string) => p === manifest.custody.path || p.startsWith(RECORDS_DIR);
  for (const f of manifest.files) {
    const bad = unsafeMemberName(f.path);
    const m = byName.get(f.path);
    if (bad) fail(`manifest.json names ${q(f.path)}, which has ${bad}`);
    else if (!m || f.path === MANIFEST_NAME) fail(`${f.path}: named in the manifest but absent from the bundle (removed)`);
    else {
      try {
        const d = await digestMember(path, m, { keep: text(f.path), maxKeep: MAX_TEXT });
        if (d.sha256 === f.sha256 && d.size === f.size) digests.set(f.path, d);
        else fail(`${f.path}: its sha256 is not the one in the manifest (altered)`);
      } catch (e) {
        fail(`${f.path}: ${message(e)}`);
      }
    }
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const name of byName.keys()) {
    const folder = name.endsWith('/') && byName.get(name)!.size === 0;
    if (name !== MANIFEST_NAME && !listed.has(name) && !folder) fail(`${name}: in the bundle but not in the manifest (added)`);
  }
  return digests;
}

/** The chain, pinned by the manifest's count and head; its entries when it verifies. */
function checkCustody(manifest: BundleManifest, digests: Map<string, MemberDigest>, fail: (l: string) => void): CustodyEntry[] | undefined {
  const c = manifest.custody;
  if (!manifest.files.some((f) => f.path === c.path)) return fail(`${c.path}: the manifest does not list the custody log`), undefined;
  const d = digests.get(c.path);
  if (!d) return undefined; // already reported: altered, removed or damaged
  const lines = d.bytes!.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const chain = verifyChain(lines, { caseId: manifest.case.id, entries: c.entries, head: c.head });
  if (!chain.ok) return fail(`${c.path}: ${describeBroken(chain.broken)}`), undefined;
  return lines.map((l) => JSON.parse(l) as CustodyEntry);
}

const dataOf = (e: CustodyEntry, key: string) => (e.data[key] ?? {}) as Record<string, unknown>;

/** Each raw answer: its file, its record's response.raw and an answer_received entry all have one sha256. */
function checkAnswers(manifest: BundleManifest, digests: Map<string, MemberDigest>, entries: CustodyEntry[] | undefined, fail: (l: string) => void): number {
  const logged = new Set(entries?.filter((e) => e.event === 'answer_received').map((e) => dataOf(e, 'answer').sha256));
  let good = 0;
  for (const r of manifest.results) {
    const problems: string[] = [];
    const answer = digests.get(r.answer);
    const record = digests.get(r.record);
    if (!manifest.files.some((f) => f.path === r.answer)) problems.push(`${r.answer}: a result names it, the manifest does not list it`);
    if (!manifest.files.some((f) => f.path === r.record)) problems.push(`${r.record}: a result names it, the manifest does not list it`);
    if (answer && answer.sha256 !== r.answer_sha256) problems.push(`${r.answer}: its sha256 is not the answer_sha256 of its result`);
    if (record) {
      let rec: { response?: { raw?: unknown }; input?: { sha256?: unknown } } = {};
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
    if (entries && !logged.has(r.answer_sha256)) problems.push(`${r.answer}: no answer_received entry in the custody log has its sha256`);
    problems.forEach((p) => fail(p));
    if (problems.length === 0 && answer && record) good++;
  }
  return good;
}

/** Originals: named by their sha256, and each one an input the custody log hashed. */
function checkOriginals(manifest: BundleManifest, digests: Map<string, MemberDigest>, entries: CustodyEntry[] | undefined, fail: (l: string) => void): number {
  const hashed = new Set(entries?.filter((e) => e.event === 'input_hashed').map((e) => dataOf(e, 'input').sha256));
  let good = 0;
  for (const f of manifest.files.filter((x) => x.path.startsWith(ORIGINALS_DIR))) {
    const d = digests.get(f.path);
    if (!d) continue;
    const named = f.path.slice(ORIGINALS_DIR.length).split('.')[0];
    if (named !== d.sha256) fail(`${f.path}: its content's sha256 is not the one in its name`);
    else if (entries && !hashed.has(d.sha256)) fail(`${f.path}: not an input of the custody log (no input_hashed entry has its sha256)`);
    else good++;
  }
  return good;
}
