/**
 * geo export --format json|ndjson and the CSV time column (issue 13, part 5): every stored result
 * readable offline in every format, and the JSON forms read back by geo export itself.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveRecord } from '../helpers/store.js';
import { runCli } from '../helpers/run-cli.js';
import { PARIS_SHA, forensicBody, parisRecord, sydneyRecord } from './fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'geo-export-formats-'));

describe('geo export json, ndjson and the CSV time', () => {
  const data = tmp();
  beforeAll(async () => {
    await saveRecord(data, parisRecord());
    await saveRecord(data, sydneyRecord());
  });
  const geo = (argv: string[], stdin?: string) => runCli(argv, { env: { GEO_DATA_DIR: data }, ...(stdin !== undefined ? { stdin } : {}) });

  it('--all works with every format', async () => {
    for (const format of ['geojson', 'kml', 'csv', 'html', 'json', 'ndjson']) {
      const r = await geo(['export', '--all', '--format', format]);
      expect([format, r.code]).toEqual([format, 0]);
      expect(r.stdout.length).toBeGreaterThan(0);
    }
    expect((await geo(['export', '--all', '--json'])).code).toBe(0);
  });

  it('json is the array of stored records, every field kept, and reads back', async () => {
    const r = await geo(['export', '--all', '--json']);
    const recs = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(recs).toEqual([parisRecord(), sydneyRecord()].sort((a, b) => a.input.sha256.localeCompare(b.input.sha256)));
    const file = join(tmp(), 'archive.json');
    writeFileSync(file, r.stdout);
    const again = await geo(['export', file, '--format', 'csv']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe((await geo(['export', '--all', '--format', 'csv'])).stdout);
  });

  it('ndjson is one line per result in locate\'s form, and reads back', async () => {
    const r = await geo(['export', PARIS_SHA.slice(0, 8), '--format', 'ndjson']);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0]!)).toEqual(['input', 'sha256', 'ok', 'result', 'exif']);
    expect(lines[0]).toMatchObject({ input: 'fixtures/images/paris.jpg', sha256: PARIS_SHA, ok: true, result: parisRecord().response.body, exif: parisRecord().exif });
    const back = await geo(['export', '-', '--format', 'geojson'], r.stdout);
    expect(JSON.parse(back.stdout).features[0].properties.analysis_id).toBe('an_paris_1');
  });

  it('CSV rows carry the time the answer was received; rebuilt NDJSON results claim none', async () => {
    const csv = (await geo(['export', '--all', '--format', 'csv'])).stdout.split('\r\n');
    expect(csv[0]).toMatch(/^input,sha256,.*,distance_km,stored_at,sandbox,reused_similar$/);
    const times = csv.slice(1, 3).map((row) => row.split(',').at(-3));
    expect(times.sort()).toEqual([parisRecord().stored_at, sydneyRecord().stored_at].sort());
    expect(csv.slice(1, 3).map((row) => row.split(',').slice(-2))).toEqual([['', ''], ['', '']]); // not a sandbox's, nor a copy's reuse
    const line = JSON.stringify({ input: 'x.jpg', sha256: 'ee'.repeat(32), ok: true, result: forensicBody({ analysis_id: 'from_ndjson' }), exif: null });
    const piped = await geo(['export', '-', '--format', 'csv'], line);
    expect(piped.stdout.split('\r\n')[1]).toMatch(/^x\.jpg,.*,,$/);
  });

  it('--out takes json and ndjson from the extension', async () => {
    const dir = tmp();
    const r = await geo(['export', '--all', '--out', join(dir, 'all.ndjson')]);
    expect(r.stderr).toMatch(/wrote 2 results to .*all\.ndjson \(ndjson\)/);
    expect((await geo(['export', '--all', '--out', join(dir, 'all.json')])).stderr).toMatch(/\(json\)/);
  });
});
