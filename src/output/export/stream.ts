/**
 * The text export formats as a stream of chunks, one result at a time, so `geo export --all`
 * over a store of a million results holds one record in memory, not a million (issue 19). The
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

export type StreamFormat = 'geojson' | 'kml' | 'csv' | 'json' | 'ndjson';

/** JSON.stringify(v, null, 2) as it reads nested `depth` levels deep in an indented array. */
function nested(v: unknown, depth: number): string {
  const pad = ' '.repeat(depth * 2);
  return pad + JSON.stringify(v, null, 2).replace(/\n/g, `\n${pad}`);
}

/** Items of a pretty-printed JSON array, as JSON.stringify(array, null, 2) lays them out at `depth`. */
function* jsonArray(items: Iterable<unknown>, depth: number, close: string): Generator<string> {
  let first = true;
  for (const item of items) {
    yield `${first ? '\n' : ',\n'}${nested(item, depth)}`;
    first = false;
  }
  yield first ? `]${close}` : `\n${' '.repeat((depth - 1) * 2)}]${close}`;
}

function* flatMap<T, U>(it: Iterable<T>, fn: (t: T) => Iterable<U>): Generator<U> {
  for (const t of it) yield* fn(t);
}

/** A video's or a set's consensus among the results of an export (issue 23); `sandbox`: simulated answers. */
export interface ExportScene {
  scene: SceneJson;
  sandbox: boolean;
}

function* after<T>(first: Iterable<T>, then: () => Iterable<T>): Generator<T> {
  yield* first;
  yield* then();
}

/** A scene's GeoJSON features, marked as the lone results' are when a sandbox answered. */
function sceneFeatures(e: ExportScene): unknown[] {
  return sceneGeoJSON(e.scene, e.sandbox).features;
}

/**
 * `scenes` (geojson and kml): videos and sets drawn after the lone results, asked for only once
 * `records` is exhausted (geo export gathers their frames while the records stream past).
 */
export function* streamExport(format: StreamFormat, records: Iterable<ProvenanceRecord>, scenes: () => Iterable<ExportScene> = () => []): Generator<string> {
  if (format === 'csv') {
    yield csvRow(CSV_COLUMNS);
    for (const r of records) yield csvRecordRow(r);
  } else if (format === 'ndjson') {
    // locate's own line; a sandbox's answer adds `sandbox: true`, which geo export reads back (records-ndjson.ts).
    for (const r of records) yield sanitizeJsonText(JSON.stringify({ input: r.input.path, sha256: r.input.sha256, ok: true, result: r.response.body, exif: r.exif ?? null, ...(isSimulated(r) ? { sandbox: true } : {}) })) + '\n';
  } else if (format === 'kml') {
    yield kmlHead();
    let first = true;
    for (const r of records) {
      yield (first ? '' : '\n') + kmlFolder(r);
      first = false;
    }
    let n = 0;
    for (const e of scenes()) {
      yield (first ? '' : '\n') + sceneKmlDocument(e.scene, `scene${++n}-`, e.sandbox);
      first = false;
    }
    yield KML_TAIL;
  } else if (format === 'json') {
    yield '[';
    for (const chunk of jsonArray(records, 1, '\n')) yield sanitizeJsonText(chunk);
  } else {
    yield '{\n  "type": "FeatureCollection",\n  "features": [';
    const features = after(flatMap(records, (r) => featuresOf(toItem(r))), () => flatMap(scenes(), sceneFeatures));
    for (const chunk of jsonArray(features, 2, '\n}\n')) yield sanitizeJsonText(chunk);
  }
}
