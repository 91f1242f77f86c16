/** Ground truth (src/eval/truth.ts): CSV and GeoJSON truth files, look-up by path and name, EXIF truth. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { exifTruth, readTruthFile, splitCsvLine } from '../../src/eval/truth.js';

const FIXTURES = new URL('../../fixtures/images/', import.meta.url).pathname;

function file(name: string, text: string): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'geo-truth-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return { dir, path };
}

async function usageError(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  return (err as UsageError).message;
}

describe('CSV truth', () => {
  it('reads a header, quoted names and CRLF; paths are relative to the truth file; found by path or by name', async () => {
    const { dir, path } = file('truth.csv', 'file,lat,lng\r\nshots/a.jpg,48.8584,2.2945\r\n"shots/my, ""best"" photo.jpg",-33.8568,151.2153\r\n\r\n# a comment\r\n');
    const t = await readTruthFile(path);
    expect(t.entries.map((e) => [e.path, e.lat, e.lng, e.where])).toEqual([
      [join(dir, 'shots/a.jpg'), 48.8584, 2.2945, 'line 2'],
      [join(dir, 'shots/my, "best" photo.jpg'), -33.8568, 151.2153, 'line 3'],
    ]);
    expect(t.lookup(join(dir, 'shots/a.jpg'))).toMatchObject({ lat: 48.8584 });
    // Elsewhere, the same file name still finds it (one row has that name).
    expect(t.lookup('/somewhere/else/a.jpg')).toMatchObject({ lat: 48.8584 });
    expect(t.lookup('/somewhere/else/b.jpg')).toBeUndefined();
  });

  it('works without a header, and with a header in another column order', async () => {
    const a = await readTruthFile(file('t.csv', 'a.jpg,1.5,-2.5\n').path);
    expect(a.entries.map((e) => [e.lat, e.lng])).toEqual([[1.5, -2.5]]);
    const b = await readTruthFile(file('t.csv', 'Latitude,Longitude,Path\n10,20,x.jpg\n').path);
    expect(b.entries.map((e) => [e.lat, e.lng])).toEqual([[10, 20]]);
  });

  it('a name two rows share in different folders is found only by its path', async () => {
    const { dir, path } = file('t.csv', 'a/x.jpg,1,1\nb/x.jpg,2,2\n');
    const t = await readTruthFile(path);
    expect(t.lookup('/elsewhere/x.jpg')).toBeUndefined();
    expect(t.lookup(join(dir, 'b/x.jpg'))).toMatchObject({ lat: 2 });
  });

  it.each([
    ['file,lat,lng\na.jpg,91,2\n', /line 2: latitude "91" is not a number from -90 to 90/],
    ['a.jpg,north,2\n', /line 1: neither a header/],
    ['a.jpg,1,east\n', /line 1: longitude "east" is not a number from -180 to 180/],
    ['a.jpg,1,2\nb.jpg,1,1e999\n', /line 2: longitude "1e999"/],
    ['a.jpg,1\n', /line 1: 2 fields, expected file,lat,lng/],
    ['a.jpg,1,2\n"b.jpg,1,2\n', /line 2: an unclosed or misplaced double quote/],
    ['a.jpg,1,2\na.jpg,1,3\n', /line 2: a.jpg already has another position \(line 1\)/],
    ['file,lat,lng\n', /no positions in it/],
  ])('%j is refused naming the line', async (text, re) => {
    expect(await usageError(readTruthFile(file('t.csv', text).path))).toMatch(re);
  });

  it('a missing file is a usage error', async () => {
    expect(await usageError(readTruthFile('/nonexistent/truth.csv'))).toMatch(/--truth \/nonexistent\/truth.csv: cannot read \(ENOENT\)/);
  });

  it('splits fields as RFC 4180 quotes them', () => {
    expect(splitCsvLine('a, "b,c" ,d')).toEqual(['a', 'b,c', 'd']);
    expect(splitCsvLine('"a""b",1,2')).toEqual(['a"b', '1', '2']);
    expect(splitCsvLine('"a"x,1,2')).toBeUndefined();
  });
});

describe('GeoJSON truth', () => {
  it('reads Points as lng,lat with a file property', async () => {
    const fc = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.2945, 48.8584] }, properties: { file: 'a.jpg' } }] };
    const { dir, path } = file('truth.geojson', JSON.stringify(fc));
    const t = await readTruthFile(path);
    expect(t.entries).toEqual([{ path: join(dir, 'a.jpg'), lat: 48.8584, lng: 2.2945, where: 'feature 1' }]);
  });

  it.each([
    [{ type: 'Feature' }, /not a GeoJSON FeatureCollection/],
    [{ type: 'FeatureCollection', features: [{ geometry: { type: 'Point', coordinates: [1, 2] }, properties: {} }] }, /feature 1: no "file" property/],
    [{ type: 'FeatureCollection', features: [{ geometry: { type: 'LineString', coordinates: [[1, 2]] }, properties: { file: 'a' } }] }, /feature 1: the geometry is not a Point/],
    [{ type: 'FeatureCollection', features: [{ geometry: { type: 'Point', coordinates: [200, 2] }, properties: { file: 'a' } }] }, /feature 1: longitude "200"/],
  ])('%j is refused naming the feature', async (doc, re) => {
    expect(await usageError(readTruthFile(file('t.geojson', JSON.stringify(doc)).path))).toMatch(re);
  });

  it('broken JSON is a usage error', async () => {
    expect(await usageError(readTruthFile(file('t.geojson', '{"type":').path))).toMatch(/not valid JSON/);
  });
});

describe('EXIF truth', () => {
  it('is the photo\'s own GPS; none without GPS, none for a 0,0 placeholder', async () => {
    expect(await exifTruth(join(FIXTURES, 'paris.jpg'))).toEqual({ lat: 48.85837, lng: 2.294481 });
    expect(await exifTruth(join(FIXTURES, 'nogps.jpg'))).toBeUndefined();
    expect(await exifTruth(join(FIXTURES, 'zero.jpg'))).toBeUndefined();
    expect(await exifTruth(join(FIXTURES, 'no-such.jpg'))).toBeUndefined();
  });
});
