/**
 * A video's consensus as GeoJSON, KML and KMZ, read back by ogrinfo (GDAL), an independent reader
 * (issue 23 "Must show"). The two-place clip with --every 2: two clusters (Paris, Tokyo), four frames.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIPS, FFMPEG, FFMPEG_SKIP } from '../helpers/ffmpeg.js';
import { withSandbox } from '../helpers/sandbox.js';
import { runner } from '../commands/locate-helpers.js';
import { unzip } from './unzip.js';
import { OGRINFO, OGRINFO_SKIP, featureCount, ogrinfo, writeOut, xmlProblems } from './tools.js';

const skip = !FFMPEG ? FFMPEG_SKIP : !OGRINFO ? OGRINFO_SKIP : '';
const sb = withSandbox();
const locate = (format: string) => runner(sb)(['locate', join(CLIPS, 'two-places.mp4'), '--every', '2', '--format', format]);

describe.skipIf(skip !== '')(`a video's consensus as map files${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('GeoJSON: the consensus, the other cluster, their spread circles and the frames, each with its role', async () => {
    const r = await locate('geojson');
    expect(r.code, r.stderr).toBe(0);
    const fc = JSON.parse(r.stdout) as { features: Array<{ geometry: { type: string }; properties: Record<string, unknown> }> };
    expect(fc.features.map((f) => [f.properties.role, f.geometry.type])).toEqual([
      ['consensus', 'Point'], ['spread', 'Polygon'], ['cluster', 'Point'], ['spread', 'Polygon'], ['frame', 'Point'], ['frame', 'Point'], ['frame', 'Point'], ['frame', 'Point'],
    ]);
    expect(fc.features[0]!.properties).toMatchObject({ cluster: 1, agree: 2, of: 4, spread_km: 5.01, time_ranges: '0-3 s, 6-9 s', frames: '0,1' });
    expect(fc.features.slice(4).map((f) => [f.properties.index, f.properties.t_s, f.properties.cluster])).toEqual([[0, 0, 1], [1, 2, 1], [2, 3, 2], [3, 5, 2]]);
    const summary = ogrinfo(writeOut('video', 'two-places.geojson', r.stdout));
    expect(featureCount(summary)).toBe(8);
  });

  it('KML: one folder per cluster (its point, its circle, its frames), read by ogrinfo as two layers', async () => {
    const r = await locate('kml');
    expect(r.code, r.stderr).toBe(0);
    expect(xmlProblems(r.stdout)).toEqual([]);
    const summary = ogrinfo(writeOut('video', 'two-places.kml', r.stdout));
    expect([...summary.matchAll(/Layer name: (.*)/g)].map((m) => m[1])).toEqual([expect.stringMatching(/^consensus: .*France$/), expect.stringMatching(/^cluster #2: .*Japan$/)]);
    // Each folder: the cluster's point, its spread circle and its two frames.
    expect([...summary.matchAll(/Feature Count: (\d+)/g)].map((m) => Number(m[1]))).toEqual([4, 4]);
  });

  it('KMZ: the same KML with each frame in its balloon', async () => {
    const r = await locate('kmz');
    expect(r.code, r.stderr).toBe(0);
    const bytes = r.stdoutBytes!;
    const entries = unzip(bytes);
    expect(entries.map((e) => e.name.replace(/-[0-9a-f]{16}/, ''))).toEqual(['doc.kml', 'files/000.jpg', 'files/001.jpg', 'files/002.jpg', 'files/003.jpg']);
    const kml = entries[0]!.data.toString('utf8');
    expect(kml).toMatch(/&lt;img src=&quot;files\/000-[0-9a-f]{16}\.jpg&quot;/);
    expect(featureCount(ogrinfo(writeOut('video', 'two-places.kmz', bytes)))).toBe(8);
  });
});
