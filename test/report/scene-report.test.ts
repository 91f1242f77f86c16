/**
 * A video's HTML report in headless Chromium with every host unresolvable (issue 23 "Must show"):
 * the frame strip with each frame's time and cluster, the map with each frame's point, every
 * cluster's spread circle and the consensus, all in the DOM Chromium dumps right after load (the
 * page draws without timers or animation), then a screenshot (test/out/report/video.png).
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLeafletAssets } from '../../src/output/export/leaflet-assets.js';
import { CLIPS, FFMPEG, FFMPEG_SKIP } from '../helpers/ffmpeg.js';
import { withSandbox } from '../helpers/sandbox.js';
import { runner } from '../commands/locate-helpers.js';
import { OUT_DIR } from '../export/tools.js';
import { CHROMIUM, CHROMIUM_SKIP, consoleLines, dumpDomAtLoad, screenshotAtLoad } from './chromium.js';

const LEAFLET = (await loadLeafletAssets()) !== undefined;
const skip = !FFMPEG ? FFMPEG_SKIP : !CHROMIUM ? CHROMIUM_SKIP : !LEAFLET ? 'leaflet package not installed (npm i leaflet)' : '';
const sb = withSandbox();
const count = (html: string, re: RegExp) => (html.match(re) ?? []).length;

describe.skipIf(skip !== '')(`a video's HTML report in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('shows the frame strip, each frame on the map, every cluster with its spread circle and the consensus', { timeout: 120_000 }, async () => {
    mkdirSync(join(OUT_DIR, 'report'), { recursive: true });
    const file = join(OUT_DIR, 'report', 'video.html');
    const r = await runner(sb)(['locate', join(CLIPS, 'two-places.mp4'), '--every', '2', '--report', file, '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/report: \S*video\.html \(2 places, 4 answers\)/);
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/unsafe|connect-src/);

    const { stdout: dom, log } = dumpDomAtLoad(file);
    // The strip: the four frames sent, with time, reason and cluster, then the two not sent.
    const captions = [...dom.matchAll(/<figure class="frame[^"]*" id="frame-(\d)"><img src="data:image\/jpeg;base64,[^"]+" alt="frame \d"><figcaption>([^<]+)<\/figcaption>/g)].map((m) => m[2]);
    expect(captions).toEqual(['#0 · 0:00 · first · cluster #1', '#1 · 0:02 · interval · cluster #1', '#2 · 0:03 · cut · cluster #2', '#3 · 0:05 · interval · cluster #2']);
    expect([...dom.matchAll(/<figure class="dropped"><div class="noimg">not sent<\/div><figcaption>([^<]+)</g)].map((m) => m[1])).toEqual(['0:06 · near-duplicate of #0', '0:08 · near-duplicate of #1']);
    // The map, drawn at load: four frame points, two spread circles, the consensus and the other place.
    expect(/<div class="map leaflet-container[^"]*" id="map-scene"[^>]*data-drawn="true"/.test(dom)).toBe(true);
    expect(count(dom, /<path class="geo-frame leaflet-interactive"/g)).toBe(4);
    expect(count(dom, /<path class="geo-spread leaflet-interactive"/g)).toBe(2);
    expect(count(dom, /<path class="geo-consensus leaflet-interactive"/g)).toBe(1);
    expect(count(dom, /<path class="geo-cluster leaflet-interactive"/g)).toBe(1);
    expect(dom).toMatch(/<h2>consensus: [^<]*France<\/h2>/);
    expect(dom).toMatch(/<dt>agree<\/dt><dd>2 of 4 frames<\/dd><dt>spread<\/dt><dd>5\.01 km/);
    expect(dom).toMatch(/<dt>time ranges<\/dt><dd>0:00-0:03, 0:06-0:09<\/dd>/);
    expect(count(dom, /<tr class="cluster-row">/g)).toBe(2);
    expect(count(dom, /<tr class="frame-row">/g)).toBe(4);
    expect(consoleLines(log).filter((l) => /error|refused|violat/i.test(l))).toEqual([]);

    const png = join(OUT_DIR, 'report', 'video.png');
    screenshotAtLoad(file, png, '1200,1400');
    expect(existsSync(png)).toBe(true);
    expect(statSync(png).size).toBeGreaterThan(10_000);
    expect(readFileSync(png).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    console.log(`video report screenshot: ${png}`);
  });
});
