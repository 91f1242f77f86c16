/**
 * Local evidence in geo locate: the EXIF check beside the estimate (agrees / stripped / none),
 * provenance records (stored by default, --no-store, a store failure only warns), exports via
 * --format geojson|kml|csv and the --report HTML file.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeolocateResponseSchema } from '../../src/api/schemas.js';
import { OGRINFO, OGRINFO_SKIP, featureCount, ogrinfo, writeOut } from '../export/tools.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { storedRecords } from '../helpers/store.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const run = (argv: string[], env: Record<string, string> = {}) => runner(sb)(argv, { env });
const PARIS_SHA = '868735296a0bd351a2afca9abc7ee9683183a56d097dc3fc87607e1bb724618a';

// Records and features as parsed JSON: the assertions name the fields they check.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every listed result in the store under GEO_DATA_DIR (none when there is no store). */
function stored(dataDir: string): Json[] {
  return existsSync(join(dataDir, 'geo.db')) ? storedRecords(dataDir) : [];
}

describe('the EXIF check in the single view (local, never changes the confidence)', () => {
  // By default the GPS is removed before upload: the sandbox cannot read it and answers with its
  // synthetic result, which the photo's own GPS contradicts, and the check says it is independent.
  // With --keep-metadata the sandbox reads the GPS it was sent: agreement, flagged as not independent.
  it.each([
    ['paris.jpg', [], 'contradicts', /detail +EXIF GPS 48\.858370, 2\.294481: [\d.]+ km from the estimate, CONTRADICTS .*; an independent check: the GPS was removed before upload, the service never saw it/],
    ['paris.jpg', ['--keep-metadata'], 'agrees', /detail +EXIF GPS 48\.858370, 2\.294481: \d+ m from the estimate, agrees .*; NOT independent: the service was sent this GPS \(--keep-metadata\)/],
    ['nogps.jpg', [], 'stripped', /detail +EXIF: present but without GPS/],
    ['plain.png', [], 'none', /detail +EXIF: none in the file/],
  ])('%s %j: %s', async (name, flags, verdict, detail) => {
    const r = await run(['locate', `${IMG}${name}`, ...flags]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('EXIF check (local: never sent, does not change the confidence)');
    expect(r.stdout).toMatch(new RegExp(`\\n  verdict +${verdict}\\n`));
    expect(r.stdout).toMatch(detail);
    // The confidence shown is the API's, as received.
    const json = await run(['locate', `${IMG}${name}`, ...flags, '--json']);
    expect(r.stdout).toContain(`confidence   ${GeolocateResponseSchema.parse(JSON.parse(json.stdout)).confidence.toFixed(2)}`);
  });
});

describe('the sun as a witness (issue 24): at the estimate, at the EXIF capture time', () => {
  it('the single view shows it with the EXIF check; the NDJSON exif block and the stored record carry it', async () => {
    const data = tmp('geo-data-');
    const r = await run(['locate', `${IMG}tokyo.jpg`, '--keep-metadata'], { GEO_DATA_DIR: data });
    expect(r.code).toBe(0);
    // Located at its EXIF GPS (Tokyo) at 09:15:44 +09:00: a morning sun in the south-east.
    expect(r.stdout).toMatch(/\n {2}sun +14\d° az, 3\d° elev at the estimate \(Shibakōen, Tokyo, Japan\), 2023-11-02 09:15 there and on the photo's clock \(UTC\+09:00, EXIF OffsetTimeOriginal\): shadows point NW \(32\d°\), about 1\.\d× the height of what casts them\n/);
    const nd = await run(['locate', `${IMG}tokyo.jpg`, `${IMG}plain.png`, '--keep-metadata', '--format', 'ndjson'], { GEO_DATA_DIR: data });
    const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l) as Json);
    expect(lines[0]!.exif.sun).toMatchObject({ point: 'estimate', time: { utc: '2023-11-02T00:15:44.000Z', basis: 'exif' }, phase: 'day', shadow: { compass: 'NW' } });
    expect(lines[1]!.exif).not.toHaveProperty('sun'); // no EXIF at all: nothing to say
    expect(stored(data)[0]!.exif.sun).toMatchObject({ point: 'estimate', phase: 'day' });
  });

  it('an estimate far from where the camera\'s clock was set: the line names the estimate and gives both clocks', async () => {
    // Without --keep-metadata the sandbox places tokyo.jpg in Mexico City, where 09:15 +09:00 was 18:15 the evening before.
    const r = await run(['locate', `${IMG}tokyo.jpg`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n {2}sun +below the horizon \([\d.]+° below, \d+° az\) at the estimate \(Roma Norte, Mexico City, Mexico\), 2023-11-01 18:15 there \(UTC-06:00, America\/Mexico_City\); 2023-11-02 09:15 on the photo's clock \(UTC\+09:00, EXIF OffsetTimeOriginal\): civil twilight/);
  });

  it('a photo whose GPS was stripped still has its capture time: the sun is computed at the estimate', async () => {
    const r = await run(['locate', `${IMG}nogps.jpg`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n {2}verdict +stripped\n/);
    expect(r.stdout).toMatch(/\n {2}sun +.* at the estimate \(.+\), .+ on the photo's clock \(UTC\+01:00, EXIF OffsetTimeOriginal\): .*\n/);
  });
});

describe('reuse across the two ways of sending', () => {
  it('a result made with --keep-metadata is reused by a default run (paid once), which says so, and its EXIF check says NOT independent', async () => {
    const env = { GEO_DATA_DIR: tmp('geo-data-'), GEO_STATE_DIR: tmp('geo-state-') };
    expect((await run(['locate', `${IMG}sydney.jpg`, '--keep-metadata'], env)).code).toBe(0);
    const paid = footprint(sb).debits;
    const again = await run(['locate', `${IMG}sydney.jpg`], env);
    expect(again.code).toBe(0);
    expect(footprint(sb).debits).toBe(paid);
    expect(again.stderr).toMatch(/from your results, not charged, made with the photo's metadata sent; --fresh for an independent answer/);
    expect(again.stdout).toMatch(/agrees .*; NOT independent: the service was sent this GPS/);
  });
});

describe('provenance records', () => {
  it('every successful result is stored (no key, no image bytes); --no-store keeps it out of history and exports', async () => {
    const data = tmp('geo-data-');
    const r = await run(['locate', `${IMG}paris.jpg`, '--json'], { GEO_DATA_DIR: data });
    expect(r.code).toBe(0);
    const recs = stored(data);
    expect(recs).toHaveLength(1);
    const rec = recs[0]!;
    const file = join(data, 'geo.db');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(rec).toMatchObject({ schema: 'geo.provenance/1', origin: 'store', input: { sha256: PARIS_SHA }, request: { depth: 1 }, response: { status: 200, raw: r.stdout.trimEnd() } });
    expect(rec.input.path).toMatch(/^\/.*fixtures\/images\/paris\.jpg$/);
    expect(rec.idempotency_key).toMatch(/^geo-[0-9a-f-]{36}$/);
    expect(rec.exif).toMatchObject({ verdict: 'contradicts', independent: true });
    // What went out: the file without its EXIF (440 bytes), orientation kept as a minimal EXIF.
    expect(rec.sent).toMatchObject({ metadata: 'removed', size: 591, removed: [{ what: 'EXIF (GPS, camera, capture details)', bytes: 440 }], orientation: 1 });
    expect(rec.sent.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(rec.sent.sha256).not.toBe(PARIS_SHA);
    expect(rec.cli.base_url).toBe(sb.url);
    for (const f of readdirSync(data)) {
      const text = readFileSync(join(data, f), 'latin1');
      expect(text).not.toContain(KEYS.pro);
      expect(text).not.toContain(readFileSync(`${IMG}paris.jpg`).toString('base64').slice(0, 64));
    }

    // --no-store: kept only so the same request is never paid again, listed nowhere.
    const none = tmp('geo-data-');
    expect((await run(['locate', `${IMG}paris.jpg`, '--no-store'], { GEO_DATA_DIR: none })).code).toBe(0);
    expect(stored(none)).toEqual([]);
    expect((await run(['history', '--json'], { GEO_DATA_DIR: none })).stdout.trim()).toBe('[]');
    const paid = footprint(sb).debits;
    expect((await run(['locate', `${IMG}paris.jpg`, '--no-store'], { GEO_DATA_DIR: none })).code).toBe(0);
    expect(footprint(sb).debits).toBe(paid);
  });

  it('a data folder that cannot hold the store is refused before anything is sent (exit 2)', async () => {
    const blocker = join(tmp('geo-data-'), 'not-a-folder');
    writeFileSync(blocker, 'x');
    const requests = sb.ledger().keys[KEYS.pro]!.requests;
    const r = await run(['locate', `${IMG}tokyo.jpg`, '--keep-metadata', '--json'], { GEO_DATA_DIR: blocker });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*not-a-folder is not a folder — hint: /m);
    expect(sb.ledger().keys[KEYS.pro]!.requests).toBe(requests);
  });
});

describe('exports and the report from locate', () => {
  it('--format geojson, kml and csv for one image and for many', async () => {
    const geo = JSON.parse((await run(['locate', `${IMG}paris.jpg`, '--format', 'geojson'])).stdout);
    expect(geo.type).toBe('FeatureCollection');
    expect(geo.features.map((f: Json) => f.properties.role)).toEqual(expect.arrayContaining(['estimate', 'exif']));
    const dir = tmp('geo-export-');
    for (const n of ['tokyo.jpg', 'nogps.jpg']) copyFileSync(`${IMG}${n}`, join(dir, n));
    const many = await run(['locate', dir, '--format', 'geojson']);
    expect(many.code).toBe(0);
    expect(JSON.parse(many.stdout).features.filter((f: Json) => f.properties.role === 'estimate')).toHaveLength(2);
    const kml = await run(['locate', dir, '--format', 'kml']);
    expect(kml.stdout).toMatch(/^<\?xml[^>]*\?>\s*<kml xmlns="http:\/\/www\.opengis\.net\/kml\/2\.2">/);
    expect(kml.stdout.match(/<Placemark/g)!.length).toBeGreaterThanOrEqual(2);
    const csv = (await run(['locate', dir, '--format', 'csv'])).stdout.split('\r\n').filter(Boolean);
    expect(csv[0]).toMatch(/^input,sha256,lat,lng,confidence,/);
    expect(csv).toHaveLength(3);
    expect(csv.find((l) => l.includes('nogps.jpg'))).toContain(',stripped,');
  });

  it.skipIf(!OGRINFO)(`ogrinfo reads locate's GeoJSON and KML of a folder (${OGRINFO ? 'gdal-bin' : OGRINFO_SKIP})`, async () => {
    const dir = tmp('geo-ogr-');
    for (const n of ['paris.jpg', 'tokyo.jpg', 'plain.png']) copyFileSync(`${IMG}${n}`, join(dir, n));
    for (const fmt of ['geojson', 'kml']) {
      const r = await run(['locate', dir, '--depth', '3', '--format', fmt, '--yes']); // 30 credits: above the threshold, and piped
      expect(r.code).toBe(0);
      const summary = ogrinfo(writeOut('export', `locate-folder.${fmt}`, r.stdout));
      console.log(`[ogrinfo locate ${fmt}] features`, featureCount(summary));
      expect(featureCount(summary)).toBeGreaterThanOrEqual(3 + 2); // 3 estimates, 2 EXIF points, candidates
    }
  });

  it('--report FILE.html writes one self-contained report with the result and the image', async () => {
    const out = join(tmp('geo-report-'), 'case.html');
    const r = await run(['locate', `${IMG}paris.jpg`, '--depth', '3', '--report', out, '--json']);
    expect(r.code).toBe(0);
    const body = GeolocateResponseSchema.parse(JSON.parse(r.stdout));
    expect(r.stderr).toContain(`report: ${out} (1 result)`);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain(body.analysis_id!);
    expect(html).toContain('data:image/');
    expect(html).toContain('agrees');
  });
});
