/**
 * Issue 30, for a video located against the sandbox (its frames answered with the sandbox's
 * header): the scene's report opens with the banner above its map, every balloon of its KMZ and
 * KML says it first, and its GeoJSON features carry sandbox: true, from locate and from geo export
 * alike. (A real service's answers carry none of it: test/export/simulated.test.ts.)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIMULATED } from '../../src/evidence/simulated.js';
import { runner } from '../commands/locate-helpers.js';
import { CLIPS, FFMPEG, FFMPEG_SKIP } from '../helpers/ffmpeg.js';
import { runCli } from '../helpers/run-cli.js';
import { withSandbox } from '../helpers/sandbox.js';
import { unzip } from './unzip.js';
import { xmlProblems } from './tools.js';

const sb = withSandbox();
const TWO = join(CLIPS, 'two-places.mp4');
const MARK = `&lt;p&gt;&lt;b&gt;${SIMULATED}&lt;/b&gt;&lt;/p&gt;`;
const descriptions = (kml: string) => [...kml.matchAll(/<description>([^<]*)<\/description>/g)].map((m) => m[1]!);

describe.skipIf(!FFMPEG)(`a sandbox's video: every file of its scene says it is simulated${FFMPEG ? '' : ` (skipped: ${FFMPEG_SKIP})`}`, () => {
  const env = { GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-state-')) };
  const locate = (argv: string[]) => runner(sb)(['locate', TWO, '--every', '2', ...argv], { env });

  it('locate --report and --format kmz: the banner above the map; each balloon opens with the mark, above the frame', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'geo-report-')), 'clip.html');
    const r = await locate(['--format', 'kmz', '--report', file]);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    const banner = html.indexOf('<div class="simulated-banner"');
    expect(banner).toBeGreaterThan(html.indexOf('<main>'));
    expect(html.slice(banner, banner + 200)).toContain('<strong>4 simulated answers (sandbox): not evidence</strong>');
    const map = html.indexOf('<div class="map" id="map-scene">');
    if (map >= 0) expect(banner).toBeLessThan(map);
    const kml = unzip(r.stdoutBytes!).find((e) => e.name === 'doc.kml')!.data.toString('utf8');
    expect(xmlProblems(kml)).toEqual([]);
    expect(kml).toMatch(/<Document>\n {4}<name>\[sandbox\] geo: \S*two-places\.mp4<\/name>/);
    const balloons = descriptions(kml);
    expect(balloons.length).toBe(8);
    for (const b of balloons) expect(b.startsWith(MARK), b.slice(0, 80)).toBe(true);
    expect(balloons.filter((b) => b.startsWith(`${MARK}&lt;img src=&quot;files/`))).toHaveLength(4);
  });

  it('locate --format geojson and kml; geo export of the stored frames: marked the same', async () => {
    const g = await locate(['--format', 'geojson']);
    const features = (JSON.parse(g.stdout) as { features: Array<{ properties: Record<string, unknown> }> }).features;
    expect(features.length).toBe(8);
    expect(features.every((f) => f.properties.sandbox === true)).toBe(true);
    const k = await locate(['--format', 'kml']);
    for (const b of descriptions(k.stdout)) expect(b.startsWith(MARK)).toBe(true);
    const html = await runCli(['export', TWO, '--format', 'html'], { env });
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout).toContain('<strong>4 simulated answers (sandbox): not evidence</strong>');
    const kmz = await runCli(['export', TWO, '--format', 'kmz', '--out', join(mkdtempSync(join(tmpdir(), 'geo-kmz-')), 'clip.kmz')], { env });
    expect(kmz.code, kmz.stderr).toBe(0);
  });
});
