/**
 * `geo export` draws a video's frames and a set's photos as locate drew them: GeoJSON
 * and KML get each one's consensus point, spread circle, frame points and clusters
 * (output/export/scene-geo.ts) after the lone results; one video (or set) alone as HTML or KMZ is
 * its scene report or scene KMZ. CSV, JSON and NDJSON stay one row per answer, as locate writes them.
 *
 * The answers of one scene are those of one video (or set) at one depth from one service
 * (media/scene-records.ts recordSceneKey): records stream in any order, and results files carry no batch.
 * Lone results stream on; each frame is held cut down to what its scene needs (slimRecord, about a
 * kilobyte) until the records are exhausted, then each scene is drawn.
 */
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { isSimulated } from '../../evidence/simulated.js';
import { type VouchOptions, vouchedImage } from '../../image/vouched-image.js';
import { DEFAULT_AGREE_KM } from '../../media/options.js';
import type { SceneJson } from '../../media/scene.js';
import { recordSceneKey, slimRecord, storedScene } from '../../media/scene-records.js';
import type { ExportScene } from '../../output/export/stream.js';

export class SceneSplit {
  private readonly groups = new Map<string, ProvenanceRecord[]>();

  /** The records that are no frame of a video or photo of a set; the others are kept for scenes(). */
  async *lone(records: Iterable<ProvenanceRecord> | AsyncIterable<ProvenanceRecord>): AsyncGenerator<ProvenanceRecord> {
    for await (const r of records) {
      const key = recordSceneKey(r);
      if (key === undefined) {
        yield r;
        continue;
      }
      const group = this.groups.get(key);
      if (group) group.push(slimRecord(r));
      else this.groups.set(key, [slimRecord(r)]);
    }
  }

  get size(): number {
    return this.groups.size;
  }

  /** Each video's or set's scene, once lone() has been read to its end. */
  *scenes(): Generator<ExportScene> {
    for (const records of this.groups.values()) yield { scene: sceneOf(records), sandbox: records.some(isSimulated) };
  }
}

/** The scene of one video's (or set's) records, in any order: the newest answer of each frame counts. */
export function sceneOf(records: readonly ProvenanceRecord[]): SceneJson {
  const newest = [...records].sort((a, b) => (a.stored_at < b.stored_at ? 1 : a.stored_at > b.stored_at ? -1 : 0));
  return storedScene(newest, DEFAULT_AGREE_KM);
}

/** The one video or set these records all belong to, or undefined (lone results, or several scenes). */
export function onlyScene(records: readonly ProvenanceRecord[]): SceneJson | undefined {
  const keys = new Set(records.map(recordSceneKey));
  return keys.size === 1 && !keys.has(undefined) ? sceneOf(records) : undefined;
}

/** Frame index -> the image it shows: a set's photos when their files still hash to the record; a video's frames are not kept. */
export async function sceneImages(s: SceneJson, o: Pick<VouchOptions, 'confine'> = {}): Promise<Map<number, Uint8Array>> {
  const out = new Map<number, Uint8Array>();
  if (s.kind !== 'set') return out;
  for (const f of s.frames) {
    const img = await vouchedImage({ path: f.input, sha256: f.sha256 ?? '' }, o);
    if ('imageBytes' in img) out.set(f.index, img.imageBytes);
  }
  return out;
}
