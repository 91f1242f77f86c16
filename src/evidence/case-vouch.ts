/**
 * A case's results as its custody log vouches for them: the one reading behind `geo
 * cases verify`, `cases show`, `cases bundle` and `geo export --case`. Each result linked in the
 * store is bound to ITS OWN result_linked entry (input sha256 <-> answer sha256) and, through it,
 * to the answer_received entry of that answer (service, sandbox flag), not to "some answer in the
 * log". What a view shows is then rebuilt from what the log vouches for: the body from the raw
 * answer (the bytes the log hashes), the input from result_linked (or, for entries from before
 * input_hashed), service and sandbox from answer_received, the case from case_created.
 * Every column, body and record field the store keeps beside them is held to the same values, so
 * an edit to any of them is a failure naming the result, never a forged value on screen.
 *
 * Pure: the entries (parsed) and the store's rows come in, the vouched case and the failures out.
 */
import { canonicalJson } from './canonical-json.js';
import { copyLinkFailures } from './copy-check.js';
import { type CustodyEntry, type CustodyEvents, sha256Hex } from './custody.js';
import { type FetchedFrom, type ProvenanceRecord, type ResultColumns, asResultBody, isResultBody, resultColumns } from './record-types.js';

/** A custody entry with its position in the log (from 1), as messages name it. */
export interface Numbered {
  n: number;
  e: CustodyEntry;
}

/** The store's case row, as far as a view could show it. */
export interface CaseRowFacts {
  id: string;
  name: string;
  description: string;
  team: string | null;
  created_at: string;
  service: string | null;
  service_id: string | null;
}

/** A result linked in the store: whole, its columns and its body column (store/cases.ts CaseLinked). */
export interface LinkedFacts {
  stored: { id: number; record: ProvenanceRecord; sandbox: boolean };
  columns: ResultColumns & { input_path: string; sha256: string | null };
  body: string | null;
}

/** The case as case_created logged it. */
export interface VouchedCase {
  id: string;
  name: string;
  description: string;
  team: string | null;
  /** When case_created was appended. */
  created_at: string;
  service: string | null;
  service_id: string | null;
  /** Why it is on this machine only although the service was asked (logged). */
  note: string | null;
}

export interface VouchedResult {
  /** The result's row in the store. */
  id: number;
  /** Nothing the store keeps for it disagrees with the log. */
  ok: boolean;
  /** Its result_linked entry: position in the log and when it was appended. */
  entry: number;
  linked_at: string;
  /** The input as logged (path null: linked by a geo before with no input_hashed for it). */
  input: { path: string | null; sha256: string };
  /** A photo geo fetched: its web fetch as its input_hashed entry logged it. */
  fetched?: FetchedFrom;
  answer: { sha256: string; service: string; sandbox: boolean; analysis_id: string | null };
  /**
   * The record as the log vouches for it: body and raw text from the raw answer, input, service and
   * sandbox from the log; the other fields (request, headers, timing, EXIF check) as the store keeps them.
   */
  record: ProvenanceRecord;
}

export interface CaseVouch {
  case: VouchedCase;
  /** Results bound to their own entries (failures about store fields may still name them: their values here come from the log). */
  results: VouchedResult[];
  /** One line per failure, naming the result, the entry or the case. */
  failures: string[];
  /** Distinct answers the log says a sandbox gave: simulated, not evidence. */
  simulated: number;
}

type Linked = CustodyEvents['result_linked']['result'];
type Answer = CustodyEvents['answer_received']['answer'];
const dataOf = <T>(e: CustodyEntry, key: string) => (e.data[key] ?? {}) as T;
const short = (sha: string) => `${sha.slice(0, 16)}…`;
const q = (v: unknown) => JSON.stringify(v ?? null);

/** The body a raw answer says: its JSON (numeric-string coordinates read as numbers, as when it was received), else the text. */
export function bodyOfRaw(raw: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  return asResultBody(parsed) ?? parsed;
}

export function vouchCase(entries: readonly Numbered[], row: CaseRowFacts, linked: readonly LinkedFacts[]): CaseVouch {
  const failures: string[] = [];
  const kase = vouchedCaseOf(entries, row, failures);
  const links = entries.filter(({ e }) => e.event === 'result_linked').map((x) => ({ ...x, r: dataOf<Linked>(x.e, 'result'), taken: false }));
  const answers = entries.filter(({ e }) => e.event === 'answer_received').map((x) => ({ ...x, a: dataOf<Answer>(x.e, 'answer') }));
  const hashed = entries.filter(({ e }) => e.event === 'input_hashed').map((x) => ({ ...x, i: dataOf<{ path?: string; sha256?: string }>(x.e, 'input'), fetched: x.e.data.fetched as FetchedFrom | undefined }));
  const results: VouchedResult[] = [];
  for (const x of linked) {
    const rec = x.stored.record;
    const what = `result ${x.stored.id} (${rec.input.path})`;
    const raw = rec.response.raw;
    if (raw === undefined) {
      failures.push(`${what}: the store holds no raw answer for it`);
      continue;
    }
    const sha = sha256Hex(raw);
    const candidates = links.filter((l) => !l.taken && l.r.answer_sha256 === sha);
    const before = failures.length;
    const link = candidates.find((l) => l.r.input_sha256 === rec.input.sha256) ?? candidates[0];
    if (!link) {
      failures.push(`${what}: its raw answer in the store (sha256 ${short(sha)}) is the answer of no result_linked entry: it was changed, or linked without the log`);
      continue;
    }
    link.taken = true;
    const r = link.r;
    const answer = answers.filter((a) => a.n < link.n && a.a.sha256 === sha).at(-1);
    const input = hashed.filter((h) => h.n < link.n && h.i.sha256 === r.input_sha256).at(-1);
    const path = r.input_path ?? input?.i.path ?? null;
    // Named by its logged input, unless the pair it claims is not its own (then by what the store says it is).
    const shown = `result ${x.stored.id} (${rec.input.sha256 === r.input_sha256 ? (path ?? rec.input.path) : rec.input.path})`;
    const fail = (why: string) => failures.push(`${shown}: ${why}`);
    const at = `entry ${link.n} (result_linked)`;
    if (rec.input.sha256 !== r.input_sha256) fail(`its raw answer is the one ${at} binds to another input (sha256 ${short(r.input_sha256)}, not this result's ${short(rec.input.sha256)}): answers were swapped or replaced`);
    else if ((x.columns.sha256 ?? '') !== r.input_sha256) fail(`its sha256 column is not the input sha256 ${at} logged (edited in the database)`);
    if (r.input_path !== undefined && rec.input.path !== r.input_path) fail(`its input path in the record (${q(rec.input.path)}) is not the one ${at} logged (${q(r.input_path)})`);
    if (r.input_path !== undefined && x.columns.input_path !== r.input_path) fail(`its input_path column (${q(x.columns.input_path)}) is not the one ${at} logged (${q(r.input_path)})`);
    if (!answer) {
      failures.push(`${at}: no answer_received entry before it has its answer (sha256 ${short(sha)})`);
      continue;
    }
    const a = answer.a;
    const ans = `entry ${answer.n} (answer_received)`;
    if (x.stored.sandbox !== a.sandbox) fail(`its sandbox flag in the store (${x.stored.sandbox ? 1 : 0}) is not what ${ans} logged (${a.sandbox ? 'a sandbox answered' : 'not a sandbox'})`);
    if (rec.sandbox !== undefined && rec.sandbox !== a.sandbox) fail(`its record's sandbox flag (${q(rec.sandbox)}) is not what ${ans} logged (${q(a.sandbox)})`);
    if (r.sandbox !== undefined && r.sandbox !== a.sandbox) fail(`${at} says sandbox ${q(r.sandbox)}, ${ans} ${q(a.sandbox)}`);
    if (r.service !== undefined && r.service !== a.service) fail(`${at} names the service ${q(r.service)}, ${ans} ${q(a.service)}`);
    if (rec.cli !== undefined && rec.cli.base_url !== a.service) fail(`its record's service (${q(rec.cli.base_url)}) is not the one ${ans} logged (${q(a.service)})`);
    const body = bodyOfRaw(raw);
    checkStoredBody(x, body, fail);
    // Where a fetched photo came from is the log's to say too (the run that linked it fetched it).
    const fetched = input?.fetched && typeof input.fetched === 'object' ? input.fetched : undefined;
    results.push({
      id: x.stored.id, ok: failures.length === before, entry: link.n, linked_at: link.e.at,
      input: { path, sha256: r.input_sha256 }, ...(fetched ? { fetched } : {}),
      answer: { sha256: sha, service: a.service, sandbox: a.sandbox, analysis_id: r.analysis_id },
      record: vouchedRecord(rec, body, raw, { path: path ?? rec.input.path, sha256: r.input_sha256 }, a, fetched),
    });
  }
  for (const l of links) if (!l.taken) failures.push(`entry ${l.n} (result_linked): no result linked to the case in the store has its answer (a link was removed, or an answer changed)`);
  // Copies of photos met by the case's runs: each entry against its own hashes and what came before it.
  failures.push(...copyLinkFailures(entries));
  const simulated = new Set(answers.filter((a) => a.a.sandbox === true).map((a) => a.a.sha256)).size;
  return { case: kase, results, failures, simulated };
}

/** The body column (kept only when geo read the answer differently) and the columns, against what the raw answer says. */
function checkStoredBody(x: LinkedFacts, body: unknown, fail: (why: string) => void): void {
  if (x.body !== null) {
    let kept: unknown;
    try {
      kept = JSON.parse(x.body);
    } catch {
      kept = Symbol('unreadable');
    }
    if (typeof kept === 'symbol' || canonicalJson(kept) !== canonicalJson(body)) fail('its body column is not what its raw answer says (edited in the database)');
  }
  const want = resultColumns(body, x.stored.record.request);
  const differ = (Object.keys(want) as Array<keyof ResultColumns>).filter((k) => x.columns[k] !== want[k]);
  if (differ.length) fail(`its ${differ.join(', ')} column${differ.length === 1 ? ' is' : 's are'} not what its raw answer says (edited in the database)`);
}

function vouchedRecord(rec: ProvenanceRecord, body: unknown, raw: string, input: { path: string; sha256: string }, a: Answer, fetched: FetchedFrom | undefined): ProvenanceRecord {
  // Whether it is usable, whether a sandbox answered, and where a fetched photo came from are the raw answer's and the log's to say.
  const { sandbox: _s, unusable, fetched: _f, ...rest } = rec;
  return {
    ...rest,
    ...(fetched ? { fetched } : {}),
    ...(!isResultBody(body) && unusable !== undefined ? { unusable } : {}),
    input: { ...rec.input, ...input },
    ...(rec.cli ? { cli: { ...rec.cli, base_url: a.service } } : {}),
    response: { ...rec.response, body: body as ProvenanceRecord['response']['body'], raw },
    ...(a.sandbox ? { sandbox: true } : {}),
  };
}

/** The case as case_created logged it; each field the store's row shows differently is a failure. */
function vouchedCaseOf(entries: readonly Numbered[], row: CaseRowFacts, failures: string[]): VouchedCase {
  const first = entries.find((x) => x.n === 1 && x.e.event === 'case_created');
  if (!first) {
    failures.push(`case ${row.id}: its case_created entry cannot be read: its name and description are not vouched for`);
    return { id: row.id, name: '', description: '', team: null, created_at: '', service: null, service_id: null, note: null };
  }
  const c = dataOf<CustodyEvents['case_created']['case']>(first.e, 'case');
  const logged: VouchedCase = {
    id: c.id, name: c.name, description: c.description ?? '', team: c.team ?? null, created_at: first.e.at,
    service: c.service ?? null, service_id: c.service_id ?? null, note: c.note ?? null,
  };
  for (const k of ['id', 'name', 'description', 'team', 'created_at', 'service', 'service_id'] as const) {
    if (row[k] !== logged[k]) failures.push(`case ${row.id}: its ${k} in the store (${q(row[k])}) is not the one entry 1 (case_created) logged (${q(logged[k])}): edited in the database`);
  }
  return logged;
}
