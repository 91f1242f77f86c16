/**
 * Issue 19, "no two processes pay for one request": overlapping geo processes over the same 12
 * images, against an independent server that charges once per completed idempotency key and
 * takes 2 s per answer (test/helpers/charging-server.ts). The server is charged exactly 12 times,
 * every process prints a result for each of its inputs, and the credits their summaries say they
 * spent add up to those 12 charges (issue 21: each charge counted once across overlapping runs). The built binary, one shared store.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { distinctJpeg, FIXTURES } from '../batch/helpers.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { type CliRun, spawnGeo, tempConfigDir } from '../helpers/run-cli.js';

const N = 12;
let server: ChargingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 12 distinct JPEGs that carry EXIF GPS (copies of paris.jpg, each with its own comment). */
function images(): string {
  const dir = mkdtempSync(join(tmpdir(), 'geo-overlap-'));
  const base = readFileSync(join(FIXTURES, 'paris.jpg'));
  for (let i = 0; i < N; i++) writeFileSync(join(dir, `img${String(i).padStart(2, '0')}.jpg`), distinctJpeg(i, base));
  return dir;
}

/** The NDJSON records a run printed: input -> ok. */
function results(r: CliRun): Map<string, boolean> {
  return new Map(r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { input: string; ok: boolean }).map((x) => [x.input, x.ok]));
}

async function overlapping(runs: number): Promise<{ server: ChargingServer; outs: CliRun[]; dir: string }> {
  server = await startChargingServer({ delayMs: 2000 });
  const dir = images();
  const env = { GEO_API_KEY: 'orca_test_overlap', GEO_BASE_URL: server.url, GEO_DATA_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir() };
  const outs = await Promise.all(Array.from({ length: runs }, () => spawnGeo(['locate', dir, '--json'], { env })));
  return { server, outs, dir };
}

describe('overlapping geo processes share one store: each request is paid once', () => {
  it.each([2, 4, 8])('%i processes over the same 12 images: 12 charges, 12 results each', async (runs) => {
    const t0 = Date.now();
    const { server: s, outs } = await overlapping(runs);
    console.log(`[overlap] ${runs} processes: ${s.charges()} charges, ${[...s.requests.values()].reduce((a, b) => a + b, 0)} requests, ${Date.now() - t0} ms`);
    for (const r of outs) {
      expect(r.code, r.stderr).toBe(0);
      const got = results(r);
      expect(got.size).toBe(N);
      expect([...got.values()].every(Boolean)).toBe(true);
    }
    expect(s.charges()).toBe(N);
    // Issue 21: the summaries count each charge once across the overlapping runs (depth 1: 1 credit each).
    const spent = outs.map((r) => Number(/(\d+) credits? spent/.exec(r.stderr)?.[1] ?? Number.NaN));
    expect(spent.reduce((a, b) => a + b, 0)).toBe(s.charges());
    // Most processes waited for another's answer and said so.
    expect(outs.filter((r) => /another geo process is sending some of these images/.test(r.stderr)).length).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('different commands at once (a folder, two of its files, geo eval over it): 12 charges, each prints all of its inputs', async () => {
    server = await startChargingServer({ delayMs: 2000 });
    const dir = images();
    const env = { GEO_API_KEY: 'orca_test_overlap', GEO_BASE_URL: server.url, GEO_DATA_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir() };
    const [folder, two, evaluated] = await Promise.all([
      spawnGeo(['locate', dir, '--json'], { env }),
      spawnGeo(['locate', join(dir, 'img00.jpg'), join(dir, 'img01.jpg'), '--format', 'ndjson'], { env }),
      spawnGeo(['eval', dir, '--format', 'ndjson'], { env }),
    ]);
    expect(folder.code, folder.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect([...results(folder).values()].filter(Boolean)).toHaveLength(N);
    expect([...results(two).values()].filter(Boolean)).toHaveLength(2);
    const rows = evaluated.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { input?: string; image?: string });
    expect(rows).toHaveLength(N);
    expect(server.charges()).toBe(N);
    console.log(`[overlap] folder + two files + eval: ${server.charges()} charges for ${N} images`);
  }, 90_000);
});
