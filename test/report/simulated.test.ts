/**
 * Issue 30, "every place a person reads a result marks a sandbox answer as simulated": the HTML
 * report opens with a banner above every map, and each sandbox result's section and summary row
 * carry the mark, where a real service's answer carries none. The sandbox's answer comes from the
 * sandbox over HTTP (its header), the real one from an independent node:http server that sends no
 * such header. Chromium runs with no network and no virtual-time budget: what is checked is what
 * the page shows when it opens.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED } from '../../src/evidence/simulated.js';
import { buildHtmlReport } from '../../src/output/export/index.js';
import { loadLeafletAssets } from '../../src/output/export/leaflet-assets.js';
import type { ProvenanceRecord } from '../../src/evidence/records.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { forensicBody } from '../export/fixtures.js';
import { sandboxRecord } from '../export/sandbox-run.js';
import { writeOut } from '../export/tools.js';
import { type FakeApi, ok, startFakeApi } from '../tolerant/fake-server.js';
import { CHROMIUM, CHROMIUM_SKIP, dumpDomAtLoad, screenshotAtLoad } from './chromium.js';

const LEAFLET = (await loadLeafletAssets()) !== undefined;
const sb = withSandbox();
let real: FakeApi;
beforeAll(async () => {
  real = await startFakeApi();
  real.answers.geolocate = ok(forensicBody({ analysis_id: 'an_real_service', reasoning: 'Neon signage in Japanese; narrow street.' }));
});
afterAll(() => real.close());

/** The sandbox's answer for Paris and a real service's for Tokyo, each built as locate builds it. */
async function records(): Promise<{ sandbox: ProvenanceRecord; service: ProvenanceRecord }> {
  return { sandbox: await sandboxRecord(sb.url, 'paris.jpg', { depth: 3 }), service: await sandboxRecord(real.url, 'tokyo.jpg', { depth: 3 }) };
}

async function report(recs: ProvenanceRecord[], files: string[]): Promise<string> {
  const { html, hasMap } = await buildHtmlReport(recs.map((record, i) => ({ record, imageBytes: readFileSync(FIXTURES + files[i]) })), { generatedAt: '2025-05-14T16:32:07.123Z', cliVersion: 'test' });
  expect(hasMap).toBe(LEAFLET);
  return html;
}

/** Each result's section of the page, in order. */
const sections = (html: string) => html.split('<section class="result" id="result-').slice(1).map((s) => s.slice(0, s.indexOf('</section>')));
const firstMap = (html: string) => html.search(/<div class="map[ "]/);

describe('the HTML report marks a sandbox answer as simulated', () => {
  it('a sandbox answer and a real one: the banner counts one, above the overview map; only the sandbox result\'s section and row carry the mark', async () => {
    const { sandbox, service } = await records();
    expect([sandbox.sandbox, service.sandbox]).toEqual([true, undefined]);
    const html = await report([sandbox, service], ['paris.jpg', 'tokyo.jpg']);
    const banner = html.indexOf('<div class="simulated-banner"');
    expect(banner).toBeGreaterThan(html.indexOf('<main>'));
    expect(html.slice(banner)).toMatch(/^<div class="simulated-banner" id="simulated" role="alert"><strong>1 simulated answer \(sandbox\): not evidence \(1 of 2 results, each marked below\)<\/strong>/);
    // Above every map, the overview's included, and above the summary table.
    if (LEAFLET) expect(banner).toBeLessThan(firstMap(html));
    expect(banner).toBeLessThan(html.indexOf('<table class="summary">'));
    const [paris, tokyo] = sections(html);
    // The mark opens the sandbox result's section, above its place name and its map.
    expect(paris).toMatch(new RegExp(`^0">\\n<p class="simulated" role="note"><strong>${SIMULATED.replace(/[()]/g, '\\$&')}</strong></p>\\n<h2>`));
    expect(tokyo!.includes('simulated'), 'the real result\'s section has no mark').toBe(false);
    const rows = [...html.matchAll(/<tr class="summary-row">([\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
    expect(rows[0]).toContain(`<span class="simulated-tag">${SIMULATED}</span>`);
    expect(rows[1]).not.toContain('simulated');
  });

  it('one sandbox answer: the banner says it is simulated, above the result\'s map', async () => {
    const { sandbox } = await records();
    const html = await report([sandbox], ['paris.jpg']);
    expect(html.includes('<div class="simulated-banner" id="simulated" role="alert"><strong>Simulated answer (sandbox): not evidence</strong>'), 'the banner').toBe(true);
    if (LEAFLET) expect(html.indexOf('simulated-banner')).toBeLessThan(firstMap(html));
  });

  it('a real service\'s answer alone: no banner, no mark', async () => {
    const { service } = await records();
    const html = await report([service], ['tokyo.jpg']);
    expect(/class="simulated/.test(html), 'no banner, no mark').toBe(false);
    expect(html.includes(SIMULATED), 'no mark').toBe(false);
  });

  describe.skipIf(!CHROMIUM)(`in headless Chromium${CHROMIUM ? '' : ` (skipped: ${CHROMIUM_SKIP})`}`, () => {
    it('the banner is the first thing in the page after its title, and fills a band of the first screen', { timeout: 120_000 }, async () => {
      const { sandbox, service } = await records();
      const file = writeOut('report', 'simulated.html', await report([sandbox, service], ['paris.jpg', 'tokyo.jpg']));
      const { stdout: dom } = dumpDomAtLoad(file);
      const main = dom.slice(dom.indexOf('<main>') + '<main>'.length).trimStart();
      expect(main.startsWith('<div class="simulated-banner" id="simulated" role="alert">')).toBe(true);
      if (LEAFLET) expect(dom.indexOf('simulated-banner')).toBeLessThan(dom.search(/<div class="map[ "]/));
      const png = file.replace(/\.html$/, '.png');
      screenshotAtLoad(file, png, '1200,900');
      expect(existsSync(png)).toBe(true);
      // The banner's amber (#fff3cd, used for nothing else) covers at least 600 x 40 px of the first screen.
      const { default: sharp } = await import('sharp');
      const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      let amber = 0;
      for (let i = 0; i < data.length; i += info.channels) if (data[i] === 0xff && data[i + 1] === 0xf3 && data[i + 2] === 0xcd) amber++;
      expect(amber).toBeGreaterThan(600 * 40);
      console.log(`simulated banner screenshot: ${png}`);
    });
  });
});
