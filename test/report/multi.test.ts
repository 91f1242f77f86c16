/**
 * A report of several results in headless Chromium with every host unresolvable: the summary table,
 * the overview map, map links, EXIF capture time and camera, scale bar, layer switcher and the
 * offline country outlines, all in the DOM Chromium dumps after the scripts ran; then a screenshot.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildHtmlReport } from '../../src/output/export/index.js';
import { loadLeafletAssets } from '../../src/output/export/leaflet-assets.js';
import type { ProvenanceRecord } from '../../src/evidence/records.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { hostileRecord, parisRecord, sydneyRecord } from '../export/fixtures.js';
import { sandboxRecord } from '../export/sandbox-run.js';
import { writeOut } from '../export/tools.js';
import { CHROMIUM, CHROMIUM_SKIP, consoleLines, dumpDom, screenshot } from './chromium.js';

const LEAFLET = (await loadLeafletAssets()) !== undefined;
const skip = !CHROMIUM ? CHROMIUM_SKIP : !LEAFLET ? 'leaflet package not installed (npm i leaflet)' : '';
const sb = withSandbox();
const count = (html: string, re: RegExp) => (html.match(re) ?? []).length;
const amp = (s: string) => s.replace(/&/g, '&amp;');
/** toContain without printing a 300 KB page when it fails. */
const has = (page: string, part: string) => expect(page.includes(part), `page should contain: ${part}`).toBe(true);

/** A stored record whose EXIF block carries the capture fields (so the report need not read the image). */
function withCapture(rec: ProvenanceRecord): ProvenanceRecord {
  return { ...rec, exif: { ...rec.exif!, dateTimeOriginal: '2024:01:26 20:05:10', offsetTime: '+11:00', make: 'Canon', model: 'Canon EOS R5' } as ProvenanceRecord['exif'] };
}

describe.skipIf(skip !== '')(`multi-result HTML report in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('opens with a summary table and an overview map; each result has map links, capture time, camera, scale bar, layer switcher and offline outlines', { timeout: 180_000 }, async () => {
    const tokyo = await sandboxRecord(sb.url, 'tokyo.jpg', { depth: 3, scope: { name: 'Tokyo', lat: 35.68, lng: 139.76, radius_km: 30 } });
    const newyork = await sandboxRecord(sb.url, 'newyork.jpg', { depth: 2 });
    const sources = [
      { record: tokyo, imageBytes: readFileSync(FIXTURES + 'tokyo.jpg') },
      { record: newyork, imageBytes: readFileSync(FIXTURES + 'newyork.jpg') },
      { record: parisRecord(), imageBytes: readFileSync(FIXTURES + 'paris.jpg') },
      { record: withCapture(sydneyRecord()), missingImage: 'image not found at photos/sydney.jpg' },
      { record: hostileRecord(), missingImage: 'image not found' },
    ];
    const { html, hasMap } = await buildHtmlReport(sources, { generatedAt: '2025-05-14T16:32:07.123Z', cliVersion: 'test' });
    expect(hasMap).toBe(true);
    const file = writeOut('report', 'multi.html', html);

    // The CSP: the two tile hosts and data: images, nothing else loads; no connect, no unsafe-*.
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(csp.split('; ')).toContain('img-src data: https://tile.openstreetmap.org https://server.arcgisonline.com');
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[^ ;]+' 'sha256-[^ ;]+'; style-src 'sha256-[^ ;]+' 'sha256-[^ ;]+'; img-src /);
    expect(csp).not.toMatch(/unsafe|connect-src|\*/);
    // The outlines block: measured, and kept modest.
    const outlines = /<script type="application\/json" id="geo-outlines">([\s\S]*?)<\/script>/.exec(html)![1]!;
    console.log(`report: ${html.length} bytes, of which country outlines ${outlines.length}`);
    expect(outlines.length).toBeLessThan(100_000);

    const { stdout: dom, log } = dumpDom(file);
    // Summary: one row per result, in order, each linking to its section.
    const rows = [...dom.matchAll(/<tr class="summary-row">([\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
    expect(rows).toHaveLength(5);
    rows.forEach((r, i) => {
      has(r, `<a href="#result-${i}">${i + 1}</a>`);
      has(dom, `<section class="result" id="result-${i}">`);
    });
    has(rows[0]!, `>${FIXTURES}tokyo.jpg</a>`);
    has(rows[2]!, '<td data-label="place">Gros-Caillou, Paris, France</td><td class="num" data-label="lat, lng">48.858400, 2.294500</td>');
    // Confidence as the terminal writes it (issue 22), the depth, the service's verdict, the EXIF check.
    expect(rows[2]!).toMatch(/<td class="num" data-label="depth">\d<\/td><td class="num" data-label="confidence">0\.87 high<\/td><td class="advice[^"]*" data-label="service verdict">[^<]+<\/td><td class="v v-agrees" data-label="EXIF check">agrees/);
    has(rows[3]!, '<td class="v v-none" data-label="EXIF check">none</td>');
    has(rows[4]!, '&lt;script&gt;alert(1)&lt;/script&gt;');
    // Overview map: drawn, one numbered estimate per result.
    expect(/<div class="map overview leaflet-container[^"]*" id="map-overview"[^>]*data-drawn="true"/.test(dom)).toBe(true);
    // One numbered point per place: the hostile record sits where Paris does, so they share one.
    expect(count(dom, /<path class="geo-overview leaflet-interactive"/g)).toBe(4);
    expect([...dom.matchAll(/class="leaflet-tooltip geo-num[^"]*"[^>]*><span>([\d, ]+)<\/span>/g)].map((m) => m[1])).toEqual(['1', '2', '3, 5', '4']);
    // Every map (overview + 5): drawn, a scale bar, a layer switcher with both backgrounds, outlines.
    expect(count(dom, /data-drawn="true"/g)).toBe(6);
    expect(count(dom, /<div class="leaflet-control-scale leaflet-control">/g)).toBe(6);
    expect(count(dom, /<div class="leaflet-control-scale-line"[^>]*>\d+ (m|km)<\/div>/g)).toBe(6);
    expect(count(dom, /<div class="leaflet-control-layers leaflet-control-layers-expanded leaflet-control"/g)).toBe(6);
    expect(count(dom, /checked="checked"><span> OpenStreetMap<\/span>/g)).toBe(6);
    expect(count(dom, /<span> Satellite \(Esri World Imagery\)<\/span>/g)).toBe(6);
    expect(count(dom, /<path class="geo-outline"/g)).toBe(6);
    // Labelled: the countries holding a point (hostile's 10,20 is in Chad), once per map.
    const labels = [...dom.matchAll(/geo-country[^>]*><span>([^<]+)<\/span>/g)].map((m) => m[1]!);
    expect(new Set(labels)).toEqual(new Set(['Japan', 'United States of America', 'France', 'Australia', 'Chad']));
    expect(labels).toHaveLength(5 * 6);
    // Map links from the coordinates, per result.
    expect(count(dom, /<a class="maplink" href="https:\/\//g)).toBe(15);
    has(dom, `<a class="maplink" href="${amp('https://www.google.com/maps/search/?api=1&query=48.858400,2.294500')}" rel="noopener noreferrer" target="_blank">Google Maps</a>`);
    has(dom, `href="${amp('https://www.openstreetmap.org/?mlat=48.858400&mlon=2.294500&zoom=17')}"`);
    has(dom, `href="${amp('https://maps.apple.com/?ll=48.858400,2.294500&q=48.858400,2.294500')}"`);
    // Capture time and camera: from the images (tokyo, newyork, paris), the record (sydney), or why not.
    has(dom, '<dt>taken</dt><dd>2023-11-02 09:15 local (UTC+09:00), 2023-11-02 00:15 UTC</dd><dt>camera</dt><dd>SONY ILCE-7M3</dd>');
    has(dom, '<dt>taken</dt><dd>2022-07-04 21:40 local (UTC-04:00), 2022-07-05 01:40 UTC</dd><dt>camera</dt><dd>Google Pixel 7</dd>');
    has(dom, '<dt>taken</dt><dd>2024-05-14 18:32 local (UTC+02:00), 2024-05-14 16:32 UTC</dd><dt>camera</dt><dd>Apple iPhone 13</dd>');
    has(dom, '<dt>taken</dt><dd>2024-01-26 20:05 local (UTC+11:00), 2024-01-26 09:05 UTC (from the stored EXIF check)</dd><dt>camera</dt><dd>Canon EOS R5 (from the stored EXIF check)</dd>');
    has(dom, '<dt>taken</dt><dd>unknown (image not available)</dd>');
    // No time in EXIF's own form (2008:10:22 16:28:39) anywhere a person reads it.
    expect(dom.replace(/<script[\s\S]*?<\/script>/g, '')).not.toMatch(/\b\d{4}:\d\d:\d\d \d\d:\d\d/);
    // Hostile text stayed text; the CSP let Leaflet and our script run and blocked nothing we need.
    expect(dom.includes('<script>alert(1)')).toBe(false);
    expect(consoleLines(log).filter((l) => /Content Security Policy|Uncaught/.test(l))).toEqual([]);

    const png = file.replace(/\.html$/, '.png');
    screenshot(file, png, '1280,2000');
    expect(existsSync(png)).toBe(true);
    expect(statSync(png).size).toBeGreaterThan(50_000);
    expect(readFileSync(png).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    console.log(`multi-result report screenshot: ${png}`);
  });
});
