/**
 * `geo history show` of a video or a photo set (issue 23): the consensus drawn again from the
 * stored answers of its frames (media/stored.ts), offline and free, as locate showed it. A scene is
 * named by the video file itself (hashed, then found among the stored frames named after it) or by
 * the batch id `geo history` lists for it (a prefix of 6+ hex digits). Every read is indexed: the
 * full-text index for a file's name, the batches' primary key, and the time index from when the
 * batch first ran (store/scenes.ts).
 */
import { basename, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { sha256File } from '../../local/files.js';
import type { ProvenanceRecord } from '../../local/store-types.js';
import type { SceneJson } from '../../media/scene.js';
import { videoKindOf } from '../../media/sniff.js';
import { sceneKey, storedScene, videoOf } from '../../media/stored.js';
import type { Store, TaggedRow } from '../../store/index.js';

export interface StoredScene {
  scene: SceneJson;
  /** The records it was drawn from, newest first. */
  records: ProvenanceRecord[];
  batch: string | null;
  sandbox: boolean;
  /** When its newest answer was stored. */
  storedAt: string;
}

/** Frames of one file's name looked at, at most, to find those of this video. */
const NAME_MATCHES = 1000;

const parsed = (json: string | null): unknown => {
  try {
    return json === null ? undefined : (JSON.parse(json) as unknown);
  } catch {
    return undefined;
  }
};
const keyOf = (r: TaggedRow) => sceneKey(r.batch, parsed(r.video_json), parsed(r.set_json));

/** The scene whose key `key` is, from its batch's rows (the newest scene of the batch when no key). */
function sceneOfBatch(store: Store, batch: string, agreeKm: number, key?: string): StoredScene | undefined {
  const start = store.batchStarts([batch]).get(batch);
  if (start === undefined) return undefined;
  const rows = store.sinceInBatch(batch, new Date(start).toISOString());
  const want = key ?? rows.map(keyOf).find((k) => k !== undefined);
  if (want === undefined) return undefined;
  const mine = rows.filter((r) => keyOf(r) === want);
  const results = new Map(store.resultsByIds(mine.map((r) => r.id)).map((s) => [s.id, s]));
  const stored = mine.flatMap((r) => results.get(r.id) ?? []);
  if (stored.length === 0) return undefined;
  const records = stored.map((s) => s.record);
  return { scene: storedScene(records, agreeKm), records, batch, sandbox: stored.some((s) => s.sandbox), storedAt: mine[0]!.stored_at };
}

/** The newest stored frames of this video file, found by its name and checked by its sha256. */
async function sceneOfVideoFile(store: Store, path: string, agreeKm: number, depth?: number): Promise<StoredScene> {
  const sha = await sha256File(path);
  const found = store.search(basename(path), NAME_MATCHES).rows.filter((r) => depth === undefined || r.depth === depth);
  const tags = store.tagsOf(found.map((r) => r.id));
  const hit = found.map((r) => tags.get(r.id)).find((t) => t && videoOf(parsed(t.video_json))?.sha256 === sha);
  const scene = hit?.batch ? sceneOfBatch(store, hit.batch, agreeKm, sceneKey(hit.batch, parsed(hit.video_json), undefined)) : undefined;
  if (!scene) throw new UsageError(`no stored frame of ${path}${depth !== undefined ? ` at depth ${depth}` : ''} (sha256 ${sha.slice(0, 12)}…)`, `it was never located with this data folder (or under another name); geo locate ${path} locates it`);
  return scene;
}

/**
 * The video or set `ref` names, or undefined when it names none (then it is a lone result's ref):
 * a video file (its newest frames, at `depth` when given); with `batches`, a batch id prefix of a
 * batch holding a video or a set (asked only once no image's sha256 starts with the prefix).
 */
export async function findScene(store: Store, ref: string, o: { agreeKm: number; depth?: number; batches?: boolean }): Promise<StoredScene | undefined> {
  const path = resolve(ref);
  if (await videoKindOf(path)) return sceneOfVideoFile(store, path, o.agreeKm, o.depth);
  if (!o.batches || !/^[0-9a-f]{6,24}$/i.test(ref)) return undefined;
  const batches = store.findBatches(ref);
  if (batches.length > 1) throw new UsageError(`batch id prefix ${ref} matches several batches`, `use more digits: ${batches.map((b) => b.id.slice(0, 16)).join(', ')}`);
  return batches[0] ? sceneOfBatch(store, batches[0].id, o.agreeKm) : undefined;
}
