/**
 * geo history with videos and photo sets (issue 23): a video located with geo locate is one entry
 * with its frames, photos located --together one entry with its photos, and geo history show draws
 * their consensus again from the stored answers, exactly as locate printed it, offline (nothing is
 * sent, no key). The sandbox answers each frame from the scene marker in its pixels
 * (locate-video.test.ts works those answers out by hand); here they are compared with locate's own.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRecord } from '../../src/evidence/records.js';
import type { SceneJson } from '../../src/media/scene.js';
import { CLIPS, FFMPEG, ffmpegTitle } from '../helpers/ffmpeg.js';
import { runCli } from '../helpers/run-cli.js';
import { withSandbox } from '../helpers/sandbox.js';
import { openStore } from '../helpers/store.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const TWO = join(CLIPS, 'two-places.mp4');
const ONE = join(CLIPS, 'one-place.mp4');

interface Entry {
  kind: string;
  input: string;
  sha256: string;
  latitude: number | null;
  longitude: number | null;
  confidence: number | null;
  agree: number | null;
  of: number | null;
  spread_km: number | null;
  batch: string | null;
  frames: Array<{ index: number; t_s: number | null; cluster: number | null; input: string; analysis_id: string }> | null;
}

/** What a stored scene can say again: everything but how frames were chosen (not stored) and those not sent. */
const again = (s: SceneJson) => {
  const { frame_choice: _c, dropped: _d, ...rest } = s;
  return { ...rest, dropped: [] };
};

describe.skipIf(!FFMPEG)(ffmpegTitle('geo history: a video and a photo set are one entry each'), () => {
  const dirs = { GEO_DATA_DIR: tmp('geo-data-'), GEO_STATE_DIR: tmp('geo-state-') };
  const offline = (argv: string[]) => runCli(argv, { env: dirs });
  const photos = tmp('geo-photos-');
  let video: { stdout: string; view: string };
  let set: SceneJson;

  beforeAll(async () => {
    const locate = (argv: string[]) => runner(sb)(['locate', ...argv], { env: dirs });
    // Three stills of the one-place take (variants 0, 1, 2), as locate-video.test.ts makes them.
    for (const [i, t] of [0.5, 1.5, 2.5].entries()) execFileSync('ffmpeg', ['-loglevel', 'error', '-ss', String(t), '-i', ONE, '-frames:v', '1', '-q:v', '3', join(photos, `photo-${i}.jpg`)]);
    expect((await locate([`${IMG}paris.jpg`])).code).toBe(0);
    const json = await locate([TWO, '--every', '2', '--json']);
    expect(json.code, json.stderr).toBe(0);
    video = { stdout: json.stdout, view: (await locate([TWO, '--every', '2'])).stdout };
    const together = await locate([0, 1, 2].map((i) => join(photos, `photo-${i}.jpg`)).concat(['--together', '--json']));
    expect(together.code, together.stderr).toBe(0);
    set = JSON.parse(together.stdout) as SceneJson;
    expect((await locate([`${IMG}tokyo.jpg`])).code).toBe(0);
  });

  it('lists the video as one entry (its 4 frames, 2/4 agree, the batch id) and the set as one (3 photos), between the lone photos', async () => {
    const before = footprint(sb);
    const r = await offline(['history']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/tokyo\.jpg .* 0\.\d\d\s+1\s+an_\w+\s+paid \(sandbox\)\s+\S+@\S+$/);
    expect(lines[2]).toMatch(/^\S+ \S+ UTC\s+set-[0-9a-f]{16} \(3 photos\)\s+Savusavu\s+3\/3 agree\s+1\s+batch [0-9a-f]{12}\s+paid \(sandbox\)\s+\S+@\S+$/);
    expect(lines[3]).toMatch(/two-places\.mp4 \(4 frames\)\s+.*France\s+2\/4 agree\s+1\s+batch [0-9a-f]{12}\s+paid \(sandbox\)\s+\S+@\S+$/);
    expect(lines[4]).toMatch(/paris\.jpg /);
    expect(footprint(sb)).toEqual(before);
  });

  it('--json: the entry holds its frames (time, cluster), k of n, the consensus point and spread locate gave', async () => {
    const rows = JSON.parse((await offline(['history', '--json'])).stdout) as Entry[];
    expect(rows.map((x) => x.kind)).toEqual(['result', 'set', 'video', 'result']);
    const scene = JSON.parse(video.stdout) as SceneJson;
    const v = rows[2]!;
    expect(v).toMatchObject({ input: TWO, sha256: scene.sha256, confidence: null, agree: 2, of: 4, latitude: scene.consensus!.lat, longitude: scene.consensus!.lng, spread_km: scene.consensus!.spread_km });
    expect(v.batch).toMatch(/^[0-9a-f]{24}$/);
    expect(v.frames!.map((f) => [f.index, f.t_s, f.cluster])).toEqual([[0, 0, 1], [1, 2, 1], [2, 3, 2], [3, 5, 2]]);
    expect(v.frames!.map((f) => f.input)).toEqual(scene.frames.map((f) => f.input));
    const s = rows[1]!;
    expect(s).toMatchObject({ input: set.input, sha256: '', agree: 3, of: 3, latitude: -16.8, longitude: 180, spread_km: set.consensus!.spread_km });
    expect(s.frames!.map((f) => [f.t_s, f.cluster])).toEqual([[null, 1], [null, 1], [null, 1]]);
    // Lone results say so, and carry their batch too.
    expect(rows[0]).toMatchObject({ kind: 'result', frames: null, agree: null, batch: expect.stringMatching(/^[0-9a-f]{24}$/) });
    // gh's --json FIELDS and --jq take the new fields.
    const picked = await offline(['history', '--json', 'kind,input,agree,of', '--jq', '.[2]']);
    expect(JSON.parse(picked.stdout)).toEqual({ kind: 'video', input: TWO, agree: 2, of: 4 });
  });

  it('--limit counts entries, and says how many results they hold', async () => {
    const r = await offline(['history', '--limit', '2', '--json']);
    expect((JSON.parse(r.stdout) as Entry[]).map((x) => x.kind)).toEqual(['result', 'set']);
    expect(r.stderr).toMatch(/2 entries \(4 results\) of 9 stored results shown; --limit 9 for all/);
  });

  it('--search: a video\'s entry holds its frames that match (Tokyo: the two frames after the cut)', async () => {
    const rows = JSON.parse((await offline(['history', '--search', 'tokyo', '--json'])).stdout) as Entry[];
    const v = rows.find((x) => x.kind === 'video')!;
    expect(v.frames!.map((f) => f.t_s)).toEqual([3, 5]);
    expect([v.agree, v.of]).toEqual([2, 2]);
  });

  it('history show, by the video file or by the batch id history lists: the consensus locate printed, offline', async () => {
    const before = footprint(sb);
    const scene = JSON.parse(video.stdout) as SceneJson;
    const batch = (JSON.parse((await offline(['history', '--json'])).stdout) as Entry[])[2]!.batch!;
    for (const ref of [TWO, batch.slice(0, 12)]) {
      const r = await offline(['history', 'show', ref, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(again(scene));
      expect(r.stderr).toMatch(new RegExp(`4 stored answers of batch ${batch}, the newest stored \\S+: read from the local store, nothing sent`));
    }
    // The view is locate's, but for the frames that were never sent (not stored); the sandbox's
    // answers say so first (issue 30), where locate said it in its banner on stderr.
    const view = await offline(['history', 'show', TWO]);
    expect(view.stdout).toBe(`simulated answer (sandbox): not evidence\n${video.view.replace(/\nnot sent: .*\n/, '\n')}`);
    expect(footprint(sb)).toEqual(before);
  });

  it('history show of the set, by its batch id; a frame shown alone says which video it belongs to', async () => {
    const rows = JSON.parse((await offline(['history', '--json'])).stdout) as Entry[];
    const r = await offline(['history', 'show', rows[1]!.batch!, '--json', 'kind,input,consensus,clusters']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ kind: 'set', input: set.input, consensus: set.consensus, clusters: set.clusters });
    const frame = await offline(['history', 'show', rows[2]!.frames![0]!.analysis_id]);
    expect(frame.code).toBe(0);
    expect(frame.stderr).toContain(`a frame of ${TWO}: geo history show ${rows[2]!.batch!.slice(0, 12)} shows the consensus of all its frames`);
  });

  it('a batch id that names no video or set is no result: exit 2 with the usual hint', async () => {
    const rows = JSON.parse((await offline(['history', '--json'])).stdout) as Entry[];
    const r = await offline(['history', 'show', rows[0]!.batch!.slice(0, 12)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: no stored result for .* hint: .*geo history/);
  });
});

describe('geo history: a video whose frames were stored between other answers', () => {
  /** A frame of clip.mp4 (older records have no spans: each stands for the time up to the next). */
  function frame(i: number, at: number, lng: number) {
    const body = { success: true, analysis_id: `an_frame_${i}`, model: 'orca-1.5', depth: 1, timing_ms: 1, confidence: 0.5, reasoning: 'r', location: { latitude: 10, longitude: lng, country: 'C', city: 'X', neighborhood: '', address: '' } };
    return buildRecord({
      input: { path: `clip.mp4#t=${(i * 4).toFixed(3)}`, sha256: `${i}`.repeat(64) }, request: { depth: 1 },
      response: { data: body, raw: JSON.stringify(body), status: 200, headers: {}, replayed: false, idempotencyKey: `frame-${i}` },
      baseUrl: 'http://127.0.0.1:9', cliVersion: 'test', now: at, origin: { video: { path: '/v/clip.mp4', sha256: 'f'.repeat(64), t_ms: i * 4000, index: i } },
    });
  }
  function photo(at: number) {
    const body = { success: true, analysis_id: 'an_photo', model: 'orca-1.5', depth: 1, timing_ms: 1, confidence: 0.5, reasoning: 'r', location: { latitude: 1, longitude: 1, country: 'C', city: 'Y', neighborhood: '', address: '' } };
    return buildRecord({ input: { path: 'photo.jpg', sha256: 'e'.repeat(64) }, request: { depth: 1 }, response: { data: body, raw: JSON.stringify(body), status: 200, headers: {}, replayed: true, idempotencyKey: 'photo' }, baseUrl: 'http://127.0.0.1:9', cliVersion: 'test', now: at });
  }

  it('--limit 1 still gathers all its frames (read back to when its batch first ran); show gives their time ranges', async () => {
    const data = tmp('geo-data-');
    const store = openStore(data);
    const t0 = Date.now();
    const batch = 'b'.repeat(24);
    store.saveBatch(batch, { t: 'head', args: ['clip.mp4'] });
    // Newest first: frame 2, the photo (another command), frames 1 and 0. 10 km apart at most: one place.
    store.insertResult({ record: frame(0, t0 + 1000, 20), sandbox: false, listed: true, batch });
    store.insertResult({ record: frame(1, t0 + 2000, 20.05), sandbox: false, listed: true, batch });
    store.insertResult({ record: photo(t0 + 3000), sandbox: false, listed: true });
    store.insertResult({ record: frame(2, t0 + 4000, 20.1), sandbox: false, listed: true, batch });
    store.close();
    const r = await runCli(['history', '--limit', '1', '--json'], { env: { GEO_DATA_DIR: data } });
    const [v] = JSON.parse(r.stdout) as Entry[];
    expect(v).toMatchObject({ kind: 'video', input: 'clip.mp4', agree: 3, of: 3 });
    // The middle answer: each of the other two pulls as far the other way.
    expect([v!.latitude, v!.longitude]).toEqual([expect.closeTo(10, 5), expect.closeTo(20.05, 5)]);
    expect(v!.frames!.map((f) => f.t_s)).toEqual([0, 4, 8]);
    expect(r.stderr).toMatch(/1 entry \(3 results\) of 4 stored results shown/);
    const show = JSON.parse((await runCli(['history', 'show', batch.slice(0, 8), '--json'], { env: { GEO_DATA_DIR: data } })).stdout) as SceneJson;
    // 0-4 s, 4-8 s and the last frame's own instant (the clip's length was not recorded): 0-8 s.
    expect(show.consensus).toMatchObject({ agree: 3, of: 3, time_ranges: [{ from_s: 0, to_s: 8 }] });
    expect(show.duration_s).toBeUndefined();
  });
});
