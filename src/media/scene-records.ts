/**
 * A video's frames or a set's photos read back from the store or a results file, made
 * into the scene `geo locate` printed: `geo history` lists a video as one entry, `geo history show`
 * and `geo export` draw its consensus again, offline, from the stored answers alone.
 *
 * The answers of one scene are those of one batch (the command that sent them) carrying the same
 * video sha256, or the same set id: a rerun of that command with other frame flags adds frames to
 * it, a --fresh rerun answers the same frames again (the newest answer of each frame counts), and
 * the same clip located at another depth is another batch, so another scene. Each frame keeps its
 * index, time, why it was taken and the stretches of the clip it stands for (the record's `video`
 * field), so the consensus, time ranges included, is the one locate gave. Records written before
 * geo kept those stretches stand each for the time up to the next stored frame.
 */
import type { BatchRecord } from '../batch/types.js';
import { type ProvenanceRecord, type SetOrigin, type VideoOrigin, isResultBody } from '../evidence/record-types.js';
import { type SceneJson, type SceneMember, buildScene } from './scene.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The record's `video` field when it has the shape geo writes (records are data anyone can edit). */
export function videoOf(v: unknown): VideoOrigin | undefined {
  return isObject(v) && typeof v.sha256 === 'string' && typeof v.path === 'string' && Number.isFinite(v.t_ms) && Number.isFinite(v.index) ? (v as unknown as VideoOrigin) : undefined;
}

export function setOf(v: unknown): SetOrigin | undefined {
  return isObject(v) && typeof v.id === 'string' && Number.isFinite(v.index) && Number.isFinite(v.size) ? (v as unknown as SetOrigin) : undefined;
}

/**
 * Which scene an answer belongs to (`video:<run>:<sha256>`, `set:<run>:<id>`), or undefined for a
 * lone image. `run` tells apart runs of the same video: in the store, the batch that sent it.
 */
export function sceneKey(run: string | null, video: unknown, set: unknown): string | undefined {
  const v = videoOf(video);
  if (v) return `video:${run ?? ''}:${v.sha256}`;
  const s = setOf(set);
  return s ? `set:${run ?? ''}:${s.id}` : undefined;
}

/**
 * The scene of a record read without its batch (geo export streams records, and results files
 * carry none): the same video (or set) located at the same depth by the same service.
 */
export const recordSceneKey = (r: ProvenanceRecord): string | undefined => sceneKey(`${depthOf(r)}@${r.cli?.base_url ?? ''}`, r.video, r.set);

/**
 * A record cut down to what its scene needs (about a kilobyte): where, how sure, the place's words
 * and the depth-3 candidates' points, with the frame's origin. geo export holds the frames of
 * every video this way until its lone results have streamed out.
 */
export function slimRecord(r: ProvenanceRecord): ProvenanceRecord {
  const b = r.unusable === undefined && isResultBody(r.response?.body) ? r.response.body : undefined;
  const body = b && {
    location: { latitude: b.location.latitude, longitude: b.location.longitude, neighborhood: b.location.neighborhood, city: b.location.city, country: b.location.country },
    confidence: b.confidence, depth: b.depth,
    ...(b.forensic?.candidates ? { forensic: { candidates: b.forensic.candidates.map((c) => ({ lat: c?.lat, lng: c?.lng, confidence: c?.confidence })) } } : {}),
  };
  return {
    schema: r.schema, stored_at: r.stored_at, origin: r.origin, input: r.input, request: { depth: depthOf(r) }, response: { body: body as ProvenanceRecord['response']['body'] },
    ...(body ? {} : { unusable: r.unusable ?? 'no usable location' }), ...(r.video ? { video: r.video } : {}), ...(r.set ? { set: r.set } : {}), ...(r.sandbox ? { sandbox: true } : {}),
  };
}

/** `clip.mp4#t=4.000` (video.ts frameName) -> `clip.mp4`. */
export const videoInput = (frameInput: string): string => frameInput.replace(/#t=\d+(\.\d+)?$/, '');

function batchRecord(r: ProvenanceRecord): BatchRecord {
  const body = r.response?.body;
  const ok = r.unusable === undefined && isResultBody(body);
  return {
    input: r.input.path, sha256: r.input.sha256 || null, ok,
    ...(ok ? { result: body } : { error: { code: 'unusable', message: r.unusable ?? 'the stored answer has no usable location' } }),
    exif: r.exif ?? null,
  };
}

/**
 * The answers of one scene that count, from newest first: the newest of each frame (by its time)
 * or photo (by its sha256), in time (set) order.
 */
export function newestPerFrame<T>(items: readonly T[], rec: (t: T) => ProvenanceRecord): T[] {
  const seen = new Set<string>();
  const kept = items.filter((t) => {
    const r = rec(t);
    const v = videoOf(r.video);
    const k = v ? `t${v.t_ms}` : r.input.sha256 || r.input.path;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const order = (t: T) => videoOf(rec(t).video)?.t_ms ?? setOf(rec(t).set)?.index ?? 0;
  return kept.sort((a, b) => order(a) - order(b));
}

/** Scene members of records newestPerFrame kept, numbered from 0. */
export function membersOf(kept: readonly ProvenanceRecord[]): SceneMember[] {
  return kept.map((r, index) => {
    const v = videoOf(r.video);
    if (!v) return { index, input: r.input.path, record: batchRecord(r) };
    const after = videoOf(kept[index + 1]?.video);
    const next = after ? after.t_ms : Math.max(v.duration_ms ?? v.t_ms, v.t_ms);
    const spans = Array.isArray(v.spans_ms) ? v.spans_ms : [[v.t_ms, next] as [number, number]];
    return { index, input: r.input.path, record: batchRecord(r), tMs: v.t_ms, ...(v.why ? { why: v.why } : {}), spans };
  });
}

export function depthOf(r: ProvenanceRecord): number {
  const d = (r.response?.body as { depth?: unknown } | undefined)?.depth ?? r.request?.depth;
  return typeof d === 'number' ? d : 1;
}

/** The scene of one video's frames or one set's photos (records of one sceneKey, newest first). */
export function storedScene(records: readonly ProvenanceRecord[], agreeKm: number): SceneJson {
  const first = records[0]!;
  const v = videoOf(first.video);
  const duration = Math.max(0, ...records.map((r) => videoOf(r.video)?.duration_ms ?? 0));
  return buildScene({
    kind: v ? 'video' : 'set', input: v ? videoInput(first.input.path) : (setOf(first.set)?.id ?? 'set'),
    ...(v ? { sha256: v.sha256 } : {}), ...(v && duration > 0 ? { durationMs: duration } : {}),
    depth: depthOf(first), agreeKm, members: membersOf(newestPerFrame(records, (r) => r)),
  });
}
