/**
 * EXIF summary of an image held in memory, via exifr (loaded on first use: CLI start-up stays
 * cheap). Values are those `exiftool -n` prints: decimal degrees, signed altitude, dates exactly as
 * written (no time-zone shift). A broken file yields whatever can be read plus messages in `errors`.
 */
import { heifExifTiff } from './heif-boxes.js';

export interface ExifGps {
  lat: number;
  lng: number;
  altitude?: number;
  direction?: number;
  /** 0,0 is what many phones and cameras write when they had no fix: not a location. */
  suspect?: 'zero';
}

export interface ExifSummary {
  gps?: ExifGps;
  /** The file has a GPS block that cannot be read (the reason is in `errors`): damaged, not stripped. */
  gpsUnreadable?: boolean;
  /** As written, e.g. "2008:10:22 16:28:39"; never shifted to another zone. */
  dateTimeOriginal?: string;
  offsetTime?: string;
  /** Which tag offsetTime came from: OffsetTimeOriginal (of DateTimeOriginal) or OffsetTime (of ModifyDate). */
  offsetTimeTag?: 'OffsetTimeOriginal' | 'OffsetTime';
  make?: string;
  model?: string;
  lens?: string;
  software?: string;
  errors: string[];
}

type Block = Record<string, unknown>;
interface Parsed {
  ifd0?: Block;
  exif?: Block;
  gps?: Block;
  ihdr?: Block;
  errors?: unknown[];
}

// Only the blocks we report: makerNote, XMP, ICC, thumbnails cost time and add failure modes.
// chunked:false because the whole file is already in memory, and because exifr's chunked reader
// misses a PNG eXIf chunk written after IDAT (nogps_png_with_exif_text.png).
const BASE = {
  chunked: false, tiff: true, ifd0: {}, exif: true, gps: true, ihdr: true,
  ifd1: false, interop: false, makerNote: false, userComment: false, xmp: false, icc: false, iptc: false, jfif: false,
  mergeOutput: false, reviveValues: false, translateValues: false, sanitize: true,
} as const;

// The one exifr call we make; its .d.ts lacks chunked/silentErrors, so type it here.
export interface Exifr {
  parse(data: Uint8Array, options: Record<string, unknown>): Promise<unknown>;
}
let exifrModule: Promise<Exifr> | undefined;
/** exifr, loaded on first use (also by image/metadata.ts, which reads every tag). */
export async function exifr(): Promise<Exifr> {
  // exifr ships a UMD main (no "exports"): Node ESM sees it as CommonJS, so take the default.
  exifrModule ??= import('exifr').then((m) => ((m as { default?: unknown }).default ?? m) as Exifr);
  return exifrModule;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * exifr keeps every options object it is given in a Map, forever (Options.useCached keys its
 * cache by the object itself): a new object per call kept ~10 KB per photo, 100 MB over a batch
 * of 10,000. So each variant is built once and the same object passed every time.
 */
const OPTIONS = new Map<string, Record<string, unknown>>();
function optionsFor(extra: Record<string, unknown>): Record<string, unknown> {
  const key = JSON.stringify(extra);
  let o = OPTIONS.get(key);
  if (!o) OPTIONS.set(key, (o = { ...BASE, ...extra }));
  return o;
}

async function parse(buf: Uint8Array, extra: Record<string, unknown>): Promise<Parsed | undefined> {
  const lib = await exifr();
  return (await lib.parse(buf, optionsFor(extra))) as Parsed | undefined;
}

export async function readExif(file: Buffer | Uint8Array): Promise<ExifSummary> {
  // A HEIF's EXIF is its Exif item's TIFF block, read as exiftool finds it (heif-boxes.ts): exifr
  // misses it in HEIFs written by libheif, and reads nothing else of a HEIF for this summary.
  const input = heifExifTiff(file) ?? file;
  const errors: string[] = [];
  let out: Parsed = {};
  try {
    out = (await parse(input, { silentErrors: true })) ?? {};
  } catch (e) {
    // Thrown even with silentErrors for an unknown container ("Unknown file format").
    errors.push(message(e));
  }
  for (const e of out.errors ?? []) errors.push(message(e));

  // One bad block can hide the others (a fuzzed IFD0 offset stops the whole TIFF walk): when
  // nothing came back, retry each block alone so what is intact still gets read.
  if (!out.ifd0 && !out.exif && !out.gps && errors.length > 0) {
    for (const block of ['ifd0', 'exif', 'gps'] as const) {
      const only = { ifd0: block === 'ifd0' ? {} : false, exif: block === 'exif', gps: block === 'gps', silentErrors: true };
      try {
        const r = await parse(input, only);
        if (r?.[block]) out[block] = r[block];
      } catch {
        /* already reported above */
      }
    }
  }

  const gps = readGps(out.gps, errors);
  // A GPS IFD whose tags exifr silently dropped (Nikon D1X: "Invalid TIFF value type"): ask again
  // without silentErrors only to learn why, so the user sees the GPS block is broken, not absent.
  let gpsBroken = false;
  if (out.gps && !gps) {
    try {
      await parse(input, { ifd0: false, exif: false, gps: true, silentErrors: false });
    } catch (e) {
      errors.push(message(e));
      gpsBroken = true;
    }
  }

  const ifd0 = out.ifd0 ?? {};
  const exif = out.exif ?? {};
  const summary: ExifSummary = { errors: [...new Set(errors)] };
  if (gps) summary.gps = gps;
  // Unreadable only when a position is recorded (or the GPS block breaks the parser): a GPS block
  // holding just GPSVersionID, as GIMP leaves one, records no position ("GPS none", as
  // geo inspect says, and the EXIF check's "stripped").
  else if (out.gps && (gpsBroken || Object.keys(out.gps).some((k) => /^GPS(Latitude|Longitude)/.test(k)))) summary.gpsUnreadable = true;
  const dto = text(exif.DateTimeOriginal);
  if (dto) summary.dateTimeOriginal = dto;
  // OffsetTimeOriginal belongs to DateTimeOriginal; OffsetTime (of ModifyDate) is the fallback.
  const original = text(exif.OffsetTimeOriginal);
  const offset = original ?? text(exif.OffsetTime);
  if (offset) {
    summary.offsetTime = offset;
    summary.offsetTimeTag = original ? 'OffsetTimeOriginal' : 'OffsetTime';
  }
  assign(summary, 'make', text(ifd0.Make));
  assign(summary, 'model', text(ifd0.Model));
  assign(summary, 'lens', text(exif.LensModel) ?? lensFromInfo(exif.LensInfo));
  assign(summary, 'software', text(ifd0.Software) ?? text(out.ihdr?.Software));
  return summary;
}

/** The GPS point only, for corroboration and the sandbox; a 0,0 placeholder counts as no point. */
export async function readExifGps(buf: Buffer | Uint8Array): Promise<{ lat: number; lng: number } | undefined> {
  const { gps } = await readExif(buf);
  if (!gps || gps.suspect) return undefined;
  return { lat: gps.lat, lng: gps.lng };
}

/** "Canon EOS R5", not "Canon Canon EOS R5": many cameras repeat the make in the model. '' when neither is written. */
export function cameraName(e: Pick<ExifSummary, 'make' | 'model'>): string {
  const model = e.model && e.make && e.model.startsWith(e.make) ? e.model.slice(e.make.length).trim() : e.model;
  return [e.make, model].filter(Boolean).join(' ');
}

function readGps(g: Block | undefined, errors: string[]): ExifGps | undefined {
  if (!g) return undefined;
  const lat = degrees(g.GPSLatitude, g.GPSLatitudeRef, 'S');
  const lng = degrees(g.GPSLongitude, g.GPSLongitudeRef, 'W');
  if (lat === undefined || lng === undefined) return undefined;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    errors.push(`GPS position out of range: ${lat},${lng}`);
    return undefined;
  }
  const gps: ExifGps = { lat, lng };
  const alt = num(g.GPSAltitude);
  // GPSAltitudeRef 1 means below sea level; exiftool -n prints it negative.
  if (alt !== undefined) gps.altitude = firstByte(g.GPSAltitudeRef) === 1 ? -alt : alt;
  const dir = num(g.GPSImgDirection);
  if (dir !== undefined) gps.direction = dir;
  if (lat === 0 && lng === 0) gps.suspect = 'zero';
  return gps;
}

/** [deg, min, sec] (any may be fractional) and a hemisphere ref -> signed decimal degrees. */
export function degrees(v: unknown, ref: unknown, negative: 'S' | 'W'): number | undefined {
  const parts = Array.isArray(v) ? v : typeof v === 'number' ? [v] : undefined;
  if (!parts || parts.length === 0 || !parts.every((p) => typeof p === 'number' && Number.isFinite(p))) return undefined;
  const [d = 0, m = 0, s = 0] = parts as number[];
  // Rounded to 1e-9 degrees (under a millimetre): drops the float noise of d + m/60 + s/3600
  // (-33.856784000000005) that would otherwise reach CSV and JSON output.
  const dd = Math.round((d + m / 60 + s / 3600) * 1e9) / 1e9;
  return String(ref ?? '').trim().toUpperCase().startsWith(negative) ? -dd : dd;
}

function num(v: unknown): number | undefined {
  const n = Array.isArray(v) ? v[0] : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

function firstByte(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object') return num((v as Record<number, unknown>)[0]);
  return undefined;
}

function text(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  // EXIF strings are NUL-padded fixed fields; some writers pad with spaces.
  const t = v.replace(/\0+$/g, '').trim();
  return t === '' ? undefined : t;
}

/** LensInfo (LensSpecification) [minFocal, maxFocal, minF, maxF] -> "17-35mm f/2.8". */
function lensFromInfo(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length < 4 || !v.every((x) => typeof x === 'number' && Number.isFinite(x) && x > 0)) return undefined;
  const [f1, f2, a1, a2] = (v as number[]).map((x) => Math.round(x * 100) / 100) as [number, number, number, number];
  return `${f1 === f2 ? f1 : `${f1}-${f2}`}mm f/${a1 === a2 ? a1 : `${a1}-${a2}`}`;
}

function assign<K extends 'make' | 'model' | 'lens' | 'software'>(s: ExifSummary, k: K, v: string | undefined): void {
  if (v !== undefined) s[k] = v;
}
