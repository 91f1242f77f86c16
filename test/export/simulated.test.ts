/**
 * Issue 30: a sandbox's answer is marked simulated in every export a person opens. KMZ: each
 * balloon of its result opens with the mark (above the image), and its estimate carries
 * `sandbox: true`; CSV's `sandbox` column holds the mark; GeoJSON features say `sandbox: true`;
 * NDJSON keeps it so geo export reads it back, and locate's own NDJSON (no such field) is known by
 * the sandbox's words. The sandbox answers over HTTP with its header; the real service is an
 * independent node:http server that sends none, and nothing of it is marked.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjsonResults } from '../../src/evidence/records.js';
import type { ProvenanceRecord } from '../../src/evidence/records.js';
import { SIMULATED, isSimulated } from '../../src/evidence/simulated.js';
import { renderExport, renderKMZ } from '../../src/output/export/index.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { forensicBody } from './fixtures.js';
import { sandboxRecord } from './sandbox-run.js';
import { OGRINFO, featureCount, ogrinfo, writeOut, xmlProblems } from './tools.js';
import { unzip } from './unzip.js';
import { type FakeApi, ok, startFakeApi } from '../tolerant/fake-server.js';

const sb = withSandbox();
let real: FakeApi;
let sandbox: ProvenanceRecord;
let service: ProvenanceRecord;
beforeAll(async () => {
  real = await startFakeApi();
  real.answers.geolocate = ok(forensicBody({ analysis_id: 'an_real_service', reasoning: 'Neon signage in Japanese; narrow street.' }));
  sandbox = await sandboxRecord(sb.url, 'nogps.jpg', { depth: 3 });
  service = await sandboxRecord(real.url, 'tokyo.jpg', { depth: 3 });
});
afterAll(() => real.close());

const xmlUnescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
/** Each Folder of a KML document with the balloons (descriptions, as Google Earth reads them) of its placemarks. */
function folders(kml: string): Array<{ name: string; balloons: string[]; data: string }> {
  return [...kml.matchAll(/<Folder><name>([^<]*)<\/name>([\s\S]*?)<\/Folder>/g)].map((m) => ({
    name: xmlUnescape(m[1]!),
    balloons: [...m[2]!.matchAll(/<description>([^<]*)<\/description>/g)].map((d) => xmlUnescape(d[1]!)),
    data: m[2]!,
  }));
}

describe('exports mark a sandbox answer as simulated', () => {
  it('the records: the sandbox\'s header marks its answer, the real service\'s is not marked', () => {
    expect([isSimulated(sandbox), isSimulated(service)]).toEqual([true, false]);
  });

  it('KMZ: every balloon of the sandbox result opens with the mark, above its image; the real result\'s balloons carry none', async () => {
    const kmz = await renderKMZ([{ record: sandbox, imageBytes: readFileSync(FIXTURES + 'nogps.jpg') }, { record: service, imageBytes: readFileSync(FIXTURES + 'tokyo.jpg') }], { now: Date.UTC(2025, 4, 14), useSharp: false });
    const entries = unzip(kmz);
    const kml = entries.find((e) => e.name === 'doc.kml')!.data.toString('utf8');
    expect(xmlProblems(kml)).toEqual([]);
    const [sim, real] = folders(kml);
    expect(sim!.name).toMatch(/^\[sandbox\] \S+nogps\.jpg$/);
    // Estimate and candidates: each one a balloon that says it first.
    expect(sim!.balloons.length).toBeGreaterThan(1);
    for (const b of sim!.balloons) expect(b.startsWith(`<p><b>${SIMULATED}</b></p>`), b.slice(0, 80)).toBe(true);
    expect(sim!.balloons[0]).toMatch(new RegExp(`^<p><b>${SIMULATED.replace(/[()]/g, '\\$&')}</b></p><img src="files/[0-9a-f]{16}\\.jpg"`));
    expect(sim!.data).toContain('<Data name="sandbox"><value>true</value></Data>');
    expect(real!.name).toMatch(/^\S+tokyo\.jpg$/);
    expect(real!.balloons.length).toBeGreaterThan(1);
    for (const b of real!.balloons) expect(b).not.toContain('simulated');
    expect(real!.data).not.toContain('sandbox');
    if (OGRINFO) expect(featureCount(ogrinfo(writeOut('export', 'simulated.kmz', kmz)))).toBeGreaterThan(2);
  });

  it('CSV: the sandbox column holds the mark for the sandbox\'s answer, nothing for the real one', () => {
    const rows = renderExport('csv', [sandbox, service]).trimEnd().split('\r\n');
    // The sandbox column, then the one added after it (reused_similar: empty for both).
    expect(rows[0]!.split(',').slice(-2)).toEqual(['sandbox', 'reused_similar']);
    expect(rows[1]!.endsWith(`,${SIMULATED},`)).toBe(true);
    expect(rows[2]!.endsWith(',,')).toBe(true);
  });

  it('GeoJSON: every feature of the sandbox\'s answer has sandbox: true, none of the real one\'s', () => {
    const fc = JSON.parse(renderExport('geojson', [sandbox, service])) as { features: Array<{ properties: Record<string, unknown> }> };
    const of = (sha: string) => fc.features.filter((f) => f.properties.sha256 === sha);
    expect(of(sandbox.input.sha256).length).toBeGreaterThan(1);
    expect(of(sandbox.input.sha256).every((f) => f.properties.sandbox === true)).toBe(true);
    expect(of(service.input.sha256).some((f) => 'sandbox' in f.properties)).toBe(false);
  });

  it('NDJSON keeps the mark through a file: exported lines say sandbox: true and are read back marked; locate\'s own lines are known by the sandbox\'s words', () => {
    const lines = renderExport('ndjson', [sandbox, service]).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.sandbox)).toEqual([true, undefined]);
    expect(parseNdjsonResults(lines.map((l) => JSON.stringify(l)).join('\n'), 'run.ndjson').map(isSimulated)).toEqual([true, false]);
    // Locate's NDJSON has no sandbox field: the sandbox's reasoning ("[sandbox] …") still marks it.
    const plain = lines.map(({ sandbox: _, ...l }) => JSON.stringify(l)).join('\n');
    expect(String((lines[0]!.result as { reasoning: string }).reasoning)).toMatch(/^\[sandbox\] /);
    expect(parseNdjsonResults(plain, 'locate.ndjson').map(isSimulated)).toEqual([true, false]);
  });
});
