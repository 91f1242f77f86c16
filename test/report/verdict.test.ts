/**
 * Issue 22, "The report keeps the service's verdict": a depth-3 result whose calibration says
 * abstain shows that verdict at the top of its section, in the DOM and in the first screen of a
 * screenshot (its colours counted in the pixels, with sharp); a report of several results keeps
 * every summary column at 420 px, each row a block of labelled lines. Chromium runs with no
 * network and no virtual-time budget: what is checked is the HTML itself, not what Leaflet draws.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildHtmlReport } from '../../src/output/export/index.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { parisRecord } from '../export/fixtures.js';
import { sandboxRecord } from '../export/sandbox-run.js';
import { writeOut } from '../export/tools.js';
import { CHROMIUM, CHROMIUM_SKIP, dumpDomAtLoad, screenshotAtLoad } from './chromium.js';

const sb = withSandbox();

/** Pixels of exactly this colour in a PNG (sharp decodes it). */
async function pixelsOf(png: string, [r, g, b]: [number, number, number]): Promise<number> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n++;
  return n;
}
/** .calibration-abstain's background (#fdecec): used nowhere else in the report. */
const ABSTAIN_BG: [number, number, number] = [0xfd, 0xec, 0xec];

describe.skipIf(!CHROMIUM)(`the report keeps the service's verdict${CHROMIUM ? '' : ` (skipped: ${CHROMIUM_SKIP})`}`, () => {
  it('a depth-3 result with abstain: true shows the verdict first, in the DOM and in the first screen', { timeout: 120_000 }, async () => {
    const rec = await sandboxRecord(sb.url, 'nogps.jpg', { depth: 3 });
    const cal = rec.response.body.calibration as Record<string, unknown>;
    expect(cal, 'the sandbox answers this photo with a synthetic, abstaining result').toMatchObject({ abstain: true, publish_policy: 'abstain: do not publish this location' });
    const { html } = await buildHtmlReport([{ record: rec, imageBytes: readFileSync(FIXTURES + 'nogps.jpg') }], { generatedAt: '2025-05-14T16:32:07.123Z', cliVersion: 'test' });
    const file = writeOut('report', 'verdict.html', html);
    const { stdout: dom } = dumpDomAtLoad(file);
    const block = /<div class="calibration calibration-abstain"[^>]*>([\s\S]*?)<\/div>/.exec(dom)?.[1] ?? '';
    expect(block).toContain('<strong>Service verdict: abstain</strong> — abstain: do not publish this location');
    expect(block).toContain('<dt>abstain</dt><dd>true</dd>');
    expect(block).toContain(`<dt>abstain_below</dt><dd>${cal.abstain_below}</dd>`);
    // Before the image, the facts and the map: right under the heading.
    expect(dom.indexOf('calibration-abstain')).toBeLessThan(dom.indexOf('<div class="top">'));
    expect(dom).toContain(`<dt>confidence</dt><dd>${rec.response.body.confidence.toFixed(2)} `);
    const png = file.replace(/\.html$/, '.png');
    screenshotAtLoad(file, png, '1200,900');
    expect(existsSync(png)).toBe(true);
    // The verdict's background fills a band of the first screen (at least 600 x 40 px).
    expect(await pixelsOf(png, ABSTAIN_BG)).toBeGreaterThan(600 * 40);
    console.log(`verdict screenshot: ${png}`);
  });

  it('a report of several results at 420 px: every summary column, with depth and the verdict', { timeout: 120_000 }, async () => {
    const abstaining = await sandboxRecord(sb.url, 'nogps.jpg', { depth: 3 });
    const tokyo = await sandboxRecord(sb.url, 'tokyo.jpg', { depth: 3 });
    const { html } = await buildHtmlReport(
      [
        { record: abstaining, imageBytes: readFileSync(FIXTURES + 'nogps.jpg') },
        { record: tokyo, imageBytes: readFileSync(FIXTURES + 'tokyo.jpg') },
        { record: parisRecord(), imageBytes: readFileSync(FIXTURES + 'paris.jpg') },
      ],
      { generatedAt: '2025-05-14T16:32:07.123Z', cliVersion: 'test' },
    );
    const file = writeOut('report', 'narrow.html', html);
    const { stdout: dom } = dumpDomAtLoad(file);
    const rows = [...dom.matchAll(/<tr class="summary-row">([\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect([...r.matchAll(/data-label="([^"]+)"/g)].map((m) => m[1])).toEqual(['input', 'place', 'lat, lng', 'depth', 'confidence', 'service verdict', 'EXIF check']);
    }
    expect(rows[0]).toContain('<td class="advice advice-abstain" data-label="service verdict">abstain</td>');
    expect(rows[0]).toContain('<td class="num" data-label="depth">3</td>');
    // The narrow layout is the report's own CSS, which the CSP allows (hashed).
    expect(html).toContain('@media (max-width: 560px)');
    const png = file.replace(/\.html$/, '.png');
    screenshotAtLoad(file, png, '420,1600');
    expect(existsSync(png)).toBe(true);
    const { default: sharp } = await import('sharp');
    expect((await sharp(png).metadata()).width).toBe(420);
    console.log(`420 px screenshot: ${png}`);
  });
});
