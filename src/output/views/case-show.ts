/**
 * `geo cases show` and `geo cases verify <case>`: a local case, its results with a map link each,
 * and its custody log. Names and places come from files and the service: sanitized. A sandbox's
 * answers are never evidence: their count opens the view, and each says so (evidence/simulated.ts).
 */
import type { SignaturesSection } from '../../evidence/custody-sign.js';
import type { Investigation } from '../../evidence/investigation.js';
import type { TimestampsSection } from '../../evidence/custody-stamps.js';
import type { ReviewsSection } from '../../evidence/review-sign.js';
import { type SimulatedSection } from '../../evidence/verify-report.js';
import { SIMULATED, isSimulated, simulatedCount } from '../../evidence/simulated.js';
import type { FetchedFrom } from '../../evidence/record-types.js';
import type { MapLink } from '../maps.js';
import { fetchedView } from './fetched.js';
import { wrapFor } from '../fit.js';
import { type KvInput, renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';
import { investigationView } from './case-investigation.js';
import { SANDBOX_TIME, signatureRows, timestampRows, reviewRows } from './trust-rows.js';
import { sanitizeInline } from '../sanitize.js';
import { peopleTime } from '../time.js';

export interface CaseShowResult {
  /** The result's row in the store, and what `geo history show` takes for it. */
  id: number;
  ref: string;
  input: string;
  place: string;
  latitude: number | null;
  longitude: number | null;
  confidence: number | null;
  depth: number | null;
  analysis_id: string | null;
  sandbox: boolean;
  linked_at: string;
  map_links: MapLink[];
  /** A photo geo fetched from the web: how, as the custody log holds it. */
  fetched?: FetchedFrom;
}

/** A copy_linked entry as logged: a copy of a photo the case met, what it is a copy of, and how its answer came. */
export interface CaseShowCopy {
  entry: number;
  input: string;
  sha256: string;
  of: { input: string; sha256: string; analysis_id: string | null };
  distance: number;
  answer: 'reused' | 'paid';
}

/** A head_stamped entry as logged (geo cases verify checks its token). */
export interface CaseShowStamp {
  entry: number;
  seq: number;
  tsa: string;
  gen_time: string;
  /** Its kept token is `geo sandbox`'s test authority's: sandbox time, not evidence. */
  sandbox?: true;
}

export interface CaseShow {
  case: { id: string; name: string; description: string; team: string | null; created_at: string; service: string | null; service_id: string | null; service_note: string | null };
  results: CaseShowResult[];
  /** Copies of photos the case met (copy_linked entries), in log order. */
  copies: CaseShowCopy[];
  /** How many of the results a geo sandbox answered (simulated, never evidence). */
  simulated: number;
  custody: { entries: number; verified: boolean; head?: string; broken?: string };
  /** Its trusted timestamps, as logged. */
  timestamps: CaseShowStamp[];
  /** The analyst's work on it: notes, judgements, places ruled out, conclusions, reviews, working copies (case-investigation.ts). */
  investigation: Investigation;
  /** What the store holds that the log does not vouch for (geo cases verify lists the same): results so bound are not shown. */
  problems: string[];
}

/** What `geo cases verify <case>` found (commands/cases/check.ts), by section (evidence/verify-report.ts). */
export interface CaseVerifyView {
  /** The case as case_created logged it. */
  case: { id: string; name: string };
  /** Integrity holds and no simulated answer is refused. */
  ok: boolean;
  integrity: {
    ok: boolean;
    /** The chain, when it verified: its entries and head. */
    custody?: { entries: number; head: string };
    /** Linked results bound to their own logged input and answer, nothing in the store disagreeing. */
    answers: number;
    /** Files written for the case that still have the sha256 logged. */
    files: number;
    /** One line per failure, naming the entry, the result, the case or the file. */
    failures: string[];
    /** Files the log names that are gone (moved or deleted): not checked, not a failure. */
    notes: string[];
    /** Whether the log carries signatures (then the caveat says what they bind; else that anyone holding the database could rebuild it). */
    signed: boolean;
    caveat: string;
  };
  signatures: SignaturesSection;
  timestamps: TimestampsSection;
  reviews: ReviewsSection;
  simulated: SimulatedSection;
  /** Every failure, integrity's and the simulated answers' refusal. */
  failures: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const s = (v: string | null | undefined) => sanitizeInline(v ?? '');

function where(c: CaseShow['case']): string {
  if (c.service_id !== null) return `on the service too: ${s(c.service_id)} at ${s(c.service)}`;
  return `on this machine only${c.service_note ? ` (${s(c.service_note)})` : ''}`;
}

export function caseShowView(d: CaseShow, view: ViewOpts): string {
  const st = view.style;
  const c = d.case;
  const rows: KvInput[] = [['case', `${s(c.id)}  ${s(c.name)}`]];
  if (c.description) rows.push(['description', s(c.description)]);
  if (c.team) rows.push(['team', s(c.team)]);
  rows.push(['created', peopleTime(c.created_at)], ['where', where(c)]);
  const k = d.custody;
  rows.push(['custody', k.verified ? `${plural(k.entries, 'entry', 'entries')}, chain verified; head ${k.head}` : { drawn: st.red(`${plural(k.entries, 'entry', 'entries')}, chain BROKEN: ${s(k.broken)}`) }]);
  d.timestamps.forEach((t, i) => rows.push([i === 0 ? 'timestamps' : '', `entry ${t.entry}: the head of entry ${t.seq} by ${s(t.gen_time)}, from ${s(t.tsa)}${t.sandbox ? `; ${SANDBOX_TIME}` : ''}`]));
  if (d.problems.length) rows.push(['verified', { drawn: st.red(`NO: ${plural(d.problems.length, 'problem')} (geo cases verify ${s(c.id)} lists them); only what the log vouches for is shown`) }]);
  const top = d.simulated > 0 ? [st.yellow(st.bold(`${simulatedCount(d.simulated)}${d.simulated < d.results.length ? ` (of ${d.results.length} results)` : ''}`))] : [];
  const lines = [...top, renderKv(rows, view), '', d.results.length ? `results (${d.results.length}):` : 'No results linked yet: geo locate … --case ID, or geo cases link ID RESULT'];
  d.results.forEach((r, i) => {
    const at = r.latitude !== null && r.longitude !== null ? `${r.latitude.toFixed(6)}, ${r.longitude.toFixed(6)}` : 'no coordinates';
    const facts = [r.confidence !== null ? `confidence ${r.confidence.toFixed(2)}` : '', r.depth !== null ? `depth ${r.depth}` : '', r.analysis_id ? s(r.analysis_id) : ''].filter(Boolean);
    // On a terminal each line is wrapped under the number, a path or a link kept whole (fit.ts).
    const item = wrapFor(view, `${s(r.input)}  (${s(r.ref)})`, '     ', `  ${i + 1}. `);
    lines.push(...item.slice(0, -1), item.at(-1)!.replace(`(${s(r.ref)})`, st.dim(`(${s(r.ref)})`)));
    // The mark before the place: the first thing read of a simulated result.
    if (isSimulated(r)) lines.push(`     ${st.yellow(SIMULATED)}`);
    if (r.fetched) lines.push(fetchedView(r.fetched, view, '     '));
    lines.push(...wrapFor(view, [s(r.place) || 'a place', at, ...facts].join(' · '), '     '));
    const osm = r.map_links.find((m) => m.name === 'OpenStreetMap');
    if (osm) lines.push(...wrapFor(view, osm.url, '     '));
  });
  if (d.copies.length) lines.push('', `copies (${d.copies.length}):`);
  for (const c of d.copies) {
    const how = c.answer === 'reused' ? 'its answer reused: not the service\'s answer for its bytes' : 'its own answer paid for';
    lines.push(...wrapFor(view, `${s(c.input)}: a copy of ${s(c.of.input)} (${c.distance} bits apart), ${how} (entry ${c.entry})`, '     ', '  - '));
  }
  lines.push(...investigationView(d.investigation, d.simulated, view));
  return lines.join('\n');
}

/** The simulated-answers line, shared with the bundle's view. */
export function simulatedRow(sim: SimulatedSection, view: ViewOpts): KvInput {
  const st = view.style;
  if (!sim.checked) return ['simulated', 'not counted (the custody log was not read)'];
  if (sim.answers === 0) return ['simulated', 'none: every answer came from a service, not a sandbox'];
  const line = simulatedCount(sim.answers);
  return ['simulated', sim.allowed ? `${line} (checked as a test case: --allow-sandbox)` : { drawn: st.red(line) }];
}

export function caseVerifyView(r: CaseVerifyView, view: ViewOpts): string {
  const st = view.style;
  const i = r.integrity;
  const title = `case ${s(r.case.id)} (${s(r.case.name)}): ${r.ok ? st.green('verified') : st.red(st.bold(`FAILED (${plural(r.failures.length, 'problem')})`))}`;
  const rows: KvInput[] = [
    ['integrity', i.ok ? i.caveat : { drawn: st.red(`FAILED: ${plural(i.failures.length, 'problem')} (below)`) }],
    ['custody', i.custody ? `${plural(i.custody.entries, 'entry', 'entries')}, chain intact; head ${i.custody.head}` : 'not verified (see below)'],
    ['answers', `${i.answers} linked ${i.answers === 1 ? 'result is' : 'results are'} bound to ${i.answers === 1 ? 'its' : 'their'} own logged input and answer`],
    ['files', `${plural(i.files, 'file')} written for the case still ${i.files === 1 ? 'has' : 'have'} the sha256 logged`],
    ...signatureRows(r.signatures, view),
    ...timestampRows(r.timestamps, view),
    ...reviewRows(r.reviews, view),
    simulatedRow(r.simulated, view),
  ];
  const lines = [title, renderKv(rows, view, '  ')];
  // Wrapped under their mark on a terminal, a path or a hash kept whole (fit.ts).
  const marked = (mark: string, drawn: string, text: string) => wrapFor(view, sanitizeInline(text), '    ', `  ${mark} `).map((l, n) => (n === 0 ? l.replace(mark, drawn) : l));
  if (i.notes.length) lines.push('', ...i.notes.flatMap((n) => marked('-', st.dim('-'), n)));
  if (r.failures.length) lines.push('', ...r.failures.flatMap((f) => marked('✗', st.red('✗'), f)));
  return lines.join('\n');
}
