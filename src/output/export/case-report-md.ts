/**
 * A case's report as Markdown (geo cases report --format md): the same sections as the HTML page
 * (case-report-data.ts), each with an anchor and a heading, for a terminal, a wiki or a pull
 * request. Images are named by their label and sha256, not embedded. Every string that is not
 * geo's own is made inert: terminal controls made visible (sanitize.ts), `<`, `>` and `&` as
 * entities (Markdown renders raw HTML), and the characters that would make a link, an image,
 * emphasis, code, a table cell or a heading backslash-escaped.
 */
import { SIMULATED_CASE } from '../../evidence/simulated.js';
import { type CaseReport, REPORT_SECTIONS, type SectionId } from './case-report-data.js';
import { sanitize } from '../sanitize.js';
import { peopleTime } from '../time.js';

/**
 * Inline text: one line, inert in Markdown and in a GFM table cell: backslashes, code spans,
 * emphasis, links and images (`[`), cells (`|`) and strikethrough escaped; `<`, `>`, `&` as entities.
 */
export function mdText(s: unknown): string {
  return sanitize(s)
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Text that starts a line: also no heading, list item or setext underline. */
const mdLine = (s: unknown) => mdText(s).replace(/^(\s*)([#+=-])/, '$1\\$2').replace(/^(\s*\d+)([.)])/, '$1\\$2');

/** A paragraph of the analyst's words: each line inert, line breaks kept. */
const para = (s: string) => sanitize(s).split(/\r?\n/).map((l) => mdLine(l.trim())).join('  \n');
const who = (e: { entry: number; at: string; by: string }) => `entry ${e.entry}, ${peopleTime(e.at)}, ${mdText(e.by)}`;
const code = (s: string) => `\`${s.replace(/`/g, '')}\``;
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const table = (head: readonly string[], rows: ReadonlyArray<readonly string[]>) => [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');
const within = (m: number) => (m < 1000 ? `${m} m` : `${Math.round(m / 100) / 10} km`);

function sections(r: CaseReport): Record<SectionId, () => string[]> {
  const c = r.case;
  const conclusion = (x: NonNullable<CaseReport['conclusion']>) => `At ${x.place ? `${mdText(x.place)}: ` : ''}${x.lat}, ${x.lng}, within ${within(x.within_m)}: **${x.confidence}**`;
  return {
    question: () => [`**${mdText(c.name)}**`, '', c.description ? para(c.description) : '_No description was given when the case was created._', '', `Case ${code(c.id)}, created ${mdText(peopleTime(c.created_at))}${c.service ? `, on ${mdText(c.service)}` : ''}.`],
    sources: () => r.sources.length === 0 ? ['_No result is linked to this case._'] : r.sources.flatMap((s) => [
      `### ${s.ref}: ${mdText(s.place || 'no place name')}${s.answer.sandbox ? ' (simulated answer)' : ''}`, '',
      `- original (evidence): ${mdText(s.input.path ?? '(path not logged)')}, sha256 ${code(s.input.sha256)}${s.input.size === null ? '' : `, ${s.input.size} bytes`}${s.input.hashed_entry === null ? '' : `, hashed in entry ${s.input.hashed_entry}`}`,
      ...s.fetched.map(([k, v]) => `- ${mdText(k)}: ${mdText(v)}`),
      `- metadata said: ${s.metadata ? `${s.metadata.said.map(([k, v]) => `${mdText(k)} ${mdText(v)}`).join('; ') || 'nothing a reader looks for first'} (${s.metadata.tags} tags kept)` : 'not kept'}`,
      `- C2PA: ${mdText(s.c2pa ?? 'not kept')}`,
      `- answer: sha256 ${code(s.answer.sha256)} from ${mdText(s.answer.service)}, analysis id ${mdText(s.answer.analysis_id ?? 'not retained')}${s.answer.received_at ? `, received ${mdText(peopleTime(s.answer.received_at))} (entry ${s.answer.entry})` : ''}; linked in entry ${s.linked.entry}`,
      `- estimate: ${s.lat === null ? 'none' : `${s.lat}, ${s.lng}`}${s.confidence === null ? '' : `, confidence ${s.confidence}`}, depth ${s.depth ?? '?'}${s.model ? `, model ${mdText(s.model)}` : ''}`, '',
    ]),
    method: () => [
      ...(r.sources.length === 0 ? ['_No answer is linked to this case yet._'] : [
        `geo asked ${mdText(r.method.services.join(', '))} at depth ${r.method.depths.join(', ') || '?'}. Each answer was kept byte for byte and hashed into the custody log; every value here is read back from those bytes. What geo checked locally (never sent, never changing a confidence):`, '',
        table(['result', 'EXIF', 'sun', 'C2PA'], r.method.checks.map((x) => [x.ref, mdText(x.exif), mdText(x.sun ?? 'not computed'), mdText(x.c2pa)])),
      ]),
      ...(r.method.failed.length ? ['', `Requests without an answer: ${r.method.failed.map((f) => `entry ${f.entry} (${mdText(f.input)}: ${mdText(f.code)})`).join('; ')}`] : []),
    ],
    observations: () => [
      ...(r.notes.length ? r.notes.flatMap((n) => [
        `- **${n.kind}**${n.agent ? ` (written by an agent: ${mdText(n.agent)})` : ''}: ${para(n.text)}  `,
        `  ${[...n.results, ...n.clues.map((x) => x.id)].length ? `points at ${mdText([...n.results, ...n.clues.map((x) => x.id)].join(', '))}; ` : ''}${who(n)}`,
        ...n.exhibits.map((x) => `  - exhibit: ${mdText(x.name)}, sha256 ${code(x.sha256)}, from ${mdText(x.source)}`),
      ]) : ['_No observation or hypothesis has been recorded._']),
      ...(r.working_copies.length ? ['', '### Originals and working copies', '', ...r.working_copies.map((w) => `- original (evidence) ${code(w.of.sha256)} (${mdText(w.of.ref ?? w.of.input_path)}) → working copy (annotated) ${code(w.sha256)}: ${mdText(w.method)}; boxes ${mdText(w.boxes.map((b) => b.id).join(', ') || 'none')}; ${who(w)}`)] : []),
    ],
    clues: () => [
      `${r.clues.total} items in the results: ${r.clues.accepted.length} accepted, ${r.clues.rejected.length} rejected, ${r.clues.unjudged.length} not judged.`, '',
      ...[['accepted', r.clues.accepted], ['rejected', r.clues.rejected]].flatMap(([verdict, list]) => {
        const l = list as CaseReport['clues']['accepted'];
        return [`### ${verdict as string}`, '', l.length ? table(['clue', 'what it says', 'because', 'who, when'], l.map((j) => [code(j.clue), mdText(j.label), mdText(j.because), who(j)])) : `_None ${verdict as string}._`, ''];
      }),
    ],
    'ruled-out': () => r.ruled_out.length ? [table(['place or area', 'because', 'who, when'], r.ruled_out.map((x) => [mdText(x.what), mdText(x.because), who(x)]))] : ['_No place has been ruled out._'],
    conclusion: () => r.conclusion
      ? [conclusion(r.conclusion), '', `because: ${para(r.conclusion.because)}`, '', `On ${r.conclusion.results.join(', ') || 'no result named'}; ${who(r.conclusion)}${r.conclusion.supersedes === null ? '' : `; supersedes the conclusion of entry ${r.conclusion.supersedes}`}.`,
        ...r.superseded.flatMap((s) => ['', `Superseded: ${conclusion(s)}, because ${mdText(s.because)} (${who(s)})`])]
      : ['_No conclusion has been recorded._'],
    reviews: () => r.reviews.length
      ? [table(['verdict', 'because', 'reviewer', 'now'], r.reviews.map((v) => [v.verdict.replace('_', ' '), mdText(v.because), `${mdText(v.principal ?? v.by)} (${mdText(v.fingerprint)}), entry ${v.entry}`, v.stale ? `stale (entry ${v.stale_by} came after)` : 'current']))]
      : ['_No review has been recorded._'],
    custody: () => [
      `${r.custody.entries} entries, head ${code(r.custody.head ?? 'none')}, chain ${r.custody.verified ? 'intact' : `BROKEN: ${mdText(r.custody.broken)}`}; ${r.custody.signatures.length} signature${r.custody.signatures.length === 1 ? '' : 's'} (signed up to ${r.custody.covered === null ? 'no entry' : `entry ${r.custody.covered}`}), ${r.custody.stamps.length} timestamp${r.custody.stamps.length === 1 ? '' : 's'}.`,
      '', 'How to verify:', '', '```sh', ...r.custody.verify.map((l) => (l.startsWith('without geo') ? `# ${l}` : l)), '```',
    ],
  };
}

export function renderCaseReportMd(r: CaseReport): string {
  const body = sections(r);
  const mark = r.simulated ? [`> **${SIMULATED_CASE}**: ${r.simulated.results} of the case's ${r.sources.length} results came from a geo sandbox.`, ''] : [];
  const out = [`# Case report: ${mdText(r.case.name)}`, '', `Written ${mdText(peopleTime(r.report.generated_at))} by geo ${r.report.geo_version} from case ${code(r.case.id)}'s custody log.`, ''];
  REPORT_SECTIONS.forEach(([id, heading], i) => out.push(`<a id="${id}"></a>`, '', `## ${i + 1}. ${heading}`, '', ...mark, ...body[id](), ''));
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}
