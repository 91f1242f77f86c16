/**
 * The text export formats as a stream of chunks, one result at a time, so `geo export --all`
 * over a store of a million results holds one record in memory, not a million. The
 * chunks joined are byte for byte what the whole-array renderers give (renderExport joins them).
 */
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { isSimulated } from '../../evidence/simulated.js';
import { sanitizeJsonText } from '../sanitize.js';
import { CSV_COLUMNS, csvRecordRow, csvRow } from './csv.js';
import { featuresOf } from './geojson.js';
import { KML_TAIL, kmlFolder, kmlHead } from './kml.js';
import { toItem } from './model.js';
import type { SceneJson } from '../../media/scene.js';
import { sceneGeoJSON, sceneKmlDocument } from './scene-geo.js';
import { type ExportCase, caseFeatures, caseKmlDocument } from './case-geo.js';

export type StreamFormat = 'geojson' | 'kml' | 'csv' | 'json' | 'ndjson';

/** JSON.stringify(v, null, 2) as it reads nested `depth` levels deep in an indented array. */
function nested(v: unknown, depth: number): string {
  const pad = ' '.repeat(depth * 2);
  return pad + JSON.stringify(v, null, 2).replace(/\n/g, `\n${pad}`);
}

/**
 * A pretty-printed JSON array written item by item, as JSON.stringify(array, null, 2) lays it out at
 * `depth`: push-style, so the same text comes whether records arrive from an array or a store's
 * asynchronous stream.
 */
class JsonArray {
  private first = true;
  constructor(private readonly depth: number, private readonly close: string) {}
  item(v: unknown): string {
    const s = `${this.first ? '\n' : ',\n'}${nested(v, this.depth)}`;
    this.first = false;
    return s;
  }
  end(): string {
    return this.first ? `]${this.close}` : `\n${' '.repeat((this.depth - 1) * 2)}]${this.close}`;
  }
}

/** A video's or a set's consensus among the results of an export; `sandbox`: simulated answers. */
export interface ExportScene {
  scene: SceneJson;
  sandbox: boolean;
}

/** A scene's GeoJSON features, marked as the lone results' are when a sandbox answered. */
function sceneFeatures(e: ExportScene): unknown[] {
  return sceneGeoJSON(e.scene, e.sandbox).features;
}

/** One format's text, fed one record at a time: its head, each record's chunk, the scenes, the case's investigation, its tail. */
interface ExportWriter {
  head: string;
  record(r: ProvenanceRecord): string;
  scene(e: ExportScene): string;
  investigation?(c: ExportCase): string;
  tail(): string;
}

function exportWriter(format: StreamFormat): ExportWriter {
  if (format === 'csv') return { head: csvRow(CSV_COLUMNS), record: csvRecordRow, scene: () => '', tail: () => '' };
  if (format === 'ndjson') {
    // locate's own line; a sandbox's answer adds `sandbox: true`, which geo export reads back (records-ndjson.ts).
    const record = (r: ProvenanceRecord) => sanitizeJsonText(JSON.stringify({ input: r.input.path, sha256: r.input.sha256, ok: true, result: r.response.body, exif: r.exif ?? null, ...(isSimulated(r) ? { sandbox: true } : {}) })) + '\n';
    return { head: '', record, scene: () => '', tail: () => '' };
  }
  if (format === 'kml') {
    let first = true;
    let n = 0;
    const next = (text: string) => {
      const s = (first ? '' : '\n') + text;
      first = false;
      return s;
    };
    const investigation = (c: ExportCase) => {
      const doc = caseKmlDocument(c.geometry, c.title);
      return doc ? next(doc) : '';
    };
    return { head: kmlHead(), record: (r) => next(kmlFolder(r)), scene: (e) => next(sceneKmlDocument(e.scene, `scene${++n}-`, e.sandbox)), investigation, tail: () => KML_TAIL };
  }
  if (format === 'json') {
    const a = new JsonArray(1, '\n');
    return { head: '[', record: (r) => sanitizeJsonText(a.item(r)), scene: () => '', tail: () => sanitizeJsonText(a.end()) };
  }
  const a = new JsonArray(2, '\n}\n');
  const items = (features: unknown[]) => features.map((f) => sanitizeJsonText(a.item(f))).join('');
  return {
    head: '{\n  "type": "FeatureCollection",\n  "features": [', record: (r) => items(featuresOf(toItem(r))), scene: (e) => items(sceneFeatures(e)),
    investigation: (c) => items(caseFeatures(c.geometry)), tail: () => sanitizeJsonText(a.end()),
  };
}

/**
 * `scenes` (geojson and kml): videos and sets drawn after the lone results, asked for only once
 * `records` is exhausted (geo export gathers their frames while the records stream past);
 * `kase`: a case's investigation, drawn last (the other formats have no place for it).
 */
export function* streamExport(format: StreamFormat, records: Iterable<ProvenanceRecord>, scenes: () => Iterable<ExportScene> = () => [], kase?: ExportCase): Generator<string> {
  const w = exportWriter(format);
  yield w.head;
  for (const r of records) yield w.record(r);
  for (const e of scenes()) yield w.scene(e);
  if (kase && w.investigation) yield w.investigation(kase);
  yield w.tail();
}

/** streamExport() over records that arrive asynchronously (a store's stream: geo export --all). */
export async function* streamExportAsync(
  format: StreamFormat, records: AsyncIterable<ProvenanceRecord> | Iterable<ProvenanceRecord>, scenes: () => Iterable<ExportScene> = () => [], kase?: ExportCase,
): AsyncGenerator<string> {
  const w = exportWriter(format);
  yield w.head;
  for await (const r of records) yield w.record(r);
  for (const e of scenes()) yield w.scene(e);
  if (kase && w.investigation) yield w.investigation(kase);
  yield w.tail();
}
