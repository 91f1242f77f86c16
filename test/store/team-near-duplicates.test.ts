/**
 * Near-duplicates on the team store: the built program against a real PostgreSQL
 * (test/helpers/postgres.ts; skipped with the reason where none starts), as an analyst's role with
 * the grants docs/store.md gives. A photo located on one machine is found by a copy of it on
 * another (`geo history --like`, `geo inspect`), with who paid for it; a result stored before its
 * image had a hash gets one on the machine whose file it was, not on another.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pdqOf } from '../../src/image/pdq.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { machineEnv, spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile();
const VECTORS = new URL('../image/pdq-vectors/', import.meta.url).pathname;

describe('near-duplicates on the team store', () => {
  it('a photo located on one machine is found from a copy of it on another, with its distance and who paid', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const a = { ...machineEnv(), CI: '1', GEO_STORE_URL: db.pg.analystUrl };
    const b = { ...machineEnv(), CI: '1', GEO_STORE_URL: db.pg.analystUrl };
    const photo = join(a.HOME, 'bridge.jpg');
    copyFileSync(join(VECTORS, 'bridge-1-original.jpg'), photo);
    const located = await spawnGeo(['--sandbox', 'locate', photo, join(VECTORS, 'q1050.jpg'), '-q'], { env: a });
    expect(located.code, located.stderr).toBe(0);
    expect(db.pg.sql('SELECT count(*) FROM perceptual').trim()).toBe('2');
    expect(db.pg.sql('SELECT count(*) FROM pdq_index').trim()).toBe('32');

    const copy = join(b.HOME, 'copy.jpg');
    writeFileSync(copy, await sharp(photo).resize({ width: 500 }).jpeg({ quality: 55 }).toBuffer());
    const like = await spawnGeo(['history', '--like', copy, '--json'], { env: b });
    expect(like.code, like.stderr).toBe(0);
    const rows = JSON.parse(like.stdout) as Array<{ input: string; distance: number; paid_by: { role?: string } | null }>;
    expect(rows).toEqual([expect.objectContaining({ input: photo, paid_by: expect.objectContaining({ role: 'geo_analyst' }) })]);
    expect(rows[0]!.distance).toBeLessThanOrEqual(8);
    expect(JSON.parse((await spawnGeo(['history', '--like', join(VECTORS, 'q2821.jpg'), '--json'], { env: b })).stdout)).toEqual([]);

    const seen = JSON.parse((await spawnGeo(['inspect', copy, '--json'], { env: b })).stdout);
    expect(seen.seen_before).toEqual([expect.objectContaining({ input: photo, distance: rows[0]!.distance })]);
  }, 90_000);

  it('a result stored without a hash gets one from its file on the machine that located it; another machine leaves it alone', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const a = { ...machineEnv(), CI: '1', GEO_STORE_URL: db.pg.analystUrl };
    const b = { ...machineEnv(), CI: '1', GEO_STORE_URL: db.pg.analystUrl };
    const photos = join(a.HOME, 'photos');
    mkdirSync(photos);
    copyFileSync(join(VECTORS, 'bridge-1-original.jpg'), join(photos, 'bridge.jpg'));
    expect((await spawnGeo(['--sandbox', 'locate', photos, '-q'], { env: a })).code).toBe(0);
    // As an older geo left it: the result, and no hash (the admin clears what a newer geo wrote).
    db.pg.sql('TRUNCATE perceptual, pdq_index, pdq_scanned');
    // Seen from another host (the result is made another laptop's): not its file to read, so nothing is hashed.
    const host = hostname();
    db.pg.sql("UPDATE results SET paid_host = 'another-laptop'");
    const elsewhere = await spawnGeo(['history', '--like', join(photos, 'bridge.jpg'), '--json'], { env: b });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(JSON.parse(elsewhere.stdout)).toEqual([]);
    expect(db.pg.sql('SELECT count(*) FROM perceptual').trim()).toBe('0');
    // Back on its own host: hashed from the file, then found.
    db.pg.sql(`UPDATE results SET paid_host = '${host.replace(/'/g, "''")}'`);
    const home = await spawnGeo(['history', '--like', join(photos, 'bridge.jpg'), '--json'], { env: a });
    expect(home.code, home.stderr).toBe(0);
    expect((JSON.parse(home.stdout) as Array<{ distance: number }>).map((r) => r.distance)).toEqual([0]);
    expect(home.stderr).toMatch(/1 stored image hashed to find copies/);
    expect(db.pg.sql('SELECT pdq FROM perceptual').trim()).toBe((await pdqOf(join(photos, 'bridge.jpg'))).hash);
  }, 90_000);
});
