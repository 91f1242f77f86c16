/**
 * Issue 20, item 4: server text is data in every file format. An independent server answers
 * `geo locate` with strings built to become markup or formulas (the issue's `</p><script>…` and
 * `Tokyo;=1+1`, event-handler attributes, CDATA and comment breakers); geo writes KML, KMZ and CSV
 * from that answer, and the files are parsed back as their readers would (test/helpers/
 * parse-back.ts): KML with a strict XML parser, each <description> then as HTML (Google Earth's
 * balloon), names and ExtendedData values as text; CSV with `,` and with `;` as the separator.
 * No element, attribute or formula survives, and the strings are still there as text.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeApi, ok, startFakeApi } from '../tolerant/fake-server.js';
import { elementsNamed, htmlTokens, parseXml, readCsv, textOf } from '../helpers/parse-back.js';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { forensicBody } from './fixtures.js';
import { unzip } from './unzip.js';

const SCRIPT = '</p><script>alert(1)</script><img src=x onerror=alert(2)>';
const BREAKERS = ']]><!-- --> </description><description><a href="javascript:alert(3)">x</a>';
const ANSWER = forensicBody({
  analysis_id: 'an_hostile',
  reasoning: `${SCRIPT}\n${BREAKERS}`,
  location: { latitude: 35.68, longitude: 139.76, country: '=HYPERLINK("http://evil","x")', city: 'Tokyo;=1+1', neighborhood: '+SUM(1,2)', address: '@cmd, x;-2+3;\t=4,"=5"' },
  forensic: {
    precision_tier: 'city_level',
    verification_status: 'unverified',
    supports: [`<svg onload=alert(4)>`, 'a;@b'],
    contradictions: ['=1+1'],
    candidates: [{ lat: 35.7, lng: 139.7, label: '<b onmouseover=alert(6)>Shinjuku</b>', confidence: 40, supports: [SCRIPT], contradictions: [`<iframe src="javascript:alert(5)"></iframe>`] }],
  },
});

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
  api.answers.geolocate = ok(ANSWER);
});
afterAll(async () => api.close());

async function locate(format: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'geo-hostile-fmt-'));
  const r = await runCli(['locate', join(FIXTURES, 'paris.jpg'), '--format', format], {
    env: { GEO_API_KEY: 'orca_live_hostileformats01', GEO_BASE_URL: api.url, GEO_DATA_DIR: join(dir, 'data'), GEO_STATE_DIR: join(dir, 'state') },
  });
  expect(r.code, r.stderr).toBe(0);
  return r.stdoutBytes!;
}

/** What a balloon may hold: geo's own line breaks, and in a KMZ its image (files/…) and the "no image" note. */
const ALLOWED_TAGS: Record<string, string[]> = { br: [], p: [], i: [], img: ['src', 'width', 'alt'] };

function checkKml(kml: string): void {
  const doc = parseXml(kml); // throws if a server string broke the XML
  const placemarks = elementsNamed(doc, 'Placemark');
  expect(placemarks.length).toBeGreaterThanOrEqual(2); // the estimate and the candidate at least
  let seen = '';
  for (const pm of placemarks) {
    for (const name of elementsNamed(pm, 'name')) seen += textOf(name);
    for (const value of elementsNamed(pm, 'value')) textOf(value);
    for (const d of elementsNamed(pm, 'description')) {
      const { tags, text } = htmlTokens(textOf(d));
      for (const tag of tags) {
        expect(Object.keys(ALLOWED_TAGS), `<${tag.name}> in a description`).toContain(tag.name);
        for (const attr of Object.keys(tag.attrs)) expect(ALLOWED_TAGS[tag.name], `${attr} on <${tag.name}>`).toContain(attr);
        if (tag.name === 'img') expect(tag.attrs.src).toMatch(/^files\/[0-9a-f]{16}\.(jpg|png)$/);
      }
      seen += text;
    }
  }
  // Shown as text, not dropped: the reader sees the server's words.
  expect(seen).toContain('<script>alert(1)</script><img src=x onerror=alert(2)>');
  expect(seen).toContain('<b onmouseover=alert(6)>Shinjuku</b>');
  expect(seen).toContain('<iframe src="javascript:alert(5)"></iframe>');
}

describe('hostile server strings parsed back from the files geo writes', () => {
  it('the control: the parsers do see markup when it is there', () => {
    expect(htmlTokens(SCRIPT).tags.map((t) => t.name)).toEqual(['p', 'script', 'script', 'img']);
    expect(Object.keys(htmlTokens(SCRIPT).tags[3]!.attrs)).toEqual(['src', 'onerror']);
    expect(() => parseXml(`<a><description>${BREAKERS}</description></a>`)).toThrow();
    expect(readCsv('Tokyo;=1+1\r\n', ';')).toEqual([['Tokyo', '=1+1']]);
  });

  it('KML: well-formed XML; descriptions hold no element or attribute but geo\'s <br>', async () => {
    checkKml((await locate('kml')).toString('utf8'));
  });

  it('KMZ: the same for doc.kml, whose balloons carry the image and the estimate\'s and candidates\' text', async () => {
    const entries = unzip(await locate('kmz'));
    expect(entries[0]!.name).toBe('doc.kml');
    const kml = entries[0]!.data.toString('utf8');
    expect(kml).toContain('&lt;img src=&quot;files/'); // the balloon form, with its image
    checkKml(kml);
  });

  it('CSV: read with "," and with ";", no cell starts a formula (= + - @ tab CR), and the strings are there', async () => {
    const csv = (await locate('csv')).toString('utf8');
    const number = /^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/;
    for (const sep of [',', ';'] as const) {
      const rows = readCsv(csv, sep);
      expect(rows.length, sep).toBe(2);
      for (const cell of rows.flat()) {
        if (number.test(cell)) continue; // a plain number is a number, not a formula
        expect(cell, `a cell read with "${sep}"`).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
    const [head, row] = readCsv(csv, ',') as [string[], string[]];
    const cell = (name: string) => row[head.indexOf(name)]!;
    expect(cell('city')).toBe("Tokyo;'=1+1");
    expect(cell('country')).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(cell('neighborhood')).toBe("'+SUM(1,2)");
    expect(cell('address')).toBe(`'@cmd, x;'-2+3;'\t=4,'"=5"`);
  });
});
