/**
 * Copies of a photo found in the local store by their perceptual hash (PDQ): the built program
 * against the sandbox. `geo history --like` lists the stored result of a photo for a re-encoded,
 * resized copy of it, with a small distance, and nothing for another photo; `geo inspect` says the
 * copy was seen before; a store written before geo hashed images gives its results their hash on
 * first use, from their files, and a result whose file is gone stays without.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hamming, pdqOf } from '../../src/image/pdq.js';
import { machineEnv, runCli, spawnGeo } from '../helpers/run-cli.js';
import { dbRows } from '../helpers/store.js';

const VECTORS = new URL('../image/pdq-vectors/', import.meta.url).pathname;
type Row = { distance: number; input: string; sha256: string; analysis_id: string | null };

type Env = ReturnType<typeof machineEnv> & { CI: string };

/** A machine of its own with two photos located (through the in-process sandbox), and a re-encoded, shrunk copy of the first. */
async function located(): Promise<{ env: Env; photos: string; copy: string }> {
  const env = { ...machineEnv(), CI: '1' };
  const photos = join(env.HOME, 'photos');
  mkdirSync(photos);
  for (const f of ['bridge-1-original.jpg', 'q1050.jpg']) copyFileSync(join(VECTORS, f), join(photos, f));
  const r = await spawnGeo(['--sandbox', 'locate', photos, '-q'], { env });
  expect(r.code, r.stderr).toBe(0);
  const copy = join(env.HOME, 'copy.jpg');
  writeFileSync(copy, await sharp(join(photos, 'bridge-1-original.jpg')).resize({ width: 640 }).jpeg({ quality: 60 }).toBuffer());
  return { env, photos, copy };
}

describe('near-duplicates in the local store', () => {
  it('history --like: a re-encoded, resized copy finds the photo it was made from, at a small distance; another photo finds nothing', async () => {
    const { env, photos, copy } = await located();
    const like = await spawnGeo(['history', '--like', copy, '--json'], { env });
    expect(like.code, like.stderr).toBe(0);
    const rows = JSON.parse(like.stdout) as Row[];
    expect(rows.map((r) => r.input)).toEqual([join(photos, 'bridge-1-original.jpg')]);
    expect(rows[0]!.distance).toBeLessThanOrEqual(8);
    const table = await spawnGeo(['history', '--like', copy], { env });
    expect(table.stdout).toMatch(/DISTANCE[\s\S]*bridge-1-original\.jpg/);

    const other = await spawnGeo(['history', '--like', join(VECTORS, 'q2821.jpg'), '--json'], { env });
    expect(other.code, other.stderr).toBe(0);
    expect(JSON.parse(other.stdout)).toEqual([]);
    // Not even at the furthest a look-up reaches: distinct photos lie about half the bits apart.
    expect(JSON.parse((await spawnGeo(['history', '--like', join(VECTORS, 'q2821.jpg'), '--distance', '63', '--json'], { env })).stdout)).toEqual([]);
  }, 60_000);

  it('history --like lists nearest first, and --distance 0 keeps only hashes that are the same', async () => {
    const { env, photos } = await located();
    // A brighter copy lies further than a re-encode: both are located, the re-encode comes first.
    const near = join(env.HOME, 'near.jpg');
    const far = join(env.HOME, 'far.jpg');
    const original = join(photos, 'bridge-1-original.jpg');
    writeFileSync(near, await sharp(original).jpeg({ quality: 80 }).toBuffer());
    writeFileSync(far, await sharp(original).modulate({ brightness: 1.3 }).blur(3).jpeg({ quality: 50 }).toBuffer());
    expect((await spawnGeo(['--sandbox', 'locate', far, near, '-q'], { env })).code).toBe(0);
    const rows = JSON.parse((await spawnGeo(['history', '--like', original, '--json'], { env })).stdout) as Row[];
    const hashes = await Promise.all([original, near, far].map(async (f) => (await pdqOf(f)).hash));
    const [, nearBits, farBits] = hashes.map((h) => hamming(h, hashes[0]!));
    expect(farBits).toBeGreaterThan(nearBits!);
    // Nearest first; at one distance the newest first (the re-encode was located after the original).
    const order = nearBits === 0 ? [near, original, far] : [original, near, far];
    expect(rows.map((r) => [r.input, r.distance])).toEqual(order.map((f) => [f, f === far ? farBits : f === near ? nearBits : 0]));
    const same = JSON.parse((await spawnGeo(['history', '--like', original, '--distance', '0', '--json'], { env })).stdout) as Row[];
    expect(same.map((r) => r.input).sort()).toEqual(order.filter((f) => (f === far ? farBits : f === near ? nearBits : 0) === 0).sort());
  }, 60_000);

  it('inspect says the copy was seen before, with the stored result; a photo never located was not', async () => {
    const { env, photos, copy } = await located();
    const seen = await spawnGeo(['inspect', copy, '--json'], { env });
    expect(seen.code, seen.stderr).toBe(0);
    const rec = JSON.parse(seen.stdout);
    expect(rec.perceptual).toEqual({ pdq: (await pdqOf(copy)).hash, quality: expect.any(Number) });
    expect(rec.seen_before).toEqual([expect.objectContaining({ input: join(photos, 'bridge-1-original.jpg'), distance: expect.any(Number), sandbox: true })]);
    expect((await spawnGeo(['inspect', copy], { env })).stdout).toMatch(/seen before\s+\d+ bits? away: .*bridge-1-original\.jpg/);
    const never = JSON.parse((await spawnGeo(['inspect', join(VECTORS, 'q2821.jpg'), '--json'], { env })).stdout);
    expect(never.seen_before).toEqual([]);
  }, 60_000);

  it('a store from before perceptual hashes: on first use, results whose file is still there get theirs; one whose file is gone stays without', async () => {
    const { env, photos, copy } = await located();
    const data = env.GEO_DATA_DIR;
    // The store as an older geo left it: schema 7, no hashes, no index.
    const Database = createRequire(import.meta.url)('libsql') as new (p: string) => { exec(s: string): void; close(): void };
    const db = new Database(join(data, 'geo.db'));
    db.exec("DROP TABLE copy_links; DROP TABLE perceptual; DROP TABLE pdq_index; DELETE FROM meta WHERE name = 'pdq_scanned_through'; PRAGMA user_version = 7");
    db.close();
    rmSync(join(photos, 'q1050.jpg'));

    const like = await spawnGeo(['history', '--like', copy, '--json'], { env });
    expect(like.code, like.stderr).toBe(0);
    expect((JSON.parse(like.stdout) as Row[]).map((r) => r.input)).toEqual([join(photos, 'bridge-1-original.jpg')]);
    expect(like.stderr).toMatch(/1 stored image hashed to find copies; 1 whose file is gone or changed stay without/);
    expect(dbRows<{ user_version: number }>(data, 'PRAGMA user_version')[0]!.user_version).toBeGreaterThanOrEqual(8);
    const stored = dbRows<{ input_path: string; pdq: string | null }>(data, 'SELECT r.input_path, p.pdq FROM results r LEFT JOIN perceptual p ON p.sha256 = r.sha256 ORDER BY r.input_path');
    expect(stored).toEqual([
      { input_path: join(photos, 'bridge-1-original.jpg'), pdq: (await pdqOf(join(VECTORS, 'bridge-1-original.jpg'))).hash },
      { input_path: join(photos, 'q1050.jpg'), pdq: null },
    ]);
    // Looked at once: the next look-up hashes nothing and says nothing.
    const again = await spawnGeo(['history', '--like', copy, '--json'], { env });
    expect(again.stderr).toBe('');
  }, 60_000);

  it('on a terminal, hashing older results shows a spinner with how many, then the line of what came of it', async () => {
    const { env, copy } = await located();
    const Database = createRequire(import.meta.url)('libsql') as new (p: string) => { exec(s: string): void; close(): void };
    const db = new Database(join(env.GEO_DATA_DIR, 'geo.db'));
    db.exec("DELETE FROM perceptual; DELETE FROM pdq_index; DELETE FROM meta WHERE name = 'pdq_scanned_through'");
    db.close();
    const r = await runCli(['history', '--like', copy], { tty: true, env: { ...env, CI: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/hashing 2 stored images to find their copies/);
    expect(r.stderr).toMatch(/2 stored images hashed to find copies/);
    expect(r.stdout).toMatch(/bridge-1-original\.jpg/);
  }, 60_000);

  it('--distance without --like, a --distance out of range, and --like on a file that is not an image: one line, exit 2', async () => {
    const env = { ...machineEnv(), CI: '1' };
    const cases: Array<[string[], RegExp]> = [
      [['history', '--distance', '5'], /--distance goes with --like/],
      [['history', '--like', join(VECTORS, 'wee.jpg'), '--distance', '64'], /--distance must be a whole number from 0 to 63/],
      [['history', '--like', join(VECTORS, 'README.md')], /is not an image/],
      [['history', '--like', join(VECTORS, 'wee.jpg'), '--search', 'paris'], /--like and --search cannot be combined/],
    ];
    for (const [argv, msg] of cases) {
      const r = await spawnGeo(argv, { env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);
});
