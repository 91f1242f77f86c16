/**
 * Ground truth for `geo eval` and the sandbox's model of known skill: where each image
 * really was. Two sources:
 * - a truth file (`--truth FILE`): CSV `file,lat,lng` (header optional, RFC 4180 quoting), or
 *   GeoJSON, a FeatureCollection of Points with a `file` property (coordinates are lng,lat as
 *   RFC 7946 says). Paths are relative to the truth file's folder; an image is found by its
 *   absolute path, else by its file name when exactly one row has that name. A row may name a
 *   video, or a folder holding a set of photos of one scene (geo eval --together), and
 *   the header may call the column video, folder or set;
 * - the image's own EXIF GPS, read here, locally (it never leaves the machine: geo strips
 *   metadata before upload). A 0,0 placeholder is no truth (readExifGps).
 * A plain module: no CLI, no output; a bad row is a UsageError naming its line or feature.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { readExifGps } from '../image/exif.js';
import { readForExif } from '../files/read.js';
import { splitCsvLine } from '../files/csv-line.js';

export { splitCsvLine };

export interface TruthPoint {
  lat: number;
  lng: number;
}

export interface TruthEntry extends TruthPoint {
  /** Absolute path (resolved against the truth file's folder). */
  path: string;
  /** Where it was written: "line 3" or "feature 2", for messages. */
  where: string;
}

export interface Truth {
  /** The truth file, absolute. */
  file: string;
  entries: readonly TruthEntry[];
  /** The entry for this image: its absolute path first, else its file name when that is unambiguous. */
  lookup(path: string): TruthEntry | undefined;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function coordinate(raw: string, what: 'latitude' | 'longitude', max: number, where: string, file: string): number {
  const s = raw.trim();
  const n = NUMBER.test(s) ? Number(s) : Number.NaN;
  if (!(Math.abs(n) <= max)) throw new UsageError(`--truth ${file} ${where}: ${what} "${raw}" is not a number from -${max} to ${max}`, 'rows are file,lat,lng in decimal degrees, e.g. photos/a.jpg,48.8584,2.2945');
  return n;
}

const HEADER_NAMES = { file: ['file', 'path', 'filename', 'image', 'video', 'folder', 'set'], lat: ['lat', 'latitude'], lng: ['lng', 'lon', 'long', 'longitude'] } as const;

/** Column positions from a header row, or undefined when the row is data. */
function headerColumns(fields: string[]): { file: number; lat: number; lng: number } | undefined {
  const names = fields.map((f) => f.trim().toLowerCase());
  if (names.length >= 2 && NUMBER.test(names[1]!.trim())) return undefined;
  const at = (k: keyof typeof HEADER_NAMES) => names.findIndex((n) => (HEADER_NAMES[k] as readonly string[]).includes(n));
  const cols = { file: at('file'), lat: at('lat'), lng: at('lng') };
  return cols.file >= 0 && cols.lat >= 0 && cols.lng >= 0 ? cols : undefined;
}

function parseCsv(text: string, file: string, folder: string): TruthEntry[] {
  const out: TruthEntry[] = [];
  let cols = { file: 0, lat: 1, lng: 2 };
  let first = true;
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((line, i) => {
    const where = `line ${i + 1}`;
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const fields = splitCsvLine(line);
    if (!fields) throw new UsageError(`--truth ${file} ${where}: an unclosed or misplaced double quote`, 'quote a field whole: "my photo.jpg",48.85,2.29');
    if (first) {
      first = false;
      const header = headerColumns(fields);
      if (header) return void (cols = header);
      if (fields.length >= 2 && !NUMBER.test(fields[1]!.trim())) throw new UsageError(`--truth ${file} ${where}: neither a header (file,lat,lng) nor a row of file,lat,lng`, 'the first line may be the header file,lat,lng');
    }
    const need = Math.max(cols.file, cols.lat, cols.lng) + 1;
    if (fields.length < need) throw new UsageError(`--truth ${file} ${where}: ${fields.length} field${fields.length === 1 ? '' : 's'}, expected file,lat,lng`);
    const name = fields[cols.file]!;
    if (name === '') throw new UsageError(`--truth ${file} ${where}: the file name is empty`);
    out.push({ path: resolve(folder, name), lat: coordinate(fields[cols.lat]!, 'latitude', 90, where, file), lng: coordinate(fields[cols.lng]!, 'longitude', 180, where, file), where });
  });
  return out;
}

function parseGeoJson(text: string, file: string, folder: string): TruthEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(`--truth ${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`, 'a GeoJSON FeatureCollection of Points with a "file" property, or CSV file,lat,lng');
  }
  const features = (doc as { type?: unknown; features?: unknown }).type === 'FeatureCollection' ? (doc as { features?: unknown }).features : undefined;
  if (!Array.isArray(features)) throw new UsageError(`--truth ${file}: not a GeoJSON FeatureCollection`, 'a FeatureCollection of Points, each with a "file" property');
  return features.map((f: unknown, i): TruthEntry => {
    const where = `feature ${i + 1}`;
    const g = (f as { geometry?: { type?: unknown; coordinates?: unknown } } | null)?.geometry;
    const name = (f as { properties?: { file?: unknown } } | null)?.properties?.file;
    if (typeof name !== 'string' || name.trim() === '') throw new UsageError(`--truth ${file} ${where}: no "file" property naming the image`);
    const c = g?.type === 'Point' && Array.isArray(g.coordinates) ? g.coordinates : undefined;
    if (!c || typeof c[0] !== 'number' || typeof c[1] !== 'number') throw new UsageError(`--truth ${file} ${where}: the geometry is not a Point [lng, lat]`);
    // RFC 7946: longitude first.
    return { path: resolve(folder, name), lng: coordinate(String(c[0]), 'longitude', 180, where, file), lat: coordinate(String(c[1]), 'latitude', 90, where, file), where };
  });
}

/** Truth from entries: two rows for one image must agree, or the evaluation would depend on the order. */
export function truthOf(file: string, entries: TruthEntry[]): Truth {
  const byPath = new Map<string, TruthEntry>();
  const byName = new Map<string, TruthEntry[]>();
  for (const e of entries) {
    const prior = byPath.get(e.path);
    if (prior && (prior.lat !== e.lat || prior.lng !== e.lng)) throw new UsageError(`--truth ${file} ${e.where}: ${basename(e.path)} already has another position (${prior.where})`);
    byPath.set(e.path, e);
    const name = basename(e.path);
    byName.set(name, [...(byName.get(name) ?? []).filter((o) => o.path !== e.path), e]);
  }
  return {
    file,
    entries,
    lookup(path) {
      const abs = resolve(path);
      const hit = byPath.get(abs);
      if (hit) return hit;
      const named = byName.get(basename(abs));
      return named?.length === 1 ? named[0] : undefined;
    },
  };
}

/** Reads --truth FILE (relative to `cwd`): GeoJSON by extension (.geojson, .json) or content, else CSV. */
export async function readTruthFile(path: string, cwd = '.'): Promise<Truth> {
  const abs = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (err) {
    throw new UsageError(`--truth ${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const folder = dirname(abs);
  const ext = extname(abs).toLowerCase();
  const json = ext === '.geojson' || ext === '.json' || text.trimStart().startsWith('{');
  const entries = json ? parseGeoJson(text, path, folder) : parseCsv(text, path, folder);
  if (entries.length === 0) throw new UsageError(`--truth ${path}: no positions in it`, 'CSV rows file,lat,lng, or GeoJSON Points with a "file" property');
  return truthOf(abs, entries);
}

/** The image's own EXIF GPS as truth (read locally; a 0,0 placeholder or no GPS is none). */
export async function exifTruth(path: string): Promise<TruthPoint | undefined> {
  try {
    return await readExifGps(await readForExif(path));
  } catch {
    return undefined;
  }
}
