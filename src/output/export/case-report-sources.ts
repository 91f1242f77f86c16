/**
 * The first half of a case's report (case-report-data.ts): its sources, each input as custody
 * logged it (path, sha256, size, where geo fetched it from when it came from the web, and what its
 * metadata and C2PA credentials said before geo stripped it for the upload) beside the answer it got (sha256, service, when), and the method:
 * the depths and services asked, and what geo checked locally (the EXIF GPS beside the estimate,
 * the sun at the capture time, the content credentials). Plain data in, plain data out.
 */
import type { Numbered, VouchedResult } from '../../evidence/case-vouch.js';
import { describeCorroboration } from '../../evidence/corroborate.js';
import type { CustodyEvents } from '../../evidence/custody.js';
import { describeSun } from '../../evidence/sun-witness.js';
import { resultColumns } from '../../evidence/record-types.js';
import { credentialsText } from '../../image/c2pa-summary.js';
import type { C2paRecord } from '../../image/embedded.js';
import { takenTime } from '../time.js';
import { fetchedRows } from '../views/fetched.js';

export interface ReportSource {
  ref: string;
  input: { path: string | null; sha256: string; size: number | null; hashed_entry: number | null };
  /** What the original's metadata said, as kept in its input_hashed entry (null: none kept). */
  metadata: { tags: number; said: Array<[string, string]> } | null;
  /** Its C2PA content credentials in one sentence, as kept (null: none kept). */
  c2pa: string | null;
  /** A photo geo fetched from the web: the URL, each redirect, the final URL, when, what the host said, the sha256 as received (its input_hashed entry's `fetched`). */
  fetched: Array<[string, string]>;
  answer: { sha256: string; size: number | null; service: string; analysis_id: string | null; received_at: string | null; stored_at: string | null; entry: number | null; sandbox: boolean };
  linked: { entry: number; at: string };
  place: string;
  lat: number | null;
  lng: number | null;
  confidence: number | null;
  depth: number | null;
  model: string | null;
}

export interface ReportMethod {
  depths: number[];
  services: string[];
  models: string[];
  /** Per result: the EXIF check, the sun witness and the content credentials, one line each. */
  checks: Array<{ ref: string; exif: string; sun: string | null; c2pa: string }>;
  /** Requests that went out and got no answer to keep. */
  failed: Array<{ entry: number; input: string; status: number | null; code: string }>;
}

type Hashed = CustodyEvents['input_hashed'];
type Answer = CustodyEvents['answer_received']['answer'];
type Failed = CustodyEvents['request_failed']['failure'];

const KEPT_TAGS: ReadonlyArray<[string, string]> = [['Make', 'camera make'], ['Model', 'camera model'], ['Software', 'software'], ['GPSLatitude', 'GPS latitude'], ['GPSLongitude', 'GPS longitude']];

/** The few tags a reader looks for first, from metadata_json (exiftool -j -n's keys). */
function metadataOf(json: string | undefined): ReportSource['metadata'] {
  if (json === undefined) return null;
  let tags: Record<string, unknown> = {};
  try {
    const m = JSON.parse(json) as { tags?: unknown };
    if (typeof m.tags === 'object' && m.tags !== null) tags = m.tags as Record<string, unknown>;
  } catch {
    return { tags: 0, said: [['metadata', 'kept, but not readable as JSON']] };
  }
  const said: Array<[string, string]> = [];
  const t = tags.DateTimeOriginal;
  if (typeof t === 'string') said.push(['taken', takenTime(t, typeof tags.OffsetTimeOriginal === 'string' ? tags.OffsetTimeOriginal : undefined)]);
  for (const [k, label] of KEPT_TAGS) if (tags[k] !== undefined && tags[k] !== null) said.push([label, String(tags[k])]);
  return { tags: Object.keys(tags).length, said };
}

function c2paOf(c: C2paRecord | undefined): string | null {
  if (!c) return null;
  return c.present ? `content credentials: ${credentialsText(c)}` : 'no C2PA content credentials in the file';
}

const of = <T>(e: Numbered['e'], key: string) => (e.data[key] ?? {}) as T;

export function reportSources(entries: readonly Numbered[], results: readonly VouchedResult[]): ReportSource[] {
  return results.map((r, i) => {
    const hashed = entries.filter(({ n, e }) => n < r.entry && e.event === 'input_hashed' && of<Hashed['input']>(e, 'input').sha256 === r.input.sha256).at(-1);
    const answered = entries.filter(({ n, e }) => n < r.entry && e.event === 'answer_received' && of<Answer>(e, 'answer').sha256 === r.answer.sha256).at(-1);
    const h = hashed?.e.data as Hashed | undefined;
    const a = answered ? of<Answer>(answered.e, 'answer') : undefined;
    const col = resultColumns(r.record.response.body, r.record.request);
    const body = r.record.response.body as { model?: unknown };
    return {
      ref: `r${i + 1}`,
      input: { path: r.input.path, sha256: r.input.sha256, size: h?.input.size ?? null, hashed_entry: hashed?.n ?? null },
      metadata: metadataOf(h?.metadata_json), c2pa: c2paOf(h?.c2pa),
      fetched: h?.fetched ? (fetchedRows(h.fetched) as Array<[string, string]>) : [],
      answer: {
        sha256: r.answer.sha256, size: a?.size ?? null, service: r.answer.service, analysis_id: r.answer.analysis_id,
        received_at: answered?.e.at ?? null, stored_at: a?.stored_at ?? null, entry: answered?.n ?? null, sandbox: r.answer.sandbox,
      },
      linked: { entry: r.entry, at: r.linked_at },
      place: [...new Set([col.neighborhood, col.city, col.country].filter((p): p is string => Boolean(p && p.trim())))].join(', '),
      lat: col.latitude, lng: col.longitude, confidence: col.confidence, depth: col.depth, model: typeof body.model === 'string' ? body.model : null,
    };
  });
}

export function reportMethod(entries: readonly Numbered[], results: readonly VouchedResult[], sources: readonly ReportSource[]): ReportMethod {
  const uniq = <T>(xs: ReadonlyArray<T | null>) => [...new Set(xs.filter((x): x is T => x !== null))];
  const checks = results.map((r, i) => {
    const c = r.record.exif;
    const s = sources[i]!;
    return {
      ref: s.ref,
      exif: c && typeof c.verdict === 'string' ? describeCorroboration(c) : 'not checked (the record holds no EXIF check)',
      sun: c?.sun ? `sun ${describeSun(c.sun)}` : null,
      c2pa: s.c2pa ?? 'not kept (geo kept no credentials for this input)',
    };
  });
  const failed = entries.filter(({ e }) => e.event === 'request_failed').map(({ n, e }) => {
    const f = of<Failed>(e, 'failure');
    return { entry: n, input: String(f.input ?? ''), status: typeof f.status === 'number' ? f.status : null, code: String(f.code ?? '') };
  });
  return { depths: uniq(sources.map((s) => s.depth)).sort(), services: uniq(sources.map((s) => s.answer.service)), models: uniq(sources.map((s) => s.model)), checks, failed };
}
