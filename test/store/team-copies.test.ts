/**
 * Copies of photos located before, on the team store: the built program against a real PostgreSQL
 * (test/helpers/postgres.ts; skipped with the reason where none starts) as an analyst's role with
 * the grants docs/store.md gives, and an independent server that charges per request. Photos
 * located on one machine are reused for their copies on another with --reuse-similar (same
 * account: nothing charged, each copy a row that points at its photo's result); another account's
 * copies are paid for and linked. `geo store push` brings a laptop's links with its results.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { photosAndCopies } from '../batch/helpers.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { machineEnv, spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile();
let server: ChargingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('copies of photos on the team store', () => {
  it('reused on another machine of the same account for nothing, each a row that points at its photo; another account pays and links', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const photos = await photosAndCopies();
    server = await startChargingServer({ delayMs: 20, quota: 600 });
    const on = (key: string) => ({ ...machineEnv(), CI: '1', GEO_STORE_URL: db.pg!.analystUrl, GEO_API_KEY: key, GEO_BASE_URL: server!.url });
    expect((await spawnGeo(['locate', photos.originals], { env: on('orca_test_team_a') })).code).toBe(0);
    const b = on('orca_test_team_a');
    const reused = await spawnGeo(['locate', photos.copies, '--reuse-similar'], { env: b });
    expect(reused.code, reused.stderr).toBe(0);
    expect(server.charges()).toBe(10);
    const out = reused.stdout.trim().split('\n').map((l) => JSON.parse(l) as { reused_similar?: { distance: number } });
    expect(out.filter((l) => l.reused_similar !== undefined)).toHaveLength(20);
    expect(db.pg.sql("SELECT count(*) FROM results r JOIN copy_links l ON l.result = r.id WHERE r.charge = 'reused_similar' AND l.reused = 1 AND r.raw IS NULL").trim()).toBe('20');
    const history = JSON.parse((await spawnGeo(['history', '--json'], { env: b })).stdout) as Array<{ charge: string; copy_of?: { reused: boolean } }>;
    expect(history.filter((h) => h.charge === 'reused_similar' && h.copy_of?.reused)).toHaveLength(20);

    const other = await spawnGeo(['locate', photos.copies, '--reuse-similar'], { env: on('orca_test_team_b') });
    expect(other.code, other.stderr).toBe(0);
    expect(server.charges()).toBe(30);
    expect(db.pg.sql('SELECT count(*) FROM copy_links WHERE reused = 0').trim()).toBe('20');
  }, 120_000);

  it('geo store push copies the links between the results it copies, by their ids on the team store', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const photos = await photosAndCopies();
    server = await startChargingServer({ delayMs: 20, quota: 600 });
    const env = { ...machineEnv(), CI: '1', GEO_API_KEY: 'orca_test_team_push', GEO_BASE_URL: server.url };
    expect((await spawnGeo(['locate', `${photos.originals}/photo3.jpg`], { env })).code).toBe(0);
    expect((await spawnGeo(['locate', `${photos.copies}/photo3-half.jpg`], { env })).code).toBe(0);
    expect((await spawnGeo(['locate', `${photos.copies}/photo3-q70.jpg`, '--reuse-similar'], { env })).code).toBe(0);
    const pushed = await spawnGeo(['store', 'push', '--store', db.pg.analystUrl, '--json'], { env });
    expect(pushed.code, pushed.stderr).toBe(0);
    const links = db.pg.sql("SELECT c.input_path || ' ' || o.input_path || ' ' || l.reused FROM copy_links l JOIN results c ON c.id = l.result JOIN results o ON o.id = l.of_result ORDER BY l.reused").trim().split('\n').map((l) => l.trim());
    expect(links).toEqual([`${photos.copies}/photo3-half.jpg ${photos.originals}/photo3.jpg 0`, `${photos.copies}/photo3-q70.jpg ${photos.originals}/photo3.jpg 1`]);
  }, 120_000);
});
