/**
 * Never paying twice for a copy, by choice: the built program against an independent server that
 * charges per request (test/helpers/charging-server.ts). Ten distinct photos (crops of one large
 * photo at spread offsets: PDQ tells them far apart) and twenty copies of them (each re-encoded at
 * JPEG quality 70, and resized to 50%, with sharp). Located first, the photos cost ten; the copies
 * with --reuse-similar cost nothing more, each recorded as the reuse of its photo's result at its
 * distance. Without the flag, in a fresh store, the thirty cost thirty and twenty are linked. The
 * plan counts the copies, --dry-run says so and sends nothing, and another account's answer is
 * never taken.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LIKE_DISTANCE, hamming, pdqOf } from '../../src/image/pdq.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { machineEnv, spawnGeo } from '../helpers/run-cli.js';
import { dbRows } from '../helpers/store.js';
import { type Photos, photosAndCopies } from './helpers.js';

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

let photos: Photos;
let server: ChargingServer | undefined;

beforeAll(async () => {
  photos = await photosAndCopies();
}, 60_000);

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function envFor(s: ChargingServer, key = 'orca_test_copies_a') {
  return { ...machineEnv(), GEO_API_KEY: key, GEO_BASE_URL: s.url, CI: '1' };
}

type Line = { input: string; sha256: string; ok: boolean; result?: { analysis_id: string }; reused_similar?: { result: number; analysis_id: string | null; sha256: string; distance: number } };
const lines = (stdout: string): Line[] => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);

async function started(): Promise<ChargingServer> {
  // Answers at once, with a quota that lets a folder's requests go out together.
  server = await startChargingServer({ delayMs: 20, quota: 600 });
  return server;
}

describe('copies of photos located before', () => {
  it('the ten photos are far apart and each copy lies within the distance of its own photo only', async () => {
    const originals = [...new Set([...photos.of.values()].map((o) => o.original))];
    const hashes = await Promise.all(originals.map(async (f) => (await pdqOf(f)).hash));
    for (let i = 0; i < hashes.length; i++) for (let j = i + 1; j < hashes.length; j++) expect(hamming(hashes[i]!, hashes[j]!)).toBeGreaterThan(2 * LIKE_DISTANCE);
    for (const [copy, { original }] of photos.of) {
      const h = (await pdqOf(join(photos.copies, copy))).hash;
      for (const [k, o] of originals.entries()) {
        if (o === original) expect(hamming(h, hashes[k]!)).toBeLessThanOrEqual(LIKE_DISTANCE);
        else expect(hamming(h, hashes[k]!)).toBeGreaterThan(LIKE_DISTANCE);
      }
    }
  }, 60_000);

  it('10 photos located, then their 20 copies with --reuse-similar: 10 charges in all, each copy recorded as the reuse of its photo at its distance', async () => {
    const s = await started();
    const env = envFor(s);
    const first = await spawnGeo(['locate', photos.originals], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(s.charges()).toBe(10);
    const paid = new Map(lines(first.stdout).map((l) => [l.sha256, l.result!.analysis_id]));

    const copies = await spawnGeo(['locate', photos.copies, '--reuse-similar'], { env });
    expect(copies.code, copies.stderr).toBe(0);
    expect(s.charges()).toBe(10);
    expect(s.sent).toHaveLength(10);
    expect(copies.stderr).toContain(`20 look like photos located before (within ${LIKE_DISTANCE} bits): their answers are taken instead of paying`);
    expect(copies.stderr).toMatch(/photo\d-(q70|half)\.jpg: reused the answer of photo\d\.jpg \(distance \d+ bits?\): not the service's answer for these bytes/);
    expect(copies.stderr).toContain("20 copies of photos located before took their answers (--reuse-similar), not charged");
    const got = lines(copies.stdout);
    expect(got).toHaveLength(20);
    const ids = dbRows<{ id: number; input_path: string }>(env.GEO_DATA_DIR, "SELECT id, input_path FROM results WHERE charge <> 'reused_similar'");
    const idOf = new Map(ids.map((r) => [r.input_path, r.id]));
    for (const l of got) {
      const o = photos.of.get(basename(l.input))!;
      expect(l.ok).toBe(true);
      expect(l.reused_similar).toEqual({ result: idOf.get(o.original), analysis_id: paid.get(sha256(o.original)), sha256: sha256(o.original), distance: o.distance });
      // The earlier answer, as the service gave it for the photo: shown for the copy only with the mark.
      expect(l.result!.analysis_id).toBe(paid.get(sha256(o.original)));
    }

    // Exported from those lines, each copy's row says whose answer it is.
    const ndjson = join(env.HOME, 'copies.ndjson');
    writeFileSync(ndjson, copies.stdout);
    const csv = (await spawnGeo(['export', ndjson, '--format', 'csv'], { env })).stdout.trim().split('\r\n');
    expect(csv[0]!.split(',').at(-1)).toBe('reused_similar');
    for (const row of csv.slice(1)) expect(row).toMatch(/,reused the answer of result \d+ \(distance \d+ bits?\): not the service's answer for these bytes$/);

    // Stored as rows that point at the earlier results, holding no answer of their own.
    const reuses = dbRows<{ sha256: string; raw: unknown; usable: number; of_result: number; distance: number; reused: number }>(env.GEO_DATA_DIR,
      "SELECT r.sha256, r.raw, r.usable, l.of_result, l.distance, l.reused FROM results r JOIN copy_links l ON l.result = r.id WHERE r.charge = 'reused_similar'");
    expect(reuses).toHaveLength(20);
    for (const r of reuses) expect(r).toMatchObject({ raw: null, usable: 0, reused: 1 });
    const history = JSON.parse((await spawnGeo(['history', '--json'], { env })).stdout) as Array<{ charge: string; copy_of?: { reused: boolean; distance: number } }>;
    expect(history).toHaveLength(30);
    expect(history.filter((h) => h.charge === 'reused_similar' && h.copy_of?.reused === true)).toHaveLength(20);

    // A rerun takes the same answers again, records nothing new and pays nothing.
    const again = await spawnGeo(['locate', photos.copies, '--reuse-similar'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout).every((l) => l.reused_similar !== undefined)).toBe(true);
    expect(s.charges()).toBe(10);
    expect(dbRows(env.GEO_DATA_DIR, "SELECT id FROM results WHERE charge = 'reused_similar'")).toHaveLength(20);
  }, 120_000);

  it('in a fresh store, the 30 without --reuse-similar: 30 charges, and the 20 copies linked to their own photos', async () => {
    const s = await started();
    const env = envFor(s);
    const r = await spawnGeo(['locate', photos.originals, photos.copies, '--yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(s.charges()).toBe(30);
    expect(lines(r.stdout).some((l) => l.reused_similar !== undefined)).toBe(false);
    expect(r.stderr).toContain('20 copies of photos located before, paid for and linked to them');
    const links = dbRows<{ copy: string; of: string; distance: number; reused: number }>(env.GEO_DATA_DIR,
      'SELECT c.input_path AS copy, o.input_path AS of, l.distance, l.reused FROM copy_links l JOIN results c ON c.id = l.result JOIN results o ON o.id = l.of_result');
    expect(links).toHaveLength(20);
    // Linked within its photo's family (the photo, or a copy of it stored before), one way.
    const family = (p: string) => basename(p).replace(/(-q70|-half)?\.jpg$/, '');
    for (const l of links) {
      expect(family(l.copy)).toBe(family(l.of));
      expect(l.reused).toBe(0);
    }
    // Shown by history show and --like.
    const linked = links[0]!;
    const show = await spawnGeo(['history', 'show', linked.copy], { env });
    expect(show.stderr).toMatch(new RegExp(`a copy of ${basename(linked.of).replace('.', '\\.')} \\(\\d+ bits?\\) located before .*: paid for, and linked to it`));
    const like = JSON.parse((await spawnGeo(['history', '--like', linked.copy, '--json'], { env })).stdout) as Array<{ input: string; copy_of?: { input: string; reused: boolean } }>;
    expect(like.find((x) => x.input === linked.copy)?.copy_of).toMatchObject({ input: linked.of, reused: false });
  }, 120_000);

  it('the plan counts the copies; --dry-run says so and sends nothing', async () => {
    const s = await started();
    const env = envFor(s);
    expect((await spawnGeo(['locate', photos.originals], { env })).code).toBe(0);
    const dry = await spawnGeo(['locate', photos.copies, '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('plan: 20 inputs');
    expect(dry.stdout).toContain(`20 look like photos located before (within ${LIKE_DISTANCE} bits): --reuse-similar takes their answers instead of paying`);
    const json = JSON.parse((await spawnGeo(['locate', photos.copies, '--dry-run', '--json', '--reuse-similar'], { env })).stdout) as { similar: number; reuseSimilar: boolean; toSend: number; requests: unknown[] };
    expect(json).toMatchObject({ similar: 20, reuseSimilar: true, toSend: 0, requests: [] });
    expect(s.sent).toHaveLength(10);
    expect(s.charges()).toBe(10);
  }, 120_000);

  it('a copy within the distance of a photo another account paid for is not reused: it is paid for', async () => {
    const s = await started();
    const env = envFor(s, 'orca_test_copies_a');
    expect((await spawnGeo(['locate', photos.originals], { env })).code).toBe(0);
    const other = { ...env, GEO_API_KEY: 'orca_test_copies_b' };
    const r = await spawnGeo(['locate', photos.copies, '--reuse-similar'], { env: other });
    expect(r.code, r.stderr).toBe(0);
    expect(s.charges()).toBe(30);
    expect(lines(r.stdout).some((l) => l.reused_similar !== undefined)).toBe(false);
    expect(r.stderr).not.toContain('look like photos located before');
  }, 120_000);
});
