import { describe, expect, it } from 'vitest';
import { renderKML } from '../../src/output/export/kml.js';
import { caseKmlDocument } from '../../src/output/export/case-geo.js';
import { HOSTILE, caseGeometryFixture, hostileRecord, parisRecord, sydneyRecord } from './fixtures.js';
import { OGRINFO, OGRINFO_SKIP, featureCount, ogrinfo, writeOut, xmlProblems } from './tools.js';

describe('KML 2.2 export', () => {
  const kml = renderKML([parisRecord(), sydneyRecord()]);

  it('is well-formed KML 2.2 with one Style per role', () => {
    expect(kml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">')).toBe(true);
    expect(xmlProblems(kml)).toEqual([]);
    for (const role of ['estimate', 'candidate', 'exif', 'scope']) expect(kml).toContain(`<Style id="${role}">`);
  });

  it('styles placemarks by role, writes lng,lat and the scope as a closed Polygon', () => {
    const urls = [...kml.matchAll(/<styleUrl>#(\w+)<\/styleUrl>/g)].map((m) => m[1]);
    expect(urls).toEqual(['estimate', 'candidate', 'candidate', 'candidate', 'exif', 'scope', 'estimate']);
    expect(kml).toContain('<Point><coordinates>2.2945,48.8584,0</coordinates></Point>');
    expect(kml).toContain('<Point><coordinates>151.2153,-33.8568,0</coordinates></Point>');
    const ring = /<LinearRing><coordinates>([^<]+)<\/coordinates>/.exec(kml)![1]!.split(' ');
    expect(ring).toHaveLength(65);
    expect(ring[64]).toBe(ring[0]);
  });

  it('escapes hostile names and descriptions (no CDATA, no raw markup, no controls)', () => {
    const evil = renderKML([hostileRecord()]);
    expect(xmlProblems(evil)).toEqual([]);
    expect(evil).not.toContain('<script>');
    expect(evil).not.toContain('CDATA');
    expect(evil).not.toMatch(/[\u0000-\u0008\u001b\u202e]/);
    expect(evil).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&apos;&amp;]]&gt;&lt;!--');
    expect(HOSTILE).toContain(']]>');
  });

  it.skipIf(!OGRINFO)(`is read by ogrinfo -ro -al -so${OGRINFO ? '' : ` (skipped: ${OGRINFO_SKIP})`}`, () => {
    for (const [name, recs, features] of [['paris.kml', [parisRecord()], 6], ['three.kml', [parisRecord(), sydneyRecord(), hostileRecord()], 11]] as const) {
      const path = writeOut('export', name, renderKML([...recs]));
      const summary = ogrinfo(path);
      expect(summary).toMatch(/using driver `(LIB)?KML' successful/);
      expect(featureCount(summary)).toBe(features);
    }
  });

  it('draws a case\'s investigation as a Document of its own: styles by role, holes as inner boundaries, two polygons as a MultiGeometry, hostile notes escaped', () => {
    const doc = renderKML([parisRecord()], 'geo results', undefined, caseKmlDocument(caseGeometryFixture(true), 'case Demo: the investigation'));
    expect(xmlProblems(doc)).toEqual([]);
    expect(doc).toContain('<Document><name>[sandbox] case Demo: the investigation</name>');
    for (const id of ['conclusion', 'ruled_out', 'observation', 'hypothesis']) expect(doc).toContain(`<Style id="${id}">`);
    expect(doc).toMatch(/<MultiGeometry><Polygon>.*<innerBoundaryIs>.*<\/Polygon><Polygon>.*<\/Polygon><\/MultiGeometry>/);
    expect(doc).toContain('<Point><coordinates>2.3431,48.8867,0</coordinates></Point>');
    expect(doc).not.toContain('<script>');
    expect(doc).toContain('&lt;p&gt;&lt;b&gt;simulated (sandbox): not evidence&lt;/b&gt;&lt;/p&gt;');
    expect(caseKmlDocument({ ...caseGeometryFixture(), conclusion: undefined, ruled_out: [], notes: [] }, 'x')).toBe('');
  });

  it.skipIf(!OGRINFO)(`a case's investigation is read by ogrinfo${OGRINFO ? '' : ` (skipped: ${OGRINFO_SKIP})`}`, () => {
    const doc = renderKML([parisRecord()], 'geo results', undefined, caseKmlDocument(caseGeometryFixture(), 'case Demo'));
    const summary = ogrinfo(writeOut('export', 'case.kml', doc));
    expect(summary).toMatch(/using driver `(LIB)?KML' successful/);
    expect(featureCount(summary)).toBe(6 + 6);
  });
});
