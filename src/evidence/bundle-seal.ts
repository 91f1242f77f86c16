/**
 * What a bundle's custody log binds: its last entry, bundle_sealed, lists every other
 * member (path, sha256, size) and the results, and the manifest's head is that entry's hash, so
 * a member changed, added, dropped or swapped, or the manifest rewritten, fails against the log
 * itself rather than against a manifest anyone can recompute. And each result is held to its own
 * result_linked entry (input sha256 <-> answer sha256) and that answer's answer_received entry
 * (service, sandbox flag), as `geo cases verify <case>` holds the store (case-vouch.ts).
 */
import { type BundleManifest, MANIFEST_NAME, isDerivedMember } from './bundle-format.js';
import { canonicalJson } from './canonical-json.js';
import type { CustodyEntry, CustodyEvents } from './custody.js';
import type { MemberDigest } from './zip-read.js';

type Sealed = CustodyEvents['bundle_sealed']['bundle'];
type Linked = CustodyEvents['result_linked']['result'];
type Answer = CustodyEvents['answer_received']['answer'];
const dataOf = <T>(e: CustodyEntry, key: string) => (e.data[key] ?? {}) as T;
const q = (v: unknown) => JSON.stringify(v ?? null);
const short = (sha: string) => `${sha.slice(0, 16)}…`;

export interface SealInput {
  manifest: BundleManifest;
  entries: readonly CustodyEntry[];
  /** Every member of the zip but manifest.json, by name. */
  names: ReadonlySet<string>;
  /** A member's digest (cached), or undefined when it is absent or cannot be read (already said). */
  digest: (path: string) => Promise<MemberDigest | undefined>;
  /** Paths already named by a failure: not named twice. */
  named: Set<string>;
  fail: (line: string) => void;
}

/**
 * The seal against the members and the manifest; whether the log ends with one. The seal is the
 * last bundle_sealed entry, and only signatures over it may follow it (the bundler signs
 * the seal before custody.jsonl is written). Members made from the log after the seal (signatures/,
 * allowed_signers, VERIFY.md, SHA256SUMS: bundle-standard.ts) are not sealed: bundle-verify.ts
 * makes them again and compares.
 */
export async function checkSeal(s: SealInput): Promise<boolean> {
  const custodyPath = s.manifest.custody.path;
  const at0 = s.entries.findLastIndex((e) => e.event === 'bundle_sealed');
  const after = s.entries.slice(at0 + 1).findIndex((e) => e.event !== 'head_signed');
  if (at0 < 0 || after >= 0) {
    const why = at0 < 0 ? 'it has none' : `entry ${at0 + after + 2} (${s.entries[at0 + after + 1]!.event}) follows it, where only signatures over it may`;
    s.fail(`${custodyPath}: the log does not end with a bundle_sealed entry, so nothing in it binds the other members (${why}: a bundle from an earlier geo, or its seal cut off): ask its sender for one made by a current geo`);
    return false;
  }
  const last = s.entries[at0]!;
  const at = `entry ${at0 + 1} (bundle_sealed)`;
  const seal = dataOf<Sealed>(last, 'bundle');
  const sealed = new Map((Array.isArray(seal.members) ? seal.members : []).map((m) => [m.path, m]));
  for (const m of sealed.values()) {
    if (s.named.has(m.path)) continue;
    if (!s.names.has(m.path)) {
      s.fail(`${m.path}: sealed in the custody log (${at}) but absent from the bundle (removed)`);
      continue;
    }
    const d = await s.digest(m.path);
    if (d && (d.sha256 !== m.sha256 || d.size !== m.size)) s.fail(`${m.path}: its sha256 is not the one the custody log sealed (${at}): replaced after the bundle was made`);
  }
  const extra = new Set([...s.names, ...s.manifest.files.map((f) => f.path)]);
  for (const path of extra) {
    const folder = path.endsWith('/') && !s.manifest.files.some((f) => f.path === path);
    if (path === custodyPath || path === MANIFEST_NAME || folder || sealed.has(path) || s.named.has(path) || isDerivedMember(path)) continue;
    s.fail(`${path}: not sealed in the custody log (${at}): added after the bundle was made`);
  }
  const m = s.manifest;
  const rewritten = (what: string) => s.fail(`${MANIFEST_NAME}: its ${what} differ${what.endsWith('s') ? '' : 's'} from what the custody log sealed (${at}): the manifest was rewritten`);
  if (canonicalJson(m.results) !== canonicalJson(seal.results)) rewritten('results');
  if ((m.originals === 'included') !== seal.originals) rewritten('originals field');
  if (canonicalJson(m.labels ?? null) !== canonicalJson(seal.labels ?? null)) rewritten('labels');
  if (m.created_at !== last.at) rewritten('created_at');
  if (m.geo_version !== last.geo) rewritten('geo_version');
  const listed = m.files.filter((f) => f.path !== custodyPath && !isDerivedMember(f.path)).map((f) => ({ path: f.path, sha256: f.sha256, size: f.size }));
  if (canonicalJson(listed) !== canonicalJson([...sealed.values()])) rewritten('files');
  const created = s.entries[0]?.event === 'case_created' ? dataOf<{ name?: string; description?: string }>(s.entries[0], 'case') : undefined;
  if (created && (created.name !== m.case.name || (created.description ?? '') !== (m.case.description ?? ''))) {
    s.fail(`${MANIFEST_NAME}: its case name or description is not the one entry 1 (case_created) logged: the manifest was rewritten`);
  }
  return true;
}

export interface BoundResult {
  record: { input?: { sha256?: unknown; path?: unknown }; sandbox?: unknown; cli?: { base_url?: unknown } };
  result: BundleManifest['results'][number];
}

/**
 * Each result against its own result_linked entry (the pair) and the answer_received entry of its
 * answer (service, sandbox flag); every result_linked entry against a result in the bundle. Returns
 * how many results are bound without a problem.
 */
export function checkBindings(entries: readonly CustodyEntry[], results: readonly BoundResult[], fail: (line: string) => void): number {
  const numbered = entries.map((e, i) => ({ n: i + 1, e }));
  const links = numbered.filter(({ e }) => e.event === 'result_linked').map((x) => ({ ...x, r: dataOf<Linked>(x.e, 'result'), taken: false }));
  const answers = numbered.filter(({ e }) => e.event === 'answer_received').map((x) => ({ ...x, a: dataOf<Answer>(x.e, 'answer') }));
  let good = 0;
  for (const { record, result } of results) {
    const problems: string[] = [];
    const link = links.find((l) => !l.taken && l.r.answer_sha256 === result.answer_sha256 && l.r.input_sha256 === result.input_sha256);
    if (!link) {
      fail(`${result.answer}: no result_linked entry binds this answer to input ${short(result.input_sha256)}: answers were swapped, or the result was not linked`);
      continue;
    }
    link.taken = true;
    const at = `entry ${link.n} (result_linked)`;
    const answer = answers.filter((a) => a.n < link.n && a.a.sha256 === result.answer_sha256).at(-1);
    if (!answer) problems.push(`${result.answer}: no answer_received entry before ${at} has its sha256`);
    if (link.r.input_path !== undefined && record.input?.path !== link.r.input_path) problems.push(`${result.record}: its input path (${q(record.input?.path)}) is not the one ${at} logged (${q(link.r.input_path)})`);
    if (answer) {
      const ans = `entry ${answer.n} (answer_received)`;
      if ((record.sandbox === true) !== answer.a.sandbox) problems.push(`${result.record}: its sandbox flag (${q(record.sandbox ?? false)}) is not what ${ans} logged (${q(answer.a.sandbox)})`);
      if (record.cli?.base_url !== undefined && record.cli.base_url !== answer.a.service) problems.push(`${result.record}: its service (${q(record.cli.base_url)}) is not the one ${ans} logged (${q(answer.a.service)})`);
    }
    problems.forEach(fail);
    if (problems.length === 0) good++;
  }
  for (const l of links) if (!l.taken) fail(`entry ${l.n} (result_linked): its result is not in the bundle (dropped)`);
  return good;
}

/** Distinct answers the log says a sandbox gave. */
export function simulatedAnswers(entries: readonly CustodyEntry[]): number {
  return new Set(entries.filter((e) => e.event === 'answer_received' && dataOf<Answer>(e, 'answer').sandbox === true).map((e) => dataOf<Answer>(e, 'answer').sha256)).size;
}
