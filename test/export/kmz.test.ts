import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderKMZ } from '../../src/output/export/kmz.js';
import { writeZip } from '../../src/output/export/zip.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { PARIS_SHA, hostileRecord, parisRecord, sydneyRecord } from './fixtures.js';
import { OGRINFO, OGRINFO_SKIP, featureCount, ogrinfo, writeOut, xmlProblems } from './tools.js';
import { unzip } from './unzip.js';

const NOW = Date.UTC(2025, 4, 14, 16, 32, 8);
const UNZIP = spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;
const paris = readFileSync(FIXTURES + 'paris.jpg');
const xmlUnescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
/** Each estimate balloon as Google Earth reads it: the description after the XML layer. */
const balloons = (kml: string) => [...kml.matchAll(/<description>([^<]*)<\/description><styleUrl>#estimate<\/styleUrl>/g)].map((m) => xmlUnescape(m[1]!));

async function threeResults(): Promise<Buffer> {
  return renderKMZ(
    [
      { record: parisRecord(), imageBytes: paris },
      { record: sydneyRecord(), missingImage: 'image not found at photos/sydney.jpg' },
      { record: hostileRecord(), imageBytes: Buffer.from('not an image') },
    ],
    { now: NOW, useSharp: false },
  );
}

describe('KMZ export', () => {
  it('is a zip of doc.kml (first, deflated) and each image (stored) under files/', async () => {
    const entries = unzip(await threeResults());
    expect(entries.map((e) => [e.name, e.method])).toEqual([
      ['doc.kml', 8],
      [`files/${PARIS_SHA.slice(0, 16)}.jpg`, 0],
    ]);
    expect(entries.every((e) => e.utf8Flag)).toBe(true);
    // Without sharp the image is the file without its metadata, pixels untouched (with sharp: an
    // 800 px JPEG without metadata): the archive never carries the photo's GPS or camera.
    const sos = (b: Buffer) => b.subarray(b.indexOf(Buffer.from([0xff, 0xda])));
    expect(sos(entries[1]!.data).equals(sos(paris))).toBe(true);
    expect(entries[1]!.data.includes('iPhone')).toBe(false);
    const kml = entries[0]!.data.toString('utf8');
    expect(kml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">')).toBe(true);
    expect(xmlProblems(kml)).toEqual([]);
  });

  it('puts the image in the estimate balloon, or says why there is none; hostile text stays text in the balloon HTML', async () => {
    const kml = unzip(await threeResults())[0]!.data.toString('utf8');
    const [p, s, h] = balloons(kml);
    expect(p).toMatch(new RegExp(`^<img src="files/${PARIS_SHA.slice(0, 16)}\\.jpg" width="400" alt="analysed image"><br>Champ de Mars, 5 Av\\. Anatole France<br>confidence 87%, depth 3, site_level<br><br>Wrought-iron`));
    expect(s).toContain('<p><i>no image: image not found at photos/sydney.jpg</i></p>');
    expect(h).toContain('<p><i>no image: not an image format a viewer shows</i></p>');
    // After the XML layer the server's markup is still escaped once: HTML text, not elements.
    expect(h).not.toMatch(/<script|<!--/);
    expect(h).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('writes the same archive for the same input and time (DOS time from the clock given)', async () => {
    const [a, b] = [await threeResults(), await threeResults()];
    expect(a.equals(b)).toBe(true);
    const zip = writeZip([{ name: 'a.txt', data: Buffer.from('x'), compress: false }], new Date(NOW));
    // 2025-05-14 16:32:08 UTC as DOS time and date (APPNOTE 4.4.6).
    expect(zip.readUInt16LE(10)).toBe((16 << 11) | (32 << 5) | 4);
    expect(zip.readUInt16LE(12)).toBe(((2025 - 1980) << 9) | (5 << 5) | 14);
  });

  it.skipIf(!UNZIP)(`passes unzip -t${UNZIP ? '' : ' (skipped: unzip missing: apt-get install -y unzip)'}`, async () => {
    const path = writeOut('export', 'three.kmz', await threeResults());
    const r = spawnSync('unzip', ['-t', path], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('No errors detected');
    expect(r.stdout).toMatch(/testing: doc\.kml\s+OK/);
  });

  it.skipIf(!OGRINFO)(`is read by ogrinfo -ro -al -so${OGRINFO ? '' : ` (skipped: ${OGRINFO_SKIP})`}`, async () => {
    const path = writeOut('export', 'three.kmz', await threeResults());
    const summary = ogrinfo(path);
    console.log(`[ogrinfo -ro -al -so ${path}]\n${summary.split('\n').filter((l) => /^(INFO|Layer name|Feature Count)/.test(l)).join('\n')}`);
    expect(summary).toMatch(/using driver `LIBKML' successful/);
    // One layer per result folder; the same 11 features as the plain KML (kml.test.ts).
    expect([...summary.matchAll(/^Layer name: (.+)$/gm)].map((m) => m[1])).toEqual(['fixtures/images/paris.jpg', 'photos/sydney.jpg', expect.stringMatching(/^evil/)]);
    expect(featureCount(summary)).toBe(11);
  });
});
