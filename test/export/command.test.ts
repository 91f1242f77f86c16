import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveRecord } from '../helpers/store.js';
import { runCli } from '../helpers/run-cli.js';
import { withSandbox } from '../helpers/sandbox.js';
import { PARIS_SHA, forensicBody, parisRecord, sydneyRecord } from './fixtures.js';
import { sandboxRecord } from './sandbox-run.js';
import { OGRINFO, OGRINFO_SKIP, featureCount, ogrinfo, writeOut } from './tools.js';

const sb = withSandbox();
const tmp = () => mkdtempSync(join(tmpdir(), 'geo-export-'));

describe('geo export', () => {
  let data: string;
  beforeAll(async () => {
    data = tmp();
    await saveRecord(data, parisRecord());
    await saveRecord(data, { ...parisRecord(), stored_at: '2025-05-15T00:00:00.000Z', idempotency_key: 'a-later-run' });
    await saveRecord(data, sydneyRecord());
  });
  const geo = (argv: string[], stdin?: string) => runCli(argv, { env: { GEO_DATA_DIR: data }, ...(stdin !== undefined ? { stdin } : {}) });

  it('exports every stored result (latest per image) as GeoJSON on stdout', async () => {
    const r = await geo(['export', '--all', '--format', 'geojson']);
    expect(r.code).toBe(0);
    const fc = JSON.parse(r.stdout);
    expect(fc.features.filter((f: { properties: { role: string } }) => f.properties.role === 'estimate')).toHaveLength(2);
    const history = JSON.parse((await geo(['export', '--all', '--history', '--format', 'geojson'])).stdout);
    expect(history.features.filter((f: { properties: { role: string } }) => f.properties.role === 'estimate')).toHaveLength(3);
  });

  it('selects by sha256 prefix and by analysis id; takes the format from --out', async () => {
    const out = join(tmp(), 'paris.kml');
    const r = await geo(['export', PARIS_SHA.slice(0, 8), '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote 1 result to .*paris\.kml \(kml\)/);
    expect(readFileSync(out, 'utf8')).toContain('<kml xmlns="http://www.opengis.net/kml/2.2">');
    const csv = await geo(['export', 'an_paris_1', '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[1]).toMatch(/^fixtures\/images\/paris\.jpg,868735/);
  });

  it('writes the HTML report, embedding the image when it is still there and unchanged', async () => {
    const out = join(tmp(), 'report.html');
    const r = await geo(['export', '--all', '--out', out]);
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<img src="data:image/jpeg;base64,'); // fixtures/images/paris.jpg, same sha256
    expect(html).toContain('image not found at photos/sydney.jpg');
  });

  it('reads NDJSON files and stdin', async () => {
    const line = JSON.stringify({ input: 'x.jpg', sha256: 'ee'.repeat(32), ok: true, result: forensicBody({ analysis_id: 'from_ndjson' }), exif: null });
    const file = join(tmp(), 'run.ndjson');
    writeFileSync(file, line + '\n' + JSON.stringify({ input: 'y.jpg', ok: false, error: {} }) + '\n');
    const r = await geo(['export', file, '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('from_ndjson');
    expect(r.stderr).toMatch(/skipped .*run\.ndjson:2: input "y\.jpg" failed, so it has no result to export/);
    const piped = await geo(['export', '-', '--format', 'geojson'], line);
    expect(JSON.parse(piped.stdout).features[0].properties.analysis_id).toBe('from_ndjson');
  });

  it('exits 2 with a hint for nothing selected, unknown ids and unknown formats', async () => {
    expect((await geo(['export', '--format', 'csv'])).code).toBe(2);
    const unknown = await geo(['export', 'an_nope', '--format', 'csv']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no stored result for "an_nope"/);
    expect((await geo(['export', '--all'])).stderr).toMatch(/no format given/);
    expect((await geo(['export', '--all', '--format', 'table'])).code).toBe(2);
    expect((await runCli(['export', '--all', '--format', 'csv'], { env: { GEO_DATA_DIR: tmp() } })).stderr).toMatch(/no stored results/);
  });

  it('exports records from a real sandbox run (depth 3, scoped), readable by ogrinfo', async () => {
    const dir = tmp();
    const rec = await sandboxRecord(sb.url, 'paris.jpg', { depth: 3, scope: { name: 'Paris', lat: 48.8566, lng: 2.3522, radius_km: 20 } });
    expect(rec.exif?.verdict).toBe('agrees');
    expect(rec.headers?.rate_limit).toHaveProperty('ratelimit-remaining');
    expect(rec.idempotency_key).toBeTruthy();
    await saveRecord(dir, rec);
    await saveRecord(dir, await sandboxRecord(sb.url, 'nogps.jpg', { depth: 2 }));
    const env = { GEO_DATA_DIR: dir };
    const gj = await runCli(['export', '--all', '--format', 'geojson'], { env });
    const kml = await runCli(['export', '--all', '--format', 'kml'], { env });
    expect([gj.code, kml.code]).toEqual([0, 0]);
    const roles = JSON.parse(gj.stdout).features.map((f: { properties: { role: string } }) => f.properties.role);
    expect(roles).toContain('scope');
    expect(roles).toContain('exif');
    if (!OGRINFO) return console.log(`ogrinfo part skipped: ${OGRINFO_SKIP}`);
    expect(featureCount(ogrinfo(writeOut('export', 'sandbox.geojson', gj.stdout)))).toBe(roles.length);
    expect(featureCount(ogrinfo(writeOut('export', 'sandbox.kml', kml.stdout)))).toBe(roles.length);
  });
});
