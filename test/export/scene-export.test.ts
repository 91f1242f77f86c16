/**
 * geo export draws stored frames of a video, and photos located --together, as the scene locate
 * drew (issue 23): GeoJSON and KML hold each one's consensus, spread circles, frames and clusters
 * after the lone results (read back by ogrinfo); one video alone as HTML is its scene report; CSV
 * stays one row per frame. The same from locate's NDJSON piped in. Nothing is sent.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIPS, FFMPEG, FFMPEG_SKIP } from '../helpers/ffmpeg.js';
import { runCli } from '../helpers/run-cli.js';
import { withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from '../commands/locate-helpers.js';
import { unzip } from './unzip.js';
import { OGRINFO, OGRINFO_SKIP, featureCount, ogrinfo, writeOut, xmlProblems } from './tools.js';

const skip = !FFMPEG ? FFMPEG_SKIP : !OGRINFO ? OGRINFO_SKIP : '';
const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const TWO = join(CLIPS, 'two-places.mp4');
const ONE = join(CLIPS, 'one-place.mp4');

type Feature = { geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> };
const features = (text: string) => (JSON.parse(text) as { features: Feature[] }).features;
const sceneRoles = new Set(['consensus', 'cluster', 'spread', 'frame']);

describe.skipIf(skip !== '')(`geo export regroups a video's stored frames into its scene${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const env = { GEO_DATA_DIR: tmp('geo-data-'), GEO_STATE_DIR: tmp('geo-state-') };
  const offline = (argv: string[], stdin?: string) => runCli(argv, { env, ...(stdin !== undefined ? { stdin } : {}) });
  const photos = tmp('geo-photos-');
  let locateGeojson: Feature[];
  let ndjson: string;

  beforeAll(async () => {
    const locate = (argv: string[]) => runner(sb)(['locate', ...argv], { env });
    for (const [i, t] of [0.5, 1.5, 2.5].entries()) execFileSync('ffmpeg', ['-loglevel', 'error', '-ss', String(t), '-i', ONE, '-frames:v', '1', '-q:v', '3', join(photos, `photo-${i}.jpg`)]);
    expect((await locate([`${IMG}paris.jpg`])).code).toBe(0);
    const g = await locate([TWO, '--every', '2', '--format', 'geojson']);
    expect(g.code, g.stderr).toBe(0);
    locateGeojson = features(g.stdout);
    ndjson = (await locate([TWO, '--every', '2', '--format', 'ndjson'])).stdout;
    expect((await locate([0, 1, 2].map((i) => join(photos, `photo-${i}.jpg`)).concat(['--together']))).code).toBe(0);
  });

  it('--all as GeoJSON: the lone photo, then the video\'s and the set\'s scenes, each as locate drew it (marked sandbox); ogrinfo reads it', async () => {
    const before = footprint(sb);
    const r = await offline(['export', '--all', '--include-sandbox', '--format', 'geojson']);
    expect(r.code, r.stderr).toBe(0);
    const all = features(r.stdout);
    expect(all.filter((f) => !sceneRoles.has(f.properties.role as string)).map((f) => f.properties.input)).toEqual([expect.stringMatching(/paris\.jpg$/), expect.stringMatching(/paris\.jpg$/)]);
    const video = all.filter((f) => sceneRoles.has(f.properties.role as string) && String(f.properties.input).includes('two-places'));
    // locate marked them too (issue 30): the same features, sandbox: true on each.
    expect(locateGeojson.every((f) => f.properties.sandbox === true)).toBe(true);
    expect(video).toEqual(locateGeojson);
    const set = all.filter((f) => f.properties.kind === 'set' || (f.properties.role === 'frame' && String(f.properties.input).includes('photo-')));
    expect(set.map((f) => f.properties.role)).toEqual(['consensus', 'spread', 'frame', 'frame', 'frame']);
    expect(set[0]!.geometry.coordinates).toEqual([180, -16.8]);
    expect(featureCount(ogrinfo(writeOut('export-scene', 'all.geojson', r.stdout)))).toBe(all.length);
    expect(footprint(sb)).toEqual(before);
  });

  it('--all as KML: each scene a Document of its own, its clusters as folders; ogrinfo reads every placemark', async () => {
    const r = await offline(['export', '--all', '--include-sandbox', '--format', 'kml']);
    expect(r.code, r.stderr).toBe(0);
    expect(xmlProblems(r.stdout)).toEqual([]);
    expect(r.stdout).toMatch(/<Document><name>\[sandbox\] geo: \S*two-places\.mp4 \(video\)<\/name>\n {4}<Style id="scene1-consensus">/);
    const summary = ogrinfo(writeOut('export-scene', 'all.kml', r.stdout));
    const layers = [...summary.matchAll(/Layer name: (.*)/g)].map((m) => m[1]);
    expect(layers).toEqual(expect.arrayContaining([expect.stringMatching(/^consensus: .*France$/), expect.stringMatching(/^cluster #2: .*Japan$/), expect.stringMatching(/^consensus: .*Savusavu$/)]));
    // The photo's folder (estimate, EXIF point), the video's (4 + 4) and the set's (its point, circle, 3 photos).
    expect(featureCount(summary)).toBe(2 + 8 + 5);
  });

  it('a video named by its file: one scene; as HTML its report with the frame strip; CSV one row per frame', async () => {
    const g = await offline(['export', TWO, '--format', 'geojson']);
    expect(g.code, g.stderr).toBe(0);
    expect(features(g.stdout).map((f) => f.properties.role)).toEqual(locateGeojson.map((f) => f.properties.role));
    const html = await offline(['export', TWO, '--format', 'html']);
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout).toMatch(/<title>geo report: \S*two-places\.mp4 \(video, 0:09\)<\/title>/);
    expect(html.stdout).toContain('<div class="strip" id="strip">');
    expect(html.stdout.match(/<figure class="frame/g)).toHaveLength(4);
    const csv = await offline(['export', TWO, '--format', 'csv']);
    expect(csv.stdout.trim().split('\n')).toHaveLength(1 + 4);
  });

  it('the set named by its batch id, as KMZ: the consensus and each photo in its balloon', async () => {
    const rows = JSON.parse((await offline(['history', '--json'])).stdout) as Array<{ kind: string; batch: string }>;
    const batch = rows.find((x) => x.kind === 'set')!.batch;
    const out = join(tmp('geo-kmz-'), 'set.kmz');
    const r = await offline(['export', batch.slice(0, 12), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const entries = unzip(execFileSync('cat', [out]));
    expect(entries.map((e) => e.name.replace(/-[0-9a-f]{16}/, ''))).toEqual(['doc.kml', 'files/000.jpg', 'files/001.jpg', 'files/002.jpg']);
    expect(featureCount(ogrinfo(out))).toBe(5);
  });

  it('locate\'s NDJSON piped in: the frames carry their video, so the export draws its scene', async () => {
    const r = await offline(['export', '-', '--format', 'geojson'], ndjson);
    expect(r.code, r.stderr).toBe(0);
    expect(features(r.stdout).map((f) => [f.properties.role, f.properties.cluster ?? null])).toEqual(locateGeojson.map((f) => [f.properties.role, f.properties.cluster ?? null]));
  });
});
