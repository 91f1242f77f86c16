/**
 * When and with what a photo was taken, for the report: the analyst's first questions after
 * "where". Read from the provenance record's `exif` block when it carries the capture fields
 * (named as image/exif.ts names them: dateTimeOriginal, offsetTime, make, model), otherwise from
 * the image bytes the report already holds, with the same local EXIF reader `geo inspect` uses.
 * Nothing here is sent anywhere.
 */
import { type ExifSummary, cameraName, readExif } from '../../image/exif.js';
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { takenTime } from '../time.js';

export interface Capture {
  /** DateTimeOriginal and its offset in the one format people read (time.ts): "2024-05-14 18:32 local (UTC+02:00), 2024-05-14 16:32 UTC". */
  taken?: string;
  camera?: string;
  /** Where it was read: the stored record, or the image file. */
  from: 'record' | 'image';
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function fromSummary(e: Partial<ExifSummary>, from: Capture['from']): Capture | undefined {
  const taken = e.dateTimeOriginal ? takenTime(e.dateTimeOriginal, e.offsetTime) : undefined;
  const camera = cameraName(e);
  if (!taken && !camera) return undefined;
  return { ...(taken ? { taken } : {}), ...(camera ? { camera } : {}), from };
}

/** The capture fields of a record's `exif` block, if it has them (records are files anyone can edit: strings only). */
export function captureFromRecord(rec: ProvenanceRecord): Capture | undefined {
  const e = (rec.exif ?? {}) as Record<string, unknown>;
  const fields = { dateTimeOriginal: str(e.dateTimeOriginal), offsetTime: str(e.offsetTime), make: str(e.make), model: str(e.model) };
  return fromSummary(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)), 'record');
}

export async function captureOf(rec: ProvenanceRecord, imageBytes: Uint8Array | undefined): Promise<Capture | undefined> {
  const stored = captureFromRecord(rec);
  if (stored || !imageBytes) return stored;
  try {
    return fromSummary(await readExif(imageBytes), 'image');
  } catch {
    return undefined; // readExif reports problems in `errors`; this is belt and braces
  }
}
