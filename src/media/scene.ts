/**
 * The answer for a video or a photo set, as one documented object: `geo locate clip.mp4
 * --json` prints it, the terminal view, the exports, the report, geo eval and the MCP tool read it.
 *
 *   kind        "video" | "set"
 *   input       the video as named (for a set: its id, set-<16 hex>)
 *   sha256      the video's sha256 (absent for a set)
 *   duration_s  the clip's length (video only)
 *   frame_choice  { every_s, scene, max_frames, candidates, sent } (video only)
 *   depth, agree_km
 *   answered, failed   frames with a location; frames whose request failed
 *   consensus   the first cluster, or null when no frame was answered
 *   tied        true when the next cluster has as much support and as many frames: the ranking
 *               between them is only the order in time, and both places deserve a look
 *   clusters    every cluster, ranked: { rank, lat, lng, place, agree, of, support, spread_km,
 *               frames, voters, time_ranges: [{ from_s, to_s }] }
 *   frames      per frame (per photo): { index, input, t_s, why, sha256, ok, cluster, result | error, exif }
 *   dropped     frames not sent: { t_s, why: "duplicate" | "cap", of }
 * `agree` of `of`: frames whose own estimate lies in the cluster, of the frames answered. `support`:
 * the cluster's share of the votes, in frames (candidates are weaker votes; consensus.ts).
 */
import type { BatchRecord } from '../batch/types.js';
import { formatPlace, reverseGeocode } from '../places/geocode.js';
import { asResultBody } from '../evidence/record-types.js';
import type { Dropped, Why } from './choose.js';
import { type Answer, type Cluster, consensus } from './consensus.js';

export interface SceneMember {
  index: number;
  input: string;
  record?: BatchRecord;
  tMs?: number;
  why?: Why;
  spans?: Array<[number, number]>;
}

export interface SceneInput {
  kind: 'video' | 'set';
  input: string;
  sha256?: string;
  durationMs?: number;
  choice?: { everyS: number; scene: number; maxFrames: number; candidates: number };
  depth: number;
  agreeKm: number;
  members: SceneMember[];
  dropped?: Dropped[];
}

export interface ClusterJson {
  rank: number;
  lat: number;
  lng: number;
  place: string;
  agree: number;
  of: number;
  support: number;
  spread_km: number;
  frames: number[];
  voters: number[];
  time_ranges: Array<{ from_s: number; to_s: number }>;
}

export interface FrameJson {
  index: number;
  input: string;
  t_s?: number;
  why?: Why;
  sha256: string | null;
  ok: boolean;
  cluster: number | null;
  result?: unknown;
  error?: BatchRecord['error'];
  exif?: unknown;
}

export interface SceneJson {
  kind: 'video' | 'set';
  input: string;
  sha256?: string;
  duration_s?: number;
  frame_choice?: { every_s: number; scene: number; max_frames: number; candidates: number; sent: number };
  depth: number;
  agree_km: number;
  answered: number;
  failed: number;
  consensus: ClusterJson | null;
  tied: boolean;
  clusters: ClusterJson[];
  frames: FrameJson[];
  dropped: Array<{ t_s: number; why: 'duplicate' | 'cap'; of?: number }>;
}

const seconds = (ms: number) => Math.round(ms) / 1000;
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** The votes of one answered record: its estimate and, at depth 3, its candidates. */
export function answerOf(m: SceneMember): Answer | undefined {
  const body = m.record?.ok ? asResultBody(m.record.result) : undefined;
  if (!body) return undefined;
  const cands = (body.forensic?.candidates ?? []).filter((c) => Number.isFinite(c?.lat) && Number.isFinite(c?.lng) && Math.abs(c.lat) <= 90 && Math.abs(c.lng) <= 180);
  return {
    index: m.index, lead: { lat: body.location.latitude, lng: body.location.longitude },
    candidates: cands.map((c) => ({ lat: c.lat, lng: c.lng, ...(typeof c.confidence === 'number' ? { confidence: c.confidence } : {}) })),
    ...(m.spans ? { spans: m.spans } : {}),
  };
}

/** A cluster's figures as every output gives them (rounded), without its place name. */
export function clusterNumbers(c: Cluster, rank: number, n: number): Omit<ClusterJson, 'place'> {
  return {
    rank, lat: round(c.lat, 6), lng: round(c.lng, 6), agree: c.frames.length, of: n,
    support: round(c.support, 3), spread_km: round(c.spreadKm, 2), frames: c.frames, voters: c.voters,
    time_ranges: c.timeRanges.map(([a, b]) => ({ from_s: seconds(a), to_s: seconds(b) })),
  };
}

function clusterJson(c: Cluster, rank: number, n: number): ClusterJson {
  const { rank: r, lat, lng, ...rest } = clusterNumbers(c, rank, n);
  return { rank: r, lat, lng, place: formatPlace(reverseGeocode(c.lat, c.lng)), ...rest };
}

function tiedAtTop(c: readonly ClusterJson[]): boolean {
  return c.length > 1 && c[0]!.support === c[1]!.support && c[0]!.agree === c[1]!.agree;
}

export function buildScene(s: SceneInput): SceneJson {
  const answers = s.members.flatMap((m) => answerOf(m) ?? []);
  const c = consensus(answers, s.agreeKm);
  const clusters = c.clusters.map((k, i) => clusterJson(k, i + 1, c.n));
  const rankOf = (index: number) => clusters.find((k) => k.frames.includes(index))?.rank ?? null;
  const frames: FrameJson[] = s.members.map((m) => ({
    index: m.index, input: m.input, ...(m.tMs !== undefined ? { t_s: seconds(m.tMs) } : {}), ...(m.why ? { why: m.why } : {}),
    sha256: m.record?.sha256 ?? null, ok: Boolean(m.record?.ok), cluster: rankOf(m.index),
    ...(m.record?.ok ? { result: m.record.result } : { error: m.record?.error ?? { code: 'not_sent', message: 'no answer' } }),
    ...(m.record && m.record.exif !== null ? { exif: m.record.exif } : {}),
  }));
  return {
    kind: s.kind, input: s.input, ...(s.sha256 ? { sha256: s.sha256 } : {}), ...(s.durationMs !== undefined ? { duration_s: seconds(s.durationMs) } : {}),
    ...(s.choice ? { frame_choice: { every_s: s.choice.everyS, scene: s.choice.scene, max_frames: s.choice.maxFrames, candidates: s.choice.candidates, sent: s.members.length } } : {}),
    depth: s.depth, agree_km: s.agreeKm, answered: c.n, failed: s.members.length - c.n,
    consensus: clusters[0] ?? null, tied: tiedAtTop(clusters), clusters, frames,
    dropped: (s.dropped ?? []).map((d) => ({ t_s: seconds(d.tMs), why: d.why, ...(d.of !== undefined ? { of: d.of } : {}) })),
  };
}
