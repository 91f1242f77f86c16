/**
 * geo export --case draws the case's investigation after its results: the conclusion as its
 * uncertainty circle (confidence, within_m, because, entry), each place ruled out (a circle and a
 * GeoJSON polygon, with why), and the points the observations and hypotheses name (a result's
 * estimate, a candidate) with the note's text; marked simulated on a sandbox's case. GeoJSON, KML
 * and KMZ; ogrinfo reads the GeoJSON and the KML; a hostile note stays text.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedArea } from '../../src/output/export/geometry.js';
import { haversineKm } from '../../src/places/distance.js';
import { tmp } from '../cases/helpers.js';
import { withSandbox } from '../helpers/sandbox.js';
import { HOSTILE_NOTE, POLYGON, type WorkedCase, workedCase } from '../report/case-fixture.js';
import { OGRINFO, OGRINFO_SKIP, featureCount, ogrinfo, writeOut, xmlProblems } from './tools.js';
import { unzip } from './unzip.js';

const sb = withSandbox();
type Feature = { geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> };
let w: WorkedCase;
let features: Feature[];
let geojson: string;
let kml: string;
let sources: Array<{ lat: number; lng: number }>;

beforeAll(async () => {
  w = await workedCase(sb);
  const g = await w.run(['export', '--case', w.id, '--format', 'geojson']);
  expect(g.code, g.stderr).toBe(0);
  geojson = g.stdout;
  features = (JSON.parse(geojson) as { features: Feature[] }).features;
  const k = await w.run(['export', '--case', w.id, '--format', 'kml']);
  expect(k.code, k.stderr).toBe(0);
  kml = k.stdout;
  sources = (JSON.parse((await w.run(['cases', 'report', w.id, '--json', 'sources'])).stdout) as { sources: Array<{ lat: number; lng: number }> }).sources;
}, 90_000);

const role = (r: string) => features.filter((f) => f.properties.role === r);

describe('geo export --case: GeoJSON', () => {
  it('the conclusion is its uncertainty circle, with its confidence, radius, grounds and entry', () => {
    const [c, ...more] = role('conclusion');
    expect(more).toEqual([]);
    expect(c!.geometry.type).toBe('Polygon');
    expect(c!.properties).toMatchObject({ confidence: 'probable', within_m: 500, because: 'the cranes and the tower line up', place: 'Champ de Mars', sandbox: true });
    expect(c!.properties.entry).toEqual(expect.any(Number));
    expect(c!.properties.superseded).toMatch(/^\d+$/);
    const ring = (c!.geometry.coordinates as Array<Array<[number, number]>>)[0]!;
    expect(signedArea(ring)).toBeGreaterThan(0);
    for (const [lng, lat] of ring) expect(haversineKm(48.8584, 2.2945, lat, lng)).toBeCloseTo(0.5, 3);
  });

  it('each place ruled out: the circle around a point, the area file\'s polygon, and why', () => {
    const [circle, area] = role('ruled_out');
    expect(circle!.properties).toMatchObject({ because: 'no harbour there', place: 'Saint-Denis', within_km: 3, area: null, sandbox: true });
    for (const [lng, lat] of (circle!.geometry.coordinates as Array<Array<[number, number]>>)[0]!) expect(haversineKm(48.936, 2.357, lat, lng)).toBeCloseTo(3, 3);
    expect(area!.geometry).toEqual({ type: 'Polygon', coordinates: [POLYGON] });
    expect(area!.properties).toMatchObject({ because: 'the quay is further west', area: 'south.geojson', within_km: null });
  });

  it('the observations\' and hypotheses\' points: where their results and candidates are, with the note\'s text', () => {
    const notes = features.filter((f) => f.properties.role === 'observation' || f.properties.role === 'hypothesis');
    expect(notes.map((n) => [n.properties.role, n.properties.target])).toEqual([['observation', 'r1'], ['hypothesis', 'r1.cand1'], ['observation', 'r3']]);
    expect(notes[0]!.geometry).toEqual({ type: 'Point', coordinates: [sources[0]!.lng, sources[0]!.lat] });
    expect(notes[0]!.properties.note).toBe('Cranes on the left quay, painted red.');
    expect(notes[2]!.geometry.coordinates).toEqual([sources[2]!.lng, sources[2]!.lat]);
    expect(notes[1]!.geometry.coordinates).not.toEqual(notes[0]!.geometry.coordinates);
  });

  it('a hostile note is kept as data, its terminal escape written as a JSON escape', () => {
    expect(geojson).not.toContain('\u001b');
    expect(geojson).toContain('\\u001b[31mred');
    expect(role('observation').at(-1)!.properties.note).toBe(HOSTILE_NOTE);
  });
});

describe('geo export --case: KML and KMZ', () => {
  it('the investigation is a Document of its own, styled by role, marked sandbox; hostile text escaped', () => {
    expect(xmlProblems(kml)).toEqual([]);
    expect(kml).toContain('<Document><name>[sandbox] case Harbour fire: the investigation</name>');
    const inv = kml.slice(kml.indexOf('the investigation</name>'));
    expect([...inv.matchAll(/<styleUrl>#(\w+)<\/styleUrl>/g)].map((m) => m[1])).toEqual(['conclusion', 'ruled_out', 'ruled_out', 'observation', 'hypothesis', 'observation']);
    expect(inv).toContain('<Data name="within_m"><value>500</value></Data>');
    expect(inv).toContain('<Data name="sandbox"><value>true</value></Data>');
    expect(inv).toContain(`${[...POLYGON].map(([lng, lat]) => `${lng},${lat},0`).join(' ')}`);
    expect(kml).not.toMatch(/<script|\u001b/);
    expect(kml).toContain('&amp;lt;script&amp;gt;alert(1)');
  });

  it('a KMZ carries the same Document in doc.kml', async () => {
    const out = join(tmp('geo-case-kmz-'), 'case.kmz');
    const r = await w.run(['export', '--case', w.id, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const { readFileSync } = await import('node:fs');
    const doc = unzip(readFileSync(out)).find((e) => e.name === 'doc.kml')!.data.toString('utf8');
    expect(xmlProblems(doc)).toEqual([]);
    expect(doc).toContain('<Document><name>[sandbox] case Harbour fire: the investigation</name>');
    expect(doc.match(/<styleUrl>#conclusion<\/styleUrl>/g)).toHaveLength(1);
  });
});

describe.skipIf(!OGRINFO)(`geo export --case read by ogrinfo${OGRINFO ? '' : ` (skipped: ${OGRINFO_SKIP})`}`, () => {
  it('reads every feature of the GeoJSON and every placemark of the KML', () => {
    const gj = ogrinfo(writeOut('export', 'case-investigation.geojson', geojson));
    expect(gj).toMatch(/using driver `GeoJSON' successful/);
    expect(featureCount(gj)).toBe(features.length);
    const k = ogrinfo(writeOut('export', 'case-investigation.kml', kml));
    expect(k).toMatch(/using driver `(LIB)?KML' successful/);
    expect(featureCount(k)).toBe(kml.match(/<Placemark>/g)!.length);
  });
});
