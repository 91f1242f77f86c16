/**
 * The `geo eval --report` page in headless Chromium, offline: both charts draw (inline SVG, no
 * script), the CSP blocks nothing the page needs, and a screenshot is saved for a person to look at.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, modelAnswer } from '../eval/fake-model.js';
import { OUT_DIR } from '../export/tools.js';
import { type FakeApi, withFakeApi } from '../tolerant/fake-server.js';
import { geo } from '../tolerant/helpers.js';
import { CHROMIUM, CHROMIUM_SKIP, consoleLines, dumpDom, screenshot } from './chromium.js';

let api: FakeApi;
withFakeApi((a) => (api = a));
const count = (html: string, re: RegExp) => (html.match(re) ?? []).length;

describe.skipIf(!CHROMIUM)(`eval report in headless Chromium${CHROMIUM ? '' : ` (skipped: ${CHROMIUM_SKIP})`}`, () => {
  it('draws the error CDF and the reliability diagram for depths 1 and 3, blocks nothing, and screenshots', { timeout: 180_000 }, async () => {
    api.answers.geolocate = modelAnswer;
    const dir = join(OUT_DIR, 'eval');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'eval.html');
    const images = ['paris.jpg', 'tokyo.jpg', 'sydney.jpg', 'newyork.jpg'].map((f) => join(FIXTURES, f));
    const r = await geo(api, ['eval', ...images, '--depth', '1,3', '--yes', '--report', file, '--json']);
    expect(r.code, r.stderr).toBe(0);

    const { stdout: dom, log } = dumpDom(file);
    expect(count(dom, /<svg class="chart"/g)).toBe(2);
    // One CDF step line per depth; one dot per non-empty bin per depth (4 each: every answer in its own bin).
    expect(count(dom, /<path d="M[^"]+" fill="none" stroke="#247ad6"/g)).toBe(1);
    expect(count(dom, /<path d="M[^"]+" fill="none" stroke="#d62424"/g)).toBe(1);
    expect(count(dom, /<circle [^>]*fill="#247ad6"/g)).toBe(4);
    expect(count(dom, /<circle [^>]*fill="#d62424"/g)).toBe(4);
    expect(count(dom, /<section>/g)).toBe(5); // figures, charts, two calibrations, images
    expect(consoleLines(log).filter((l) => /Content Security Policy|Uncaught|Refused/.test(l))).toEqual([]);

    const png = file.replace(/\.html$/, '.png');
    // Tall enough for the figures, both charts and the calibration tables in one picture.
    screenshot(file, png, '1200,1800');
    expect(existsSync(png)).toBe(true);
    expect(statSync(png).size).toBeGreaterThan(10_000);
    expect(readFileSync(png).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    console.log(`eval report screenshot: ${png}`);
  });
});
