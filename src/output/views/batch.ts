/**
 * A locate over many inputs, for people: the live progress line (stderr), the results table
 * (stdout, terminal), the plan (dry run, confirmation) and the closing summary (stderr). Plain
 * data in, text out (the shapes are batch-status.ts's, imported as types only).
 */
import type { BatchPlan } from '../batch-status.js';
import type { BatchProgress, BatchSummary } from '../batch-status.js';
import { basename } from 'node:path';
import { width, wrapFor } from '../fit.js';
import { coord } from '../maps.js';
import type { Style } from '../plain-style.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';
import { renderTable } from '../table.js';

export type ProgressData = BatchProgress;

/** "45 s", "3 min 04 s", "1 h 02 min". */
export function duration(s: number): string {
  const t = Math.max(0, Math.round(s));
  if (t < 60) return `${t} s`;
  if (t < 3600) return `${Math.floor(t / 60)} min ${String(t % 60).padStart(2, '0')} s`;
  return `${Math.floor(t / 3600)} h ${String(Math.floor((t % 3600) / 60)).padStart(2, '0')} min`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * One line, redrawn in place: what is finished, what it cost, how fast, how long to go; during a
 * rate-limit wait, first after the count, how long it still lasts (`waitS`, counting down as the
 * line is redrawn each second: the line looked frozen).
 */
export function progressLine(p: ProgressData, style: Style, waitS?: number): string {
  const settled = p.done + p.failed + p.skipped;
  const cells = 10; // room for every figure on a 100-column terminal
  const full = p.total > 0 ? Math.round((settled / p.total) * cells) : 0;
  const bar = '█'.repeat(full) + '░'.repeat(cells - full);
  const parts = [
    `${bar} ${settled}/${p.total}`,
    ...(waitS !== undefined && waitS > 0 && settled < p.total ? [style.yellow(`waiting for the rate-limit window, ${waitS} s`)] : []),
    `${p.done} ok`,
    p.failed - p.notSent ? style.red(`${p.failed - p.notSent} failed`) : '0 failed',
    ...(p.notSent ? [style.yellow(`${p.notSent} not sent`)] : []),
    // A skipped input is not a failure (the line counted them as failed).
    ...(p.skipped ? [style.yellow(`${p.skipped} skipped`)] : []),
    `${p.inFlight} in flight`,
    `elapsed ${duration(p.elapsedS)}`,
    plural(p.creditsSpent, 'credit'),
    `${p.ratePerMin.toFixed(1)}/min`,
    p.etaS !== undefined ? `ETA ${duration(p.etaS)}` : 'ETA …',
  ];
  return parts.join(' · ');
}

/**
 * Accessible mode's progress: a plain line, printed when another tenth is done, never
 * redrawn: "progress 30% · 6 of 20 · 6 ok · 0 failed · 6 credits · ETA 14 s".
 */
export function progressPercentLine(p: ProgressData): string {
  const settled = p.done + p.failed + p.skipped;
  const pct = p.total > 0 ? Math.floor((settled / p.total) * 100) : 0;
  const failed = p.failed - p.notSent;
  return [
    `progress ${pct}%`, `${settled} of ${p.total}`, `${p.done} ok`, `${failed} failed`, ...(p.notSent ? [`${p.notSent} not sent`] : []), ...(p.skipped ? [`${p.skipped} skipped`] : []),
    plural(p.creditsSpent, 'credit'), ...(p.etaS !== undefined && settled < p.total ? [`ETA ${duration(p.etaS)}`] : []),
  ].join(' · ');
}

/** Which tenth of the work is done (0-10): accessible mode prints a line when it grows. */
export function progressTenth(p: ProgressData): number {
  return p.total > 0 ? Math.floor(((p.done + p.failed + p.skipped) / p.total) * 10) : 0;
}

export interface ResultRow {
  input: string;
  ok: boolean;
  place?: string;
  lat?: number;
  lng?: number;
  confidence?: number;
  /** The EXIF corroboration verdict: agrees, contradicts, stripped, none. */
  verdict?: string;
  error?: { code: string; message: string };
}

function paintVerdict(v: string | undefined, style: Style): string {
  if (v === 'agrees') return style.green(v);
  if (v === 'contradicts') return style.red(v);
  return v ?? '';
}

/**
 * The folder every input is in ("/cases/harbour/photos/"), or '' when they share none, there is
 * one input, or one is not a local path (a URL, stdin, a sample): that prefix is said once above
 * the table instead of filling its input column (at 60 columns the file names were cut).
 */
export function commonFolder(inputs: readonly string[]): string {
  if (inputs.length < 2 || inputs.some((i) => i === '-' || /^[a-z][a-z0-9+.-]*:/i.test(i) || !i.includes('/'))) return '';
  let prefix = inputs[0]!.slice(0, inputs[0]!.lastIndexOf('/') + 1);
  for (const i of inputs) while (prefix !== '' && !i.startsWith(prefix)) prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  return prefix === '/' || prefix === './' ? '' : prefix;
}

/**
 * One row per input. On a narrow terminal the coordinates, then the EXIF verdict, go below the
 * table; then the place is cut before the input, which is cut from the left and never past its
 * file name: two photos of one folder must stay told apart.
 */
export function resultsTable(all: readonly ResultRow[], view: ViewOpts): string {
  const folder = commonFolder(all.map((r) => r.input));
  const rows = folder ? all.map((r) => ({ ...r, input: r.input.slice(folder.length) })) : all;
  return (folder ? `${wrapFor(view, `in ${sanitizeInline(folder)}`).join('\n')}\n` : '') + resultsGrid(rows, view);
}

function resultsGrid(rows: readonly ResultRow[], view: ViewOpts): string {
  const names = Math.min(48, Math.max(6, ...rows.map((r) => width(basename(r.input)) + 1)));
  return renderTable(
    {
      head: ['input', 'place', 'coordinates', 'confidence', 'EXIF'],
      rows: rows.map((r) =>
        r.ok
          ? [r.input, r.place ?? '', r.lat !== undefined && r.lng !== undefined ? `${coord(r.lat)}, ${coord(r.lng)}` : '', r.confidence?.toFixed(2) ?? '', r.verdict ?? '']
          : [r.input, r.error?.code === 'not_sent' ? 'not sent' : r.error?.code === 'in_flight' ? 'in flight: may be charged' : `failed: ${r.error?.code ?? 'error'}`, '', '', ''],
      ),
      align: ['left', 'left', 'left', 'right', 'left'],
      optional: [2, 4],
      cutLeft: [0],
      // Numbers are never cut (half a coordinate is a wrong one); "0.90" is 4 wide, as is a cut header.
      floor: [names, undefined, Infinity, 4, Infinity],
    },
    view,
  // The verdict column is coloured after layout so cli-table3 measures plain text.
  ).replace(/\b(agrees|contradicts)\b(?=\s*\u2502?\s*$)/gm, (v) => paintVerdict(v, view.style));
}

export type PlanData = Pick<BatchPlan, 'inputs' | 'unique' | 'fromJournal' | 'fromResults' | 'toSend' | 'depth' | 'costPerImage' | 'credits' | 'available' | 'journal'> & {
  skipped?: readonly unknown[];
  inFlightElsewhere?: number;
  damaged?: number;
};

/**
 * What the run will send and cost, against the balance (before spending, dry run, confirmation).
 * `balance: false` leaves out a balance that was not read (one image below the threshold); with
 * nothing to send none is read or needed, so an unread one is not named either.
 */
export function planLine(p: PlanData, opts: { balance?: boolean; noun?: string } = {}): string {
  const skipped = p.skipped?.length ?? 0;
  const dupes = p.inputs - skipped - p.unique;
  const what = [
    plural(p.inputs, opts.noun ?? 'input'), ...(skipped > 0 ? [`${skipped} skipped`] : []), ...(dupes > 0 ? [`${p.unique} unique`] : []),
    ...(p.fromJournal > 0 ? [`${p.fromJournal} answered by an earlier run`] : []), ...(p.fromResults > 0 ? [`${p.fromResults} already in your results`] : []),
    ...(p.inFlightElsewhere ? [`${p.inFlightElsewhere} being sent by another geo process (waited for)`] : []),
    ...(p.damaged ? [`${p.damaged} whose only stored record is damaged`] : []),
  ].join(', ');
  const cost = `${p.toSend} to send × depth ${p.depth} (${plural(p.costPerImage, 'credit')}) = up to ${plural(p.credits, 'credit')}`;
  const balance = p.available !== undefined ? `balance ${p.available}` : 'balance unknown';
  return (opts.balance === false || p.toSend === 0) && p.available === undefined ? `${what} · ${cost}` : `${what} · ${cost} · ${balance}`;
}

/**
 * The plan's line about copies of photos located before (batch/similar.ts), or undefined when none
 * were found: what --reuse-similar would do, or does.
 */
export function similarLine(p: Pick<BatchPlan, 'similar' | 'similarWithin' | 'reuseSimilar'>): string | undefined {
  if (!p.similar) return undefined;
  const what = `${p.similar} look${p.similar === 1 ? 's like a photo' : ' like photos'} located before (within ${p.similarWithin} bits)`;
  return p.reuseSimilar
    ? `${what}: their answers are taken instead of paying (--reuse-similar), each marked as not the service's answer for its bytes`
    : `${what}: --reuse-similar takes their answers instead of paying`;
}

/** The batch's own summary counts, plus what the command adds (stop reason as text, stores). */
export type SummaryData = Pick<BatchSummary, 'inputs' | 'ok' | 'failed' | 'notSent' | 'inFlight' | 'skipped' | 'fromJournal' | 'fromResults' | 'fromColleagues' | 'fromSimilar' | 'copiesLinked' | 'replayed' | 'creditsSpent' | 'rateLimited' | 'elapsedMs' | 'journal'> & {
  fromOthers?: number;
  unstored?: number;
  /** describeStop() of the reason the batch stopped early. */
  stopped?: string;
  /** The exact command that sends what is left (stops and in-flight requests). */
  resume?: string;
  belowConfidence?: number;
  stored?: number;
};

export function summaryLines(s: SummaryData, style: Style): string[] {
  const counts = [
    `${s.ok} ok`, s.failed ? style.red(`${s.failed} failed`) : '0 failed', ...(s.skipped ? [style.red(`${s.skipped} skipped`)] : []),
    ...(s.inFlight ? [style.yellow(`${s.inFlight} in flight`)] : []), ...(s.notSent ? [style.yellow(`${s.notSent} not sent`)] : []),
  ];
  // Credits are those of answers received: the service confirmed them. In-flight ones are named apart.
  const lines = [`${plural(s.inputs, 'input')}: ${counts.join(', ')} · ${plural(s.creditsSpent, 'credit')} spent · ${duration(s.elapsedMs / 1000)}`];
  if (s.skipped) lines.push(`${plural(s.skipped, 'input')} skipped, never sent: unusable files found in a folder (each record says why)`);
  if (s.inFlight) lines.push(style.yellow(`${s.inFlight} in flight: may have been charged; resuming replays them free`));
  if (s.fromJournal) lines.push(`${plural(s.fromJournal, 'image')} answered by an earlier run of this command, not charged (--fresh to analyse again)`);
  if (s.fromResults) {
    const theirs = s.fromColleagues ?? 0;
    const whose = theirs === 0 ? 'your results' : theirs === s.fromResults ? "the team's results (paid for by colleagues)" : `the store's results (${theirs} paid for by colleagues)`;
    lines.push(`${plural(s.fromResults, 'image')} from ${whose} of earlier commands, not charged (--fresh to pay again)`);
  }
  if (s.fromSimilar) lines.push(`${plural(s.fromSimilar, 'copy', 'copies')} of photos located before took their answers (--reuse-similar), not charged: not the service's answers for their bytes`);
  if (s.copiesLinked) lines.push(`${plural(s.copiesLinked, 'copy', 'copies')} of photos located before, paid for and linked to them (geo history show names the link; --reuse-similar takes such answers instead)`);
  if (s.fromOthers) lines.push(`${plural(s.fromOthers, 'image')} answered by another geo process sending the same request, not charged here`);
  if (s.unstored) lines.push(style.red(`${plural(s.unstored, 'paid answer')} shown but NOT stored: ${s.journal ? 'the journal below keeps them, and the resume command brings them in' : 'each line above names the key that replays it free'}`));
  if (s.replayed) lines.push(`${plural(s.replayed, 'answer')} replayed by the service for its idempotency key, not charged`);
  if (s.rateLimited) lines.push(`${plural(s.rateLimited, 'rate-limit pause')} (429)`);
  if (s.belowConfidence) lines.push(style.yellow(`${plural(s.belowConfidence, 'result')} below --min-confidence`));
  if (s.stored !== undefined) lines.push(`${plural(s.stored, 'result')} stored (geo history lists them)`);
  if (s.stopped) lines.push(style.red(`stopped: ${sanitizeInline(s.stopped)}`));
  // In backticks: wrapping keeps the command whole on one line, ready to copy.
  if ((s.stopped || s.inFlight) && s.resume) lines.push(`to send what is left, with the same keys: \`${sanitizeInline(s.resume)}\``);
  if (s.journal) lines.push(style.dim(`journal ${sanitizeInline(s.journal)}`));
  return lines;
}
