/**
 * The sun as a witness on the report's map: the shadow direction drawn from the estimate, at the
 * bearing the sun gives, in headless Chromium with no network; the sun line beside the EXIF check.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildHtmlReport } from '../../src/output/export/index.js';
import { loadLeafletAssets } from '../../src/output/export/leaflet-assets.js';
import { sunWitness } from '../../src/evidence/sun-witness.js';
import type { ProvenanceRecord } from '../../src/evidence/record-types.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { parisRecord, sydneyRecord } from '../export/fixtures.js';
import { writeOut } from '../export/tools.js';
import { CHROMIUM, CHROMIUM_SKIP, dumpDom } from './chromium.js';

const LEAFLET = (await loadLeafletAssets()) !== undefined;
const skip = !CHROMIUM ? CHROMIUM_SKIP : !LEAFLET ? 'leaflet package not installed (npm i leaflet)' : '';

/** A record whose corroboration block carries the sun at its estimate for this EXIF time. */
function withSun(rec: ProvenanceRecord, dateTimeOriginal: string, offsetTime: string): ProvenanceRecord {
  const at = { lat: rec.response.body.location.latitude, lng: rec.response.body.location.longitude };
  return { ...rec, exif: { ...rec.exif!, sun: sunWitness({ dateTimeOriginal, offsetTime }, at, 'estimate') } };
}

describe('the report and the sun', () => {
  it('says the sun line beside the EXIF check, and the legend names the shadow only where there is one', async () => {
    const day = withSun(parisRecord(), '2024:05:14 18:32:07', '+02:00');
    const night = withSun(sydneyRecord(), '2024:01:26 23:05:10', '+11:00');
    const { html } = await buildHtmlReport([{ record: day }, { record: night }], { generatedAt: '2025-05-14T16:32:07.123Z', cliVersion: 'test' });
    expect(html).toMatch(/<p class="verdict sun">sun 2\d\d° az, \d+° elev at the estimate, 2024-05-14 18:32 there and on the photo&#39;s clock \(UTC\+02:00, EXIF OffsetTimeOriginal\): shadows point \w+ \(\d+°\), about [\d.]+× the height of what casts them<\/p>/);
    expect(html).toMatch(/<p class="verdict sun">sun below the horizon \([\d.]+° below, \d+° az\) at the estimate, 2024-01-26 23:05 there and on the photo&#39;s clock \(UTC\+11:00, EXIF OffsetTimeOriginal\): night, no sunlight<\/p>/);
    expect(html.match(/<span class="l-shadow">/g)).toHaveLength(1);
  });

  describe.skipIf(skip !== '')(`in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
    it('draws the shadow from the estimate at the sun\'s opposite bearing', { timeout: 120_000 }, async () => {
      const rec = withSun(parisRecord(), '2024:05:14 18:32:07', '+02:00');
      const want = (rec.exif!.sun as { shadow: { directionDeg: number } }).shadow.directionDeg;
      const { html } = await buildHtmlReport([{ record: rec, imageBytes: readFileSync(FIXTURES + 'paris.jpg') }], { generatedAt: '2025-05-14T16:32:07.123Z', cliVersion: 'test' });
      const { stdout: dom } = dumpDom(writeOut('report', 'shadow.html', html));
      const path = /<path class="geo-shadow leaflet-interactive"[^>]* d="M(-?[\d.]+) (-?[\d.]+)L(-?[\d.]+) (-?[\d.]+)"/.exec(dom);
      expect(path, 'a shadow line on the map').not.toBeNull();
      const [x1, y1, x2, y2] = path!.slice(1).map(Number) as [number, number, number, number];
      // Screen y grows downwards; a bearing is clockwise from north (up).
      const drawn = ((Math.atan2(x2 - x1, y1 - y2) * 180) / Math.PI + 360) % 360;
      expect(Math.abs(drawn - want)).toBeLessThan(2);
      expect(Math.hypot(x2 - x1, y2 - y1)).toBeGreaterThan(60);
    });
  });
});
