/**
 * `geo export` on a team store (issue 32): --all, by analysis id, every format and
 * --include-sandbox read the team's PostgreSQL (streamed, as from the local file), so an analyst
 * exports what a colleague paid for on another machine. The built program against a real
 * PostgreSQL (test/helpers/postgres.ts; skipped with the reason where none starts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile({ tcp: true });

const dirs = () => ({ GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-team-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-team-state-')), CI: '1' });

interface Feature {
  properties: Record<string, unknown>;
}

describe('geo export against a real PostgreSQL team store', () => {
  it('exports what another machine paid for: --all in every text format, by analysis id, sandbox answers only with --include-sandbox', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const a = { ...dirs(), GEO_STORE_URL: db.pg.analystUrl };
    const b = { ...dirs(), GEO_STORE_URL: db.pg.analystUrl };
    const located = await spawnGeo(['--sandbox', 'locate', 'sample:paris', 'sample:tokyo', '-q'], { env: a });
    expect(located.code, located.stderr).toBe(0);

    // The sandbox's answers are simulated: left out unless asked, and the error says how to add them.
    const refused = await spawnGeo(['export', '--all', '--format', 'geojson'], { env: b });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no stored results to export but 2 sandbox results.*--include-sandbox/s);

    const geojson = await spawnGeo(['export', '--all', '--include-sandbox', '--format', 'geojson'], { env: b });
    expect(geojson.code, geojson.stderr).toBe(0);
    const points = (JSON.parse(geojson.stdout) as { features: Feature[] }).features.filter((f) => f.properties.kind === undefined || f.properties.kind === 'result');
    const ids = [...new Set(points.map((f) => f.properties.analysis_id))];
    expect(ids).toHaveLength(2);
    expect(points.every((f) => f.properties.sandbox === true)).toBe(true);

    for (const format of ['kml', 'csv', 'json', 'ndjson'] as const) {
      const r = await spawnGeo(['export', '--all', '--include-sandbox', '--format', format], { env: b });
      expect(r.code, `${format}: ${r.stderr}`).toBe(0);
      for (const id of ids) expect(r.stdout, format).toContain(String(id));
    }
    const out = join(mkdtempSync(join(tmpdir(), 'geo-team-export-')), 'one.json');
    const one = await spawnGeo(['export', String(ids[0]), '--out', out], { env: b });
    expect(one.code, one.stderr).toBe(0);
    const records = JSON.parse(readFileSync(out, 'utf8')) as Array<{ response: { body: { analysis_id: string } } }>;
    expect(records.map((r) => r.response.body.analysis_id)).toEqual([ids[0]]);

    // Machine b's own file holds nothing: what it exported came from the team store.
    const local = await spawnGeo(['--store', 'local', 'export', '--all', '--format', 'csv'], { env: b });
    expect(local.code).toBe(2);
    expect(local.stderr).toMatch(/no stored results in .*geo\.db/);
  }, 90_000);
});
