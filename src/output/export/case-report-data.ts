/**
 * A case as its report tells it (geo cases report): the question, the sources and the method
 * (case-report-sources.ts), the observations and hypotheses with their exhibits and working copies,
 * the clues accepted and rejected, the places ruled out, the conclusion and what it superseded, the
 * reviews, and the custody summary with how to verify it. One plain object: --json prints it, and
 * the HTML and Markdown renderers draw it (case-report-html.ts, case-report-md.ts). Every value is
 * the log's or its raw answers' (read through batch/case-results.ts by the command).
 */
import type { CaseVouch, Numbered } from '../../evidence/case-vouch.js';
import { caseItems } from '../../evidence/clue-ids.js';
import { checkSignatures } from '../../evidence/custody-sign.js';
import type { StampedHead } from '../../evidence/custody-stamps.js';
import type { ChainReport } from '../../evidence/custody-verify.js';
import { describeBroken } from '../../evidence/custody-verify.js';
import type { ExhibitRef } from '../../evidence/investigation-events.js';
import { type Authored, type Conclusion, investigationOf } from '../../evidence/investigation.js';
import { isSandboxTsaUrl } from '../../evidence/tsa-sandbox.js';
import { shellQuote } from '../../files/shell.js';
import { authorText } from './case-geometry.js';
import { type ReportMethod, type ReportSource, reportMethod, reportSources } from './case-report-sources.js';

/** The report's sections, in order: each an id (the HTML anchor, the Markdown anchor) and a heading. */
export const REPORT_SECTIONS = [
  ['question', 'The question'],
  ['sources', 'The sources'],
  ['method', 'The method'],
  ['observations', 'Observations and hypotheses'],
  ['clues', 'Clues accepted and rejected'],
  ['ruled-out', 'Places ruled out'],
  ['conclusion', 'The conclusion'],
  ['reviews', 'Reviews'],
  ['custody', 'Custody, and how to verify it'],
] as const;
export type SectionId = (typeof REPORT_SECTIONS)[number][0];

interface Entry {
  entry: number;
  at: string;
  by: string;
}
type Labelled = { id: string; label: string };
export interface ReportJudgement extends Entry { clue: string; result: string; label: string; because: string }
export interface ReportConclusion extends Entry { lat: number; lng: number; place: string | null; within_m: number; confidence: string; because: string; results: string[]; supersedes: number | null }

export interface CaseReport {
  report: { generated_at: string; geo_version: string };
  case: { id: string; name: string; description: string; created_at: string; team: string | null; service: string | null; service_id: string | null };
  /** The case rests on a sandbox's answers: how many of its results. */
  simulated: { answers: number; results: number } | null;
  sources: ReportSource[];
  method: ReportMethod;
  notes: Array<Entry & { kind: string; text: string; results: string[]; clues: Labelled[]; exhibits: ExhibitRef[]; agent: string | null }>;
  working_copies: Array<Entry & { of: { sha256: string; input_path: string; ref: string | null }; sha256: string; size: number; media_type: string; method: string; boxes: Labelled[] }>;
  clues: { total: number; accepted: ReportJudgement[]; rejected: ReportJudgement[]; replaced: number; unjudged: Labelled[] };
  ruled_out: Array<Entry & { what: string; because: string; area: { name: string; sha256: string } | null; within_km: number | null }>;
  conclusion: ReportConclusion | null;
  superseded: ReportConclusion[];
  reviews: Array<Entry & { verdict: string; because: string; covers: number; stale: boolean; stale_by: number | null; principal: string | null; fingerprint: string }>;
  custody: {
    entries: number; head: string | null; verified: boolean; broken: string | null;
    signatures: Array<{ entry: number; seq: number; principal: string | null; fingerprint: string; ok: boolean; problem: string | null }>;
    covered: number | null;
    stamps: Array<{ entry: number; seq: number; tsa: string; gen_time: string; sandbox: boolean }>;
    verify: string[];
  };
}

export interface CaseReportInput {
  chain: ChainReport;
  entries: Numbered[];
  vouch: CaseVouch;
}

const entryOf = (a: Authored): Entry => ({ entry: a.entry, at: a.at, by: authorText(a) });

/** The commands that check the case, as a person pastes them. */
function verifyCommands(id: string, o: { simulated: boolean; signed: boolean; stamped: boolean; approvals: number }): string[] {
  const q = shellQuote(id);
  const sandbox = o.simulated ? ' --allow-sandbox' : '';
  return [
    `geo cases verify ${q}${sandbox}`,
    ...(o.signed ? [`geo cases verify ${q}${sandbox} --require-signature --allowed-signers allowed_signers`] : []),
    ...(o.stamped ? [`geo cases verify ${q}${sandbox} --require-timestamp`] : []),
    ...(o.approvals ? [`geo cases verify ${q}${sandbox} --require-reviews ${o.approvals} --allowed-signers allowed_signers`] : []),
    `geo cases bundle ${q} case.zip`,
    `geo cases verify case.zip${sandbox}`,
    'without geo: unzip case.zip into an empty folder and run the commands its VERIFY.md lists (sha256sum -c SHA256SUMS, python3 verify_chain.py, ssh-keygen -Y verify for each signature)',
  ];
}

export function caseReport(ev: CaseReportInput, o: { now: number; version: string }): CaseReport {
  const inv = investigationOf(ev.entries);
  const results = ev.vouch.results;
  const items = caseItems(results);
  const labelOf = new Map(items.map((it) => [it.id, it.label]));
  const labelled = (id: string): Labelled => ({ id, label: labelOf.get(id) ?? '' });
  const refOf = new Map(results.map((r, i) => [r.input.sha256, `r${i + 1}`]));
  const entryByHash = new Map(ev.entries.map(({ n, e }) => [e.hash, n]));
  const sources = reportSources(ev.entries, results);
  const conclusion = (c: Conclusion): ReportConclusion => ({
    ...entryOf(c), lat: c.lat, lng: c.lng, place: c.place ?? null, within_m: c.within_m, confidence: c.confidence, because: c.because,
    results: (c.results ?? []).map((r) => r.ref), supersedes: c.supersedes ? (entryByHash.get(c.supersedes) ?? null) : null,
  });
  const judged = inv.judgements.map((j) => ({ ...entryOf(j), clue: j.clue, result: j.result?.ref ?? '', label: labelOf.get(j.clue) ?? j.label, because: j.because, verdict: j.verdict }));
  const strip = ({ verdict: _v, ...j }: (typeof judged)[number]): ReportJudgement => j;
  const entries = ev.entries.map((x) => x.e);
  const sigs = checkSignatures(entries);
  const stamps = ev.entries.filter(({ e }) => e.event === 'head_stamped').map(({ n, e }) => {
    const s = (e.data.stamp ?? {}) as Partial<StampedHead>;
    return { entry: n, seq: Number(s.seq), tsa: String(s.tsa ?? ''), gen_time: String(s.gen_time ?? ''), sandbox: isSandboxTsaUrl(String(s.tsa ?? '')) };
  });
  const simulated = results.filter((r) => r.answer.sandbox).length;
  const c = ev.vouch.case;
  return {
    report: { generated_at: new Date(o.now).toISOString(), geo_version: o.version },
    case: { id: c.id, name: c.name, description: c.description, created_at: c.created_at, team: c.team, service: c.service, service_id: c.service_id },
    simulated: ev.vouch.simulated > 0 ? { answers: ev.vouch.simulated, results: simulated } : null,
    sources,
    method: reportMethod(ev.entries, results, sources),
    notes: inv.notes.map((n) => ({
      ...entryOf(n), kind: n.kind, text: n.text, results: (n.results ?? []).map((r) => r.ref), clues: (n.clues ?? []).map(labelled), exhibits: n.exhibits ?? [], agent: n.by?.client ?? null,
    })),
    working_copies: inv.working_copies.map((w) => ({
      ...entryOf(w), of: { sha256: w.of.sha256, input_path: w.of.input_path, ref: refOf.get(w.of.sha256) ?? null }, sha256: w.sha256, size: w.size, media_type: w.media_type, method: w.method,
      boxes: (w.boxes ?? []).map((b) => labelled(b.clue)),
    })),
    clues: {
      total: items.length, accepted: judged.filter((j) => j.verdict === 'accepted').map(strip), rejected: judged.filter((j) => j.verdict === 'rejected').map(strip),
      replaced: inv.earlier_judgements.length, unjudged: items.filter((it) => !inv.judgements.some((j) => j.clue === it.id)).map((it) => ({ id: it.id, label: it.label })),
    },
    ruled_out: inv.ruled_out.map((r) => {
      const g = r.geometry;
      const at = g?.type === 'Point' ? `${g.coordinates[1]}, ${g.coordinates[0]}` : '';
      const what = r.area ? `the area in ${r.area.name}` : `${r.place ? `${r.place} (${at})` : at}${r.within_km !== undefined ? ` and ${r.within_km} km around` : ''}`;
      return { ...entryOf(r), what, because: r.because, area: r.area ?? null, within_km: r.within_km ?? null };
    }),
    conclusion: inv.conclusion ? conclusion(inv.conclusion) : null,
    superseded: inv.superseded.map(conclusion),
    reviews: inv.reviews.map((r) => ({
      ...entryOf(r), verdict: r.verdict, because: r.because, covers: r.seq, stale: r.stale, stale_by: r.stale_by ?? null, principal: r.principal ?? null, fingerprint: r.fingerprint,
    })),
    custody: {
      entries: ev.chain.entries, head: ev.chain.ok ? ev.chain.head : null, verified: ev.chain.ok, broken: ev.chain.ok ? null : describeBroken(ev.chain.broken),
      signatures: sigs.signatures.map((s) => ({ entry: s.entry, seq: s.seq, principal: s.principal, fingerprint: s.fingerprint, ok: s.ok, problem: s.problem ?? null })),
      covered: sigs.covered, stamps,
      verify: verifyCommands(c.id, { simulated: ev.vouch.simulated > 0, signed: sigs.signed, stamped: stamps.length > 0, approvals: new Set(inv.reviews.filter((r) => r.verdict === 'approve' && !r.stale).map((r) => r.fingerprint)).size }),
    },
  };
}
