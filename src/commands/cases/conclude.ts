/**
 * `geo cases conclude CASE --at PLACE|LAT,LNG --within METRES --confidence WORD --because TEXT`:
 * the analyst's conclusion, appended as conclusion_made. A later one supersedes the one before
 * (it names that entry's hash); both stay in the log, and `geo cases show` gives the one in force
 * and what it replaced. Confidence is a word, not a number: how sure a person is, not a score.
 */
import { UsageError } from '../../errors.js';
import type { CustodyEntry } from '../../evidence/custody.js';
import type { InvestigationEvents } from '../../evidence/investigation-events.js';
import { render, resolveFormat } from '../../output/render.js';
import { conclusionLine } from '../../output/views/case-investigation.js';
import { sanitizeInline } from '../../output/sanitize.js';
import type { Handler } from '../types.js';
import { type Appended, type InvestigationCtx, type Say, appendedLines, appendInvestigation, namedResults, openCase, placeAt, positiveWithin, words } from './investigation-append.js';

export type ConclusionData = InvestigationEvents['conclusion_made']['conclusion'];
export type Confidence = ConclusionData['confidence'];
export const CONFIDENCES: readonly Confidence[] = ['confirmed', 'probable', 'possible'];

export interface ConcludeOptions {
  case: string;
  /** A place name the offline index settles, or LAT,LNG. */
  at: string;
  /** The radius of its uncertainty, in metres (a number, or its text as typed). */
  withinM: number | string;
  confidence: string;
  because: string;
  /** Results it rests on: r2, an analysis id, a sha256 prefix. */
  results?: readonly string[];
}

/** `superseded_entry`: the position of the conclusion it replaced. */
export type Concluded = Appended & { conclusion: ConclusionData; superseded_entry?: number };

/** The latest conclusion entry: what a new one supersedes. */
const latestConclusion = (entries: readonly CustodyEntry[]) => entries.findLast((e) => e.event === 'conclusion_made');

export async function runConclude(ctx: InvestigationCtx, opts: ConcludeOptions, say: Say = () => undefined): Promise<Concluded> {
  const o = await openCase(ctx, opts.case);
  const at = placeAt('--at', opts.at);
  if (opts.withinM === undefined || String(opts.withinM).trim() === '') throw new UsageError('a conclusion needs --within METRES: the radius of its uncertainty', 'e.g. --within 250');
  const within = positiveWithin(opts.withinM, 'metres')!;
  const confidence = CONFIDENCES.find((c) => c === opts.confidence);
  if (!confidence) throw new UsageError(`--confidence must be confirmed, probable or possible, got ${JSON.stringify(opts.confidence ?? '')}`, 'a word, not a number: how sure you are (docs/cases.md "Working a case")');
  const because = words('--because', opts.because, 'the minaret and the bridge line up as in the photo');
  const results = namedResults(o, opts.results);
  const base = { lat: at.at.lat, lng: at.at.lng, ...(at.at.place !== null ? { place: at.at.place } : {}), within_m: within, confidence, because, results };
  let conclusion: ConclusionData = base;
  let before: CustodyEntry | undefined;
  const done = await appendInvestigation(ctx, o, (entries) => {
    before = latestConclusion(entries);
    conclusion = { ...base, ...(before ? { supersedes: before.hash } : {}) };
    return { event: 'conclusion_made', data: { conclusion } };
  }, say);
  return { ...done, conclusion, ...(before ? { superseded_entry: before.seq } : {}) };
}

export const conclude: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx, ['table', 'json']);
  const res = await runConclude(ctx, {
    case: args[0] as string, at: opts.at as string, withinM: opts.within as string, confidence: opts.confidence as string, because: opts.because as string,
    ...(Array.isArray(opts.result) ? { results: opts.result.map(String) } : {}),
  }, (line) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`));
  const c = res.conclusion;
  const human = () => [
    ...appendedLines(res, 'concluded'),
    `  ${conclusionLine(c)}`,
    ...(res.superseded_entry !== undefined ? [`  supersedes the conclusion of entry ${res.superseded_entry} (it stays in the log)`] : []),
  ].join('\n');
  await render(ctx, { data: res, human }, ['table', 'json']);
};
