import { describe, expect, it } from 'vitest';
import { circleRing, signedArea } from '../../src/output/export/geometry.js';
import { renderGeoJSON, toGeoJSON } from '../../src/output/export/geojson.js';
import { haversineKm } from '../../src/places/distance.js';
import { caseFeatures } from '../../src/output/export/case-geo.js';
import { HOSTILE, caseGeometryFixture, hostileRecord, parisRecord, sydneyRecord } from './fixtures.js';
import { OGRINFO, OGRINFO_SKIP, featureCount, ogrinfo, writeOut } from './tools.js';

type Pos = [number, number];

describe('GeoJSON export (RFC 7946)', () => {
  const fc = toGeoJSON([parisRecord(), sydneyRecord()]);

  it('is a FeatureCollection whose every feature has a geometry, properties and a role', () => {
    expect(fc.type).toBe('FeatureCollection');
    expect(fc).not.toHaveProperty('crs'); // RFC 7946 §4: WGS 84 only, no crs member
    for (const f of fc.features) {
      expect(f.type).toBe('Feature');
      expect(['Point', 'Polygon']).toContain(f.geometry.type);
      expect(['estimate', 'candidate', 'exif', 'scope']).toContain(f.properties.role);
    }
    expect(fc.features.map((f) => f.properties.role)).toEqual(['estimate', 'candidate', 'candidate', 'candidate', 'exif', 'scope', 'estimate']);
  });

  it('puts [lng, lat] in coordinates and carries the result properties', () => {
    const est = fc.features[0]!;
    expect(est.geometry).toEqual({ type: 'Point', coordinates: [2.2945, 48.8584] });
    expect(est.properties).toMatchObject({ confidence: 0.87, confidence_pct: 87, country: 'France', city: 'Paris', depth: 3, analysis_id: 'an_paris_1', precision_tier: 'site_level', exif_verdict: 'agrees' });
    const vegas = fc.features.find((f) => f.properties.name === 'Paris Las Vegas replica')!;
    expect(vegas.geometry.coordinates).toEqual([-115.1728, 36.1125]);
    expect(vegas.properties).toMatchObject({ role: 'candidate', confidence_pct: 9, rank: 2 });
    const sydney = fc.features[6]!;
    expect(sydney.geometry.coordinates).toEqual([151.2153, -33.8568]);
    expect(sydney.properties.analysis_id).toBeNull();
  });

  it('draws the scope as a closed, counter-clockwise 64-gon of the right radius', () => {
    const scope = fc.features.find((f) => f.properties.role === 'scope')!;
    expect(scope.geometry.type).toBe('Polygon');
    const ring = (scope.geometry.coordinates as Pos[][])[0]!;
    expect(ring).toHaveLength(65);
    expect(ring[64]).toEqual(ring[0]);
    expect(signedArea(ring)).toBeGreaterThan(0);
    for (const [lng, lat] of ring) expect(haversineKm(48.8566, 2.3522, lat, lng)).toBeCloseTo(15, 3);
    // Winding holds in the southern hemisphere too.
    expect(signedArea(circleRing(-33.9, 151.2, 60))).toBeGreaterThan(0);
  });

  it('keeps hostile strings as data and escapes terminal controls', () => {
    const text = renderGeoJSON([hostileRecord()]);
    expect(text).not.toMatch(/[\u001b\u202e]/);
    const parsed = JSON.parse(text);
    expect(parsed.features[0].properties.analysis_id).toContain('<script>alert(1)</script>');
  });

  it.skipIf(!OGRINFO)(`is read by ogrinfo -ro -al -so${OGRINFO ? '' : ` (skipped: ${OGRINFO_SKIP})`}`, () => {
    for (const [name, recs] of [['paris.geojson', [parisRecord()]], ['three.geojson', [parisRecord(), sydneyRecord(), hostileRecord()]], ['empty.geojson', []]] as const) {
      const path = writeOut('export', name, renderGeoJSON([...recs]));
      const summary = ogrinfo(path);
      expect(summary).toMatch(/using driver `GeoJSON' successful/);
      expect(featureCount(summary)).toBe(toGeoJSON([...recs]).features.length);
    }
  });

  it('draws a case\'s investigation: the conclusion circle, each place ruled out (circle, polygons, point), the notes\' points', () => {
    const fs = caseFeatures(caseGeometryFixture(true));
    expect(fs.map((f) => [f.properties.role, f.geometry.type])).toEqual([
      ['conclusion', 'Polygon'], ['ruled_out', 'Polygon'], ['ruled_out', 'MultiPolygon'], ['ruled_out', 'Point'], ['observation', 'Point'], ['hypothesis', 'Point'],
    ]);
    expect(fs[0]!.properties).toMatchObject({ confidence: 'probable', within_m: 400, because: 'tower and quay line up', entry: 9, superseded: '7', sandbox: true });
    for (const [lng, lat] of (fs[0]!.geometry.coordinates as Pos[][])[0]!) expect(haversineKm(48.8584, 2.2945, lat, lng)).toBeCloseTo(0.4, 3);
    expect(fs[3]!.geometry.coordinates).toEqual([2.3431, 48.8867]);
    expect(fs[5]!.properties).toMatchObject({ note: HOSTILE, target: 'r1.cand2', entry: 4 });
    expect(caseFeatures(caseGeometryFixture(false)).some((f) => 'sandbox' in f.properties)).toBe(false);
  });

  it.skipIf(!OGRINFO)(`a case's investigation is read by ogrinfo${OGRINFO ? '' : ` (skipped: ${OGRINFO_SKIP})`}`, () => {
    const fc = { type: 'FeatureCollection', features: [...toGeoJSON([parisRecord()]).features, ...caseFeatures(caseGeometryFixture(true))] };
    const summary = ogrinfo(writeOut('export', 'case.geojson', JSON.stringify(fc, null, 2)));
    expect(summary).toMatch(/using driver `GeoJSON' successful/);
    expect(featureCount(summary)).toBe(fc.features.length);
  });
});
