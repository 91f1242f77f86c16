/**
 * A stored video or photo set found by the name an analyst gives it, for `geo history
 * show` and `geo export`: the consensus drawn again from the stored answers of its frames
 * (scene-records.ts), offline and free, as locate showed it. A scene is named by the video file itself
 * (hashed, then found among the stored frames named after it) or by the batch id `geo history`
 * lists for it (a prefix of 6+ hex digits). Every read is indexed: the full-text index for a
 * file's name, the batches' primary key, and the time index from when the batch first ran
 * (store/scenes.ts).
 */
import { basename, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { sha256File } from '../files/read.js';
import { findStored } from '../store/find.js';
import type { StoreApi, StoredResult, Tag } from '../store/index.js';
import type { SceneJson } from './scene.js';
import { videoKindOf } from './sniff.js';
import { sceneKey, storedScene, videoOf } from './scene-records.js';

export interface StoredScene {
  scene: SceneJson;
  /** The stored answers it was drawn from, newest first. */
  results: StoredResult[];
  batch: string | null;
  sandbox: boolean;
  /** When its newest answer was stored. */
  storedAt: string;
}

/** Frames of one file's name looked at, at most, to find those of this video. */
const NAME_MATCHES = 1000;

/** A mark as the store reads it (the record's `video` / `set` field as JSON text), parsed; undefined when it cannot be. */
export function parsedTag(json: string | null): unknown {
  try {
    return json === null ? undefined : (JSON.parse(json) as unknown);
  } catch {
    return undefined;
  }
}
/** The scene a stored row belongs to (scene-records.ts sceneKey, by its batch), or undefined for a lone result. */
export const tagSceneKey = (t: Tag): string | undefined => sceneKey(t.batch, parsedTag(t.video_json), parsedTag(t.set_json));

/** The scene whose key `key` is, from its batch's rows (the newest scene of the batch when no key). */
async function sceneOfBatch(store: StoreApi, batch: string, agreeKm: number, key?: string): Promise<StoredScene | undefined> {
  const start = (await store.batchStarts([batch])).get(batch);
  if (start === undefined) return undefined;
  const rows = await store.sinceInBatch(batch, new Date(start).toISOString());
  const want = key ?? rows.map(tagSceneKey).find((k) => k !== undefined);
  if (want === undefined) return undefined;
  const mine = rows.filter((r) => tagSceneKey(r) === want);
  const results = new Map((await store.resultsByIds(mine.map((r) => r.id))).map((s) => [s.id, s]));
  const stored = mine.flatMap((r) => results.get(r.id) ?? []);
  if (stored.length === 0) return undefined;
  return { scene: storedScene(stored.map((s) => s.record), agreeKm), results: stored, batch, sandbox: stored.some((s) => s.sandbox), storedAt: mine[0]!.stored_at };
}

/** The newest stored frames of this video file, found by its name and checked by its sha256. */
async function sceneOfVideoFile(store: StoreApi, path: string, agreeKm: number, depth?: number): Promise<StoredScene> {
  const sha = await sha256File(path);
  const found = (await store.search(basename(path), NAME_MATCHES)).rows.filter((r) => depth === undefined || r.depth === depth);
  const tags = await store.tagsOf(found.map((r) => r.id));
  const hit = found.map((r) => tags.get(r.id)).find((t) => t && videoOf(parsedTag(t.video_json))?.sha256 === sha);
  const scene = hit?.batch ? await sceneOfBatch(store, hit.batch, agreeKm, sceneKey(hit.batch, parsedTag(hit.video_json), undefined)) : undefined;
  if (!scene) throw new UsageError(`no stored frame of ${path}${depth !== undefined ? ` at depth ${depth}` : ''} (sha256 ${sha.slice(0, 12)}…)`, `it was never located with this data folder (or under another name); geo locate ${path} locates it`);
  return scene;
}

/**
 * The video or set `ref` names, or undefined when it names none (then it is a lone result's ref):
 * a video file (its newest frames, at `depth` when given); with `batches`, a batch id prefix of a
 * batch holding a video or a set (asked only once no image's sha256 starts with the prefix).
 */
export async function findScene(store: StoreApi, ref: string, o: { agreeKm: number; depth?: number; batches?: boolean }): Promise<StoredScene | undefined> {
  const path = resolve(ref);
  if (await videoKindOf(path)) return sceneOfVideoFile(store, path, o.agreeKm, o.depth);
  if (!o.batches || !/^[0-9a-f]{6,24}$/i.test(ref)) return undefined;
  const batches = await store.findBatches(ref);
  if (batches.length > 1) throw new UsageError(`batch id prefix ${ref} matches several batches`, `use more digits: ${batches.map((b) => b.id.slice(0, 16)).join(', ')}`);
  return batches[0] ? sceneOfBatch(store, batches[0].id, o.agreeKm) : undefined;
}

/**
 * What REF names: a video file's scene first, then stored results (an image file, a sha256 prefix,
 * an analysis id: store/find.ts), then a batch holding a video or a set. Throws find.ts's
 * UsageError when it names nothing.
 */
export async function findResultsOrScene(store: StoreApi, ref: string, o: { agreeKm: number; depth?: number }): Promise<{ scene: StoredScene } | { results: StoredResult[] }> {
  const video = ref.trim() === '' ? undefined : await findScene(store, ref, o);
  if (video) return { scene: video };
  try {
    return { results: await findStored(store, ref, { files: true }) };
  } catch (err) {
    const scene = err instanceof UsageError ? await findScene(store, ref, { ...o, batches: true }) : undefined;
    if (scene) return { scene };
    throw err;
  }
}
