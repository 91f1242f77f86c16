/** `geo history`: one row per stored result, newest first. Cells are sanitized by renderTable. */
import { basename } from 'node:path';
import { renderTable, width } from '../table.js';
import { peopleTime } from '../time.js';
import type { ViewOpts } from '../render.js';

/** What `geo history --json` prints per result (built by commands/history/run.ts). */
export interface HistoryRow {
  stored_at: string;
  input: string;
  sha256: string;
  city: string;
  neighborhood: string;
  country: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  confidence: number | null;
  depth: number | null;
  analysis_id: string | null;
  /**
   * From the record's Idempotent-Replayed header: a replay was free. `reused_similar`: a copy of a
   * photo located before that took that result's answer (`copy_of`): the row holds no answer of its own.
   */
  charge: 'paid' | 'replayed' | 'unknown' | 'reused_similar';
  base_url: string;
  /** Answered by a geo sandbox (its header): simulated, never evidence. */
  sandbox: boolean;
  /**
   * Who paid for it and when: on a team store the database role its server
   * authenticated (`role`), with the OS user and host the machine said; on the local file the
   * analyst (OS user, host) it recorded (StoreApi.paidBy; this machine's user when it recorded
   * none); `at` ISO-8601 UTC by the store's clock. A video's or a set's entry: its newest
   * answer's. Null when unknown.
   */
  paid_by: PaidBy | null;
  /**
   * `result`, or a `video` (its frames) or a `set` (photos located --together) listed as one entry
   *: then `input` is the video as named (or the set's id), `sha256` the video's,
   * latitude/longitude the consensus, `confidence` null, the place that of the agreeing answer
   * nearest the consensus, and `agree` of `of` answers agree within `spread_km`.
   */
  kind: 'result' | 'video' | 'set';
  /** The batch that sent it: `geo history show BATCH` shows a video's or a set's consensus. */
  batch: string | null;
  frames: HistoryFrame[] | null;
  agree: number | null;
  of: number | null;
  spread_km: number | null;
  /** `geo history --like`: bits between the image asked about and this result's image (PDQ); absent otherwise. */
  distance?: number;
  /** The earlier result this one is a copy of (its answer reused, or its own paid for and linked); absent when none. */
  copy_of?: CopyMark;
}

/** A copy's link to the earlier result (store/copy-links.ts): that result, its input and sha256, the distance, and whether its answer was reused. */
export interface CopyMark {
  result: number;
  input: string;
  sha256: string;
  distance: number;
  reused: boolean;
}

/** "copy of a.jpg (4 bits)". */
export const copyOfText = (c: CopyMark): string => `copy of ${basename(c.input) || `result ${c.result}`} (${c.distance} bit${c.distance === 1 ? '' : 's'})`;

export interface PaidBy {
  /** The team store's database role (absent on the local file, and for results stored before roles were recorded). */
  role?: string;
  user: string;
  host: string;
  at: string;
}

/** One answer of a video or a set in its history entry; `cluster` is its rank (1: the consensus). */
export interface HistoryFrame {
  index: number;
  /** Seconds into the clip (null for a photo). */
  t_s: number | null;
  input: string;
  sha256: string;
  stored_at: string;
  latitude: number | null;
  longitude: number | null;
  confidence: number | null;
  analysis_id: string | null;
  charge: HistoryRow['charge'];
  cluster: number | null;
}

/** "2024-05-14T18:32:07.123Z" -> "2024-05-14 18:32:07" (UTC, as stored). */


function place(r: HistoryRow): string {
  // A reuse holds no answer: its place cell says whose answer it took.
  if (r.copy_of?.reused) return `reused: ${copyOfText(r.copy_of)}`;
  const parts = [r.neighborhood, r.city, r.country].map((s) => s.trim()).filter(Boolean);
  return [[...new Set(parts)].join(', '), ...(r.copy_of ? [copyOfText(r.copy_of)] : [])].filter(Boolean).join(' · ');
}

const chargeCell = (r: HistoryRow): string => {
  const c = r.charge === 'reused_similar' ? 'reused (not charged)' : r.charge;
  return r.sandbox ? `${c} (sandbox)` : c;
};

/** A video's or a set's ANALYSIS cell: its batch id this long, which `geo history show` takes. */
export const BATCH_REF = 12;

/**
 * The ANALYSIS cell: a result's analysis id (an_…); a video or a set has no one analysis, so its
 * cell says it is the batch ("batch 3fa9c1e2d4b6"), the id `geo history show` takes for it.
 */
const analysisCell = (r: HistoryRow): string => (r.kind === 'result' ? (r.analysis_id ?? '') : r.batch ? `batch ${r.batch.slice(0, BATCH_REF)}` : '');

function inputOf(r: HistoryRow): string {
  if (r.kind === 'result') return r.input;
  const n = r.frames?.length ?? 0;
  return `${r.input} (${n} ${r.kind === 'video' ? 'frame' : 'photo'}${n === 1 ? '' : 's'})`;
}

/** A result's confidence; for a video or a set, how many of its answers agree (never a confidence). */
function confidenceOf(r: HistoryRow): string {
  if (r.kind !== 'result') return r.agree === null ? 'no answer' : `${r.agree}/${r.of ?? 0} agree`;
  return r.confidence === null ? '' : r.confidence.toFixed(2);
}

/** Who paid: the role that logged in, else "user@host" (the time is WHEN's: the answer was stored as it was paid for). */
const payerOf = (p: PaidBy): string => p.role ?? `${p.user}@${p.host}`;
const paidBy = (r: HistoryRow) => (r.paid_by ? payerOf(r.paid_by) : '');

/**
 * What people copy stays whole: the analysis id (for `geo history show`) and the
 * numbers are never cut, and the input is cut at its start at a folder, never inside a name, down
 * to its file name (fit.ts cutPath). On a narrow
 * terminal the charge, the time, the depth and then the place go below the table, under the
 * input's whole path (so on 60 columns a long file name cut in the table is still shown whole).
 */
export function historyView(rows: readonly HistoryRow[], view: ViewOpts, searched: 'search' | 'like' | false = false): string {
  if (!rows.length) return searched === 'like' ? 'No stored result of a near-duplicate.' : searched ? 'No stored result matches.' : 'No stored results. geo locate keeps one for every result (unless --no-store).';
  const names = Math.min(48, Math.max(6, ...rows.map((r) => width(basename(inputOf(r))) + 1)));
  // --like leads with the distance (bits of 256): what ranks the rows. It is never cut.
  const near = searched === 'like';
  const lead = <T>(d: T, rest: T[]): T[] => (near ? [d, ...rest] : rest);
  const at = (i: number) => (near ? i + 1 : i);
  return renderTable(
    {
      head: lead('DISTANCE', ['WHEN', 'INPUT', 'PLACE', 'CONFIDENCE', 'DEPTH', 'ANALYSIS', 'CHARGE', 'PAID BY']),
      rows: rows.map((r) => lead<string | number>(r.distance ?? '', [peopleTime(r.stored_at), inputOf(r), place(r), confidenceOf(r), r.depth ?? '', analysisCell(r), chargeCell(r), paidBy(r)])),
      align: lead('right', ['left', 'left', 'left', 'right', 'right', 'left', 'left', 'left']),
      optional: [6, 0, 4, 2, 7].map(at),
      cutLeft: [at(1)],
      label: at(1),
      // "CONF…" is as narrow as the confidence header goes; "0.90" is 4 wide. "PAID BY" is cut
      // from the right ("alice@newsroom-lap…"); at 80 columns it stays and the place goes below
      // the table (each row says who paid), at 60 it goes below too.
      floor: lead<number | undefined>(Infinity, [Infinity, names, undefined, 5, Infinity, Infinity, undefined, 7]),
      min: lead<number | undefined>(undefined, [undefined, 12]),
    },
    view,
  );
}
