import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildHtmlReport } from '../../src/output/export/index.js';
import { loadLeafletAssets } from '../../src/output/export/leaflet-assets.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { hostileRecord, parisRecord, sydneyRecord } from '../export/fixtures.js';
import { sandboxRecord } from '../export/sandbox-run.js';
import { writeOut } from '../export/tools.js';
import { CHROMIUM, CHROMIUM_SKIP, consoleLines, dumpDom, screenshot } from './chromium.js';

const LEAFLET = (await loadLeafletAssets()) !== undefined;
const skip = !CHROMIUM ? CHROMIUM_SKIP : !LEAFLET ? 'leaflet package not installed (npm i leaflet)' : '';
const sb = withSandbox();
const count = (html: string, re: RegExp) => (html.match(re) ?? []).length;

describe.skipIf(skip !== '')(`HTML report in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('draws every map with Leaflet offline: estimate, candidates, EXIF point, scope; fills the candidate table', { timeout: 180_000 }, async () => {
    const live = await sandboxRecord(sb.url, 'tokyo.jpg', { depth: 3, scope: { name: 'Tokyo', lat: 35.68, lng: 139.76, radius_km: 30 } });
    const { html, hasMap } = await buildHtmlReport(
      [
        { record: live, imageBytes: readFileSync(FIXTURES + 'tokyo.jpg') },
        { record: parisRecord(), imageBytes: readFileSync(FIXTURES + 'paris.jpg') },
        { record: hostileRecord(), missingImage: 'image not found' },
        { record: sydneyRecord() },
      ],
      { generatedAt: '2025-05-14T16:32:07.123Z', cliVersion: 'test' },
    );
    expect(hasMap).toBe(true);
    const file = writeOut('report', 'report.html', html);

    const { stdout: dom, log } = dumpDom(file);
    expect(count(dom, /<div class="map leaflet-container[^"]*"/g)).toBe(4);
    expect(count(dom, /<div class="map overview leaflet-container/g)).toBe(1);
    expect(count(dom, /data-drawn="true"/g)).toBe(5);
    expect(count(dom, /<path class="geo-estimate leaflet-interactive"/g)).toBe(4);
    const liveCandidates = live.response.body.forensic?.candidates?.length ?? 0;
    expect(count(dom, /<path class="geo-candidate leaflet-interactive"/g)).toBe(3 + liveCandidates + 1);
    expect(count(dom, /<path class="geo-exif leaflet-interactive"/g)).toBe(3); // paris, tokyo (EXIF GPS), hostile
    expect(count(dom, /<path class="geo-scope leaflet-interactive"/g)).toBe(3);
    expect(count(dom, /<tr class="candidate">/g)).toBe(3 + liveCandidates + 1);
    expect(count(dom, /<img src="data:image\/jpeg;base64,/g)).toBe(2);
    // Hostile text stayed text: no element was created from it.
    expect(dom).not.toContain('<script>alert(1)');
    expect(dom).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(live.exif?.verdict).toBe('agrees');
    expect(dom).toContain('verdict verdict-agrees');
    // The CSP let Leaflet and our script run and blocked nothing we need.
    expect(consoleLines(log).filter((l) => /Content Security Policy|Uncaught/.test(l))).toEqual([]);

    const png = file.replace(/\.html$/, '.png');
    screenshot(file, png);
    expect(existsSync(png)).toBe(true);
    expect(statSync(png).size).toBeGreaterThan(10_000);
    expect(readFileSync(png).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    console.log(`report screenshot: ${png}`);
  });
});
