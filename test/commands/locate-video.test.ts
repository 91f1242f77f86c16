/**
 * geo locate clip.mp4 and --together against a real sandbox (issue 23 "Must show"). The sandbox
 * answers each frame from the scene marker in its pixels (src/sandbox/marker.ts: a scene's place,
 * moved by the frame's variant, coordinates rounded to 3 decimals as the service rounds them), so
 * every expected figure below is worked out from that table, by the formulas in the comments.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { destination, haversineKm } from '../../src/places/distance.js';
import type { SceneJson } from '../../src/media/scene.js';
import { SCENES, VARIANTS } from '../../src/sandbox/marker.js';
import { CLIPS, FFMPEG, ffmpegTitle } from '../helpers/ffmpeg.js';
import { storedRecords } from '../helpers/store.js';
import { withSandbox } from '../helpers/sandbox.js';
import { footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = (argv: string[], opts = {}) => runner(sb)(argv, opts);
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const TWO = join(CLIPS, 'two-places.mp4');
const ONE = join(CLIPS, 'one-place.mp4');

const round3 = (x: number) => Math.round(x * 1000) / 1000;
/** What the sandbox answers for scene `code`, variant `v`. */
function answer(code: number, v: number): { lat: number; lng: number } {
  const s = SCENES[code]!;
  const m = VARIANTS[v]!;
  const p = m.km === 0 ? { lat: s.lat, lng: s.lng } : destination(s.lat, s.lng, m.km, m.bearing);
  const lng = p.lng > 180 ? p.lng - 360 : p.lng;
  return { lat: round3(p.lat), lng: round3(lng) };
}
/** The midpoint of two points on the sphere: their unit vectors summed and normalised. */
function midpoint(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const r = Math.PI / 180;
  const v = (p: { lat: number; lng: number }) => [Math.cos(p.lat * r) * Math.cos(p.lng * r), Math.cos(p.lat * r) * Math.sin(p.lng * r), Math.sin(p.lat * r)];
  const [x, y, z] = v(a).map((c, i) => c + v(b)[i]!);
  return { lat: Math.atan2(z!, Math.hypot(x!, y!)) / r, lng: Math.atan2(y!, x!) / r };
}
const km = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => haversineKm(a.lat, a.lng, b.lat, b.lng);

describe.skipIf(!FFMPEG)(ffmpegTitle('geo locate clip.mp4'), () => {
  it('a two-place compilation: two clusters, each with its frames, time ranges and spread', async () => {
    const r = await run(['locate', TWO, '--every', '2', '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as SceneJson;
    // Frames at 0 s (Paris, variant 0), 2 s (Paris, variant 2: 10 km west), 3 s (the cut: Tokyo,
    // variant 0), 5 s (Tokyo, variant 2); 6 s and 8 s repeat 0 s and 2 s and are not sent.
    expect(s.frames.map((f) => [f.index, f.t_s, f.why])).toEqual([[0, 0, 'first'], [1, 2, 'interval'], [2, 3, 'cut'], [3, 5, 'interval']]);
    expect(s.dropped).toEqual([{ t_s: 6, why: 'duplicate', of: 0 }, { t_s: 8, why: 'duplicate', of: 1 }]);
    expect(s.clusters).toHaveLength(2);
    const [paris, tokyo] = s.clusters;
    // Each cluster: two frames of equal weight, so the median is their midpoint, and the spread
    // half their distance (about 5 km). Equal support (2 each): the earlier frame ranks first.
    for (const [c, code] of [[paris!, 1], [tokyo!, 2]] as const) {
      const a = answer(code, 0);
      const b = answer(code, 2);
      const mid = midpoint(a, b);
      expect(c.lat).toBeCloseTo(mid.lat, 5);
      expect(c.lng).toBeCloseTo(mid.lng, 5);
      expect(c.spread_km).toBeCloseTo(km(a, b) / 2, 2);
      expect([c.agree, c.of, c.support]).toEqual([2, 4, 2]);
    }
    expect(paris!.frames).toEqual([0, 1]);
    expect(paris!.time_ranges).toEqual([{ from_s: 0, to_s: 3 }, { from_s: 6, to_s: 9 }]);
    expect(tokyo!.frames).toEqual([2, 3]);
    expect(tokyo!.time_ranges).toEqual([{ from_s: 3, to_s: 6 }]);
    expect(s.consensus).toEqual(paris);
    // 2 frames each: a tie, said as such (Paris ranks first only by time).
    expect(s.tied).toBe(true);
    expect(s.frames.map((f) => f.cluster)).toEqual([1, 1, 2, 2]);
    expect(r.stderr).toMatch(/plan: 4 frames · 4 to send × depth 1 \(1 credit\) = up to 4 credits/);
  });

  it('a one-place take on the antimeridian: 5 of 5 frames agree at 180°, spread 10 km, over the whole clip', async () => {
    const r = await run(['locate', ONE, '--every', '2', '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as SceneJson;
    // Frames at 0, 2, 4, 6, 8 s carry variants 0, 2, 4, 1, 3: the centre, 10 km west (179.906°),
    // south, east (-179.906°) and north. The centre is an answer and the others pull in opposite
    // pairs, so it is the median; the spread is the farthest answer from it.
    const answers = [0, 2, 4, 1, 3].map((v) => answer(3, v));
    expect(answers.map((a) => Math.sign(a.lng))).toEqual([1, 1, 1, -1, 1]);
    expect(s.clusters).toHaveLength(1);
    const c = s.consensus!;
    expect(c.lat).toBeCloseTo(-16.8, 6);
    expect(c.lng).toBeCloseTo(180, 6);
    expect(c.spread_km).toBeCloseTo(Math.max(...answers.map((a) => km(a, { lat: -16.8, lng: 180 }))), 2);
    expect([c.agree, c.of, c.support, c.frames, s.tied]).toEqual([5, 5, 5, [0, 1, 2, 3, 4], false]);
    expect(c.time_ranges).toEqual([{ from_s: 0, to_s: 10 }]);
    // A mean of the longitudes would say 108°: the other side of the planet.
    expect(answers.reduce((t, a) => t + a.lng, 0) / 5).toBeCloseTo(108, 0);
  });

  it('depth-3 candidates are weaker votes: the decoy city is a cluster of its own that no frame agrees with', async () => {
    const r = await run(['locate', ONE, '--every', '2', '--depth', '3', '--json', '--yes']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as SceneJson;
    // Each answer: the estimate (rank 0), 5 km north (rank 1), Suva (rank 2): 6/11, 3/11, 2/11.
    // The first two fall in the Taveuni cluster: 5 × 9/11 = 4.091; Suva gets 5 × 2/11 = 0.909.
    expect(s.clusters.map((c) => [c.agree, c.support, c.voters.length])).toEqual([[5, 4.091, 5], [0, 0.909, 5]]);
    expect(s.clusters[1]!.place).toMatch(/^Suva/);
  });

  it('the terminal view: consensus first, then the other places, then the frame table', async () => {
    const r = await run(['locate', TWO, '--every', '2']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^consensus for .*two-places\.mp4 \(0:09\): .*France$/);
    expect(lines[2]).toBe('  2 of 4 frames agree · spread 5.01 km · support 2.00 · 0:00-0:03, 0:06-0:09');
    expect(r.stdout).toMatch(/\n {2}a tie: #2 has as many frames and as much support; it ranks second only by time\n/);
    expect(r.stdout).toMatch(/other places the frames point to \(1, kept apart, not averaged in\)\n {2}#2 .*Japan: 35\.\d+, 139\.\d+\n {5}2 of 4 frames agree · spread 5\.01 km · support 2\.00 · 0:03-0:06/);
    expect(r.stdout).toMatch(/#\s+time\s+why\s+place\s+coordinates\s+confidence\s+cluster\n0\s+0:00\s+first\s+.*0\.80\s+#1\n1\s+0:02\s+interval/);
    expect(r.stdout).toMatch(/not sent: 0:06 near-duplicate of #0 · 0:08 near-duplicate of #1/);
  });

  it('--json FIELDS and --jq choose from the scene object (gh style)', async () => {
    const r = await run(['locate', ONE, '--every', '2', '--json', 'kind,answered,tied']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ kind: 'video', answered: 5, tied: false });
    expect((await run(['locate', ONE, '--every', '2', '--jq', '.consensus.agree'])).stdout).toBe('5\n');
  });

  it('--format ndjson: one line per frame as it finishes, with the video it came from; provenance records carry it', async () => {
    const env = { GEO_DATA_DIR: tmp('geo-data-') };
    const r = await run(['locate', TWO, '--every', '2', '--format', 'ndjson'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { input: string; ok: boolean; video: { path: string; sha256: string; t_ms: number; index: number } });
    const sha = execFileSync('sha256sum', [TWO], { encoding: 'utf8' }).split(' ')[0];
    expect(lines.map((l) => [l.input.replace(/.*\//, ''), l.ok, l.video.t_ms, l.video.index]).sort((a, b) => Number(a[3]) - Number(b[3]))).toEqual([
      ['two-places.mp4#t=0.000', true, 0, 0], ['two-places.mp4#t=2.000', true, 2000, 1], ['two-places.mp4#t=3.000', true, 3000, 2], ['two-places.mp4#t=5.000', true, 5000, 3],
    ]);
    for (const l of lines) expect(l.video).toMatchObject({ path: TWO, sha256: sha });
    // Each frame also says why it was taken, the stretches of the clip it stands for and the clip's length.
    expect(lines.find((l) => l.video.index === 0)!.video).toMatchObject({ why: 'first', spans_ms: [[0, 2000], [6000, 8000]], duration_ms: 9000 });
    const records = storedRecords(env.GEO_DATA_DIR) as unknown as Array<{ input: { path: string }; video: unknown }>;
    expect(records.map((x) => x.video).sort((a, b) => (a as { index: number }).index - (b as { index: number }).index)).toEqual(lines.map((l) => l.video).sort((a, b) => a.index - b.index));
  });
});

describe.skipIf(!FFMPEG)(ffmpegTitle('a video costs frames × depth, shown and agreed before anything is sent'), () => {
  it('--dry-run lists the chosen frames with their times and the cost, and sends nothing', async () => {
    const before = footprint(sb);
    const r = await run(['locate', TWO, '--every', '2', '--dry-run']);
    expect(r.code).toBe(0);
    expect(footprint(sb)).toEqual(before);
    expect(r.stdout).toMatch(/^frames that would be sent \(4\):\n {2}#0 {2}0\.000 s {2}first\n {2}#1 {2}2\.000 s {2}interval\n {2}#2 {2}3\.000 s {2}cut\n {2}#3 {2}5\.000 s {2}interval\n {2}- {3}6\.000 s {2}not sent: near-duplicate of #0\n {2}- {3}8\.000 s {2}not sent: near-duplicate of #1\n/);
    expect(r.stdout).toMatch(/plan: 4 frames · 4 to send × depth 1 \(1 credit\) = up to 4 credits/);
    expect(r.stdout).toMatch(/dry run: nothing was sent \(4 requests previewed\)/);
    const j = JSON.parse((await run(['locate', TWO, '--every', '2', '--dry-run', '--depth', '3', '--json'])).stdout) as { credits: number; toSend: number; frames: Array<{ t_s: number }>; sent: boolean };
    expect([j.toSend, j.credits, j.sent, j.frames.map((f) => f.t_s)]).toEqual([4, 40, false, [0, 2, 3, 5]]);
    expect(footprint(sb)).toEqual(before);
  });

  it('a plan above the confirm threshold is refused where nothing can ask, and --max-credits below it too (exit 2, nothing sent)', async () => {
    const before = footprint(sb);
    // --every 1: ten frames × depth 3 = 100 credits.
    const r = await run(['locate', ONE, '--every', '1', '--depth', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: the plan spends up to 100 credits, above the confirm threshold of 20.*nothing was sent.*hint: pass --yes or --max-credits 100/s);
    const m = await run(['locate', ONE, '--every', '1', '--depth', '3', '--max-credits', '50']);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/the plan needs up to 100 credits \(10 images × 10 at depth 3\), above --max-credits 50; nothing was sent/);
    expect(footprint(sb)).toEqual(before);
  });

  it('a rerun pays nothing: every frame comes from the journal', async () => {
    const env = { GEO_STATE_DIR: tmp('geo-state-'), GEO_DATA_DIR: tmp('geo-data-') };
    expect((await run(['locate', TWO, '--every', '2'], { env })).code).toBe(0);
    const before = footprint(sb);
    const again = await run(['locate', TWO, '--every', '2', '--json'], { env });
    expect(again.code).toBe(0);
    expect(footprint(sb)).toEqual(before);
    expect(again.stderr).toMatch(/4 images answered by an earlier run of this command, not charged/);
    expect((JSON.parse(again.stdout) as SceneJson).clusters).toHaveLength(2);
  });
});

describe.skipIf(!FFMPEG)(ffmpegTitle('a video\'s journal'), () => {
  it('geo locate --resume FILE of a video reruns that video: its frames come from the journal, nothing is paid', async () => {
    const env = { GEO_DATA_DIR: tmp('geo-data-') };
    const journal = join(tmp('geo-journal-'), 'clip.ndjson');
    expect((await run(['locate', TWO, '--every', '2', '--journal', journal], { env })).code).toBe(0);
    const before = footprint(sb);
    const r = await run(['locate', '--resume', journal, '--every', '2', '--json'], { env: { GEO_DATA_DIR: tmp('geo-data-') } });
    expect(r.code, r.stderr).toBe(0);
    expect(footprint(sb)).toEqual(before);
    expect(r.stderr).toMatch(/4 images answered by an earlier run of this command, not charged/);
    expect((JSON.parse(r.stdout) as SceneJson).consensus).toMatchObject({ agree: 2, of: 4 });
  });
});

describe.skipIf(!FFMPEG)(ffmpegTitle('photos --together'), () => {
  it('three photos of one scene: one consensus, k of n and spread, each record marked with its set', async () => {
    // Three stills of the one-place take at 0.5, 1.5 and 2.5 s: variants 0, 1, 2 (the centre,
    // 10 km east, 10 km west). East and west pull equally: the centre is the median.
    const dir = tmp('geo-together-');
    for (const [i, t] of [0.5, 1.5, 2.5].entries()) execFileSync('ffmpeg', ['-loglevel', 'error', '-ss', String(t), '-i', ONE, '-frames:v', '1', '-q:v', '3', join(dir, `photo-${i}.jpg`)]);
    const env = { GEO_DATA_DIR: tmp('geo-data-') };
    const r = await run(['locate', join(dir, 'photo-0.jpg'), join(dir, 'photo-1.jpg'), join(dir, 'photo-2.jpg'), '--together', '--json'], { env });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as SceneJson;
    expect(s.kind).toBe('set');
    expect(s.input).toMatch(/^set-[0-9a-f]{16}$/);
    const c = s.consensus!;
    expect([c.lat, c.lng]).toEqual([-16.8, 180]);
    expect([c.agree, c.of, c.support]).toEqual([3, 3, 3]);
    expect(c.spread_km).toBeCloseTo(Math.max(km(answer(3, 1), { lat: -16.8, lng: 180 }), km(answer(3, 2), { lat: -16.8, lng: 180 })), 2);
    expect(c.time_ranges).toEqual([]);
    const sets = (storedRecords(env.GEO_DATA_DIR) as unknown as Array<{ set: { id: string; size: number } }>).map((r) => r.set);
    expect(sets.map((x) => [x.id, x.size])).toEqual([[s.input, 3], [s.input, 3], [s.input, 3]]);
    // The terminal view says photos, not frames.
    const view = await run([join(dir, 'photo-0.jpg'), join(dir, 'photo-1.jpg'), join(dir, 'photo-2.jpg'), '--together'].reduce((a, x) => [...a, x], ['locate']));
    expect(view.stdout).toMatch(/^consensus for 3 photos located together \(set-[0-9a-f]{16}\): .*Savusavu\n {2}-16\.800000, 180\.000000\n {2}3 of 3 photos agree/);
  });
});

describe.skipIf(!FFMPEG)(ffmpegTitle('bad video input: one line, exit 2, nothing sent'), () => {
  const dir = tmp('geo-bad-video-');
  const make = (name: string, args: string[]) => {
    execFileSync('ffmpeg', ['-y', '-loglevel', 'error', ...args, join(dir, name)]);
    return join(dir, name);
  };
  const bad = async (argv: string[], message: RegExp, env: Record<string, string> = {}) => {
    const before = footprint(sb);
    const r = await run(['locate', ...argv], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(footprint(sb)).toEqual(before);
  };

  it('no video stream, zero length, a corrupt stream, longer than --max-duration', async () => {
    await bad([make('audio.mp4', ['-f', 'lavfi', '-i', 'sine=d=1', '-c:a', 'aac'])], /error: \S*audio\.mp4: the file has no video stream \(audio\); nothing was sent/);
    await bad([make('zero.mp4', ['-f', 'lavfi', '-i', 'color=s=64x64:d=0.01', '-frames:v', '0'])], /error: \S*zero\.mp4: the clip is zero seconds long; nothing was sent/);
    const corrupt = join(dir, 'corrupt.mp4');
    const b = readFileSync(TWO);
    b.fill(0x55, b.indexOf('mdat') + 8);
    writeFileSync(corrupt, b);
    await bad([corrupt], /error: \S*corrupt\.mp4: no frame could be decoded \(.*\); nothing was sent/);
    await bad([TWO, '--max-duration', '5s'], /error: \S*two-places\.mp4: the clip is 0:09 long, above --max-duration 0:05; nothing was sent/);
  });

  it('not a video (text named .mp4) and flags that do not fit', async () => {
    const text = join(dir, 'notes.mp4');
    writeFileSync(text, 'not a video at all\n');
    // Named like a video: the line speaks of video (issue 30), not of images.
    await bad([text], /error: \S*notes\.mp4 is named like a video \(\.mp4\) but its bytes are not a video geo can read \(text\)/);
    await bad([TWO, 'fixtures/images/paris.jpg'], /error: locate one video at a time/);
    await bad(['fixtures/images/paris.jpg', '--every', '5'], /error: --every applies to a video or to photos located --together/);
    await bad([TWO, '--min-confidence', '0.5'], /error: --min-confidence does not apply to a video/);
    await bad([TWO, '--scene', '1.5'], /error: --scene must be a number above 0 and at most 1, got "1\.5"/);
  });

  it('no ffmpeg: how to install it, exit 2, nothing sent', async () => {
    await bad([TWO], /error: locating the video \S*two-places\.mp4 needs ffmpeg, and none was found \(GEO_FFMPEG, then PATH\); nothing was sent — hint: install ffmpeg/, { PATH: tmp('geo-no-ffmpeg-') });
  });

  it('a path with spaces and a leading dash, and a clip recognised by its bytes whatever its name', async () => {
    const odd = join(dir, '-my clip; $(x).dat');
    copyFileSync(TWO, odd);
    const r = await run(['locate', odd, '--dry-run', '--every', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/frames that would be sent \(4\)/);
    // Matroska and AVI remuxes of the same clip are videos too.
    for (const ext of ['mkv', 'avi', 'mov']) {
      const f = make(`clip.${ext}`, ['-i', TWO, '-c', 'copy']);
      const d = await run(['locate', f, '--dry-run', '--json']);
      expect(d.code, `${ext}: ${d.stderr}`).toBe(0);
      expect((JSON.parse(d.stdout) as { frames: unknown[] }).frames.length).toBeGreaterThan(0);
    }
  });
});
