/**
 * Issue 30, "never pay twice, wherever the key comes from": a claim is found by what is sent (the
 * request's fingerprint), never by the key a caller brings. Real geo processes race against an
 * independent server that charges once per completed Idempotency-Key and answers 409 while a key
 * is in progress (test/helpers/charging-server.ts): `geo locate a.jpg` and `geo locate a.jpg
 * --idempotency-key K` at the same time used to pay twice (the caller's key was looked up alone).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { distinctJpeg, FIXTURES } from '../batch/helpers.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { type CliRun, spawnGeo, tempConfigDir } from '../helpers/run-cli.js';

let server: ChargingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** n distinct JPEGs (copies of paris.jpg, each with its own comment) in a fresh folder. */
function images(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'geo-anykey-'));
  const base = readFileSync(join(FIXTURES, 'paris.jpg'));
  for (let i = 0; i < n; i++) writeFileSync(join(dir, `img${i}.jpg`), distinctJpeg(i, base));
  return dir;
}

function envFor(s: ChargingServer): Record<string, string> {
  return { GEO_API_KEY: 'orca_test_anykey', GEO_BASE_URL: s.url, GEO_DATA_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir() };
}

/** Resolves when the server has started `n` analyses (requests with a new key). */
function started(s: ChargingServer, n = 1): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    s.onStart = () => {
      if (++seen === n) resolve();
    };
  });
}

/** The location a one-image `--json` run printed (the body as received). */
function located(r: CliRun): unknown {
  return (JSON.parse(r.stdout) as { location: unknown }).location;
}

const WAITED = /already claimed under another idempotency key \([^)]+\) by another geo process: waiting for its answer/;
const REUSED = /already answered under another idempotency key \([^)]+\): that answer is reused/;

describe('a claim is found by what is sent, whatever key the caller brings', () => {
  it('geo locate a.jpg, then geo locate a.jpg --idempotency-key K while it runs: one charge, K is never sent, and the second says it waited', async () => {
    server = await startChargingServer({ delayMs: 3000 });
    const dir = images(1);
    const env = envFor(server);
    const going = started(server);
    const plain = spawnGeo(['locate', join(dir, 'img0.jpg'), '--json'], { env });
    await going;
    const keyed = await spawnGeo(['locate', join(dir, 'img0.jpg'), '--json', '--idempotency-key', 'case-7-photo-1'], { env });
    const first = await plain;
    expect(first.code, first.stderr).toBe(0);
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(server.charges()).toBe(1);
    expect(server.requests.has('case-7-photo-1')).toBe(false);
    expect(keyed.stderr).toMatch(WAITED);
    expect(keyed.stderr).toMatch(/your key case-7-photo-1 is not sent/);
    expect(located(keyed)).toEqual(located(first));
  }, 60_000);

  it('two different caller keys and a plain run of one image, the keyed one first: one charge, the others wait for it', async () => {
    server = await startChargingServer({ delayMs: 3000 });
    const dir = images(1);
    const env = envFor(server);
    const going = started(server);
    const k1 = spawnGeo(['locate', join(dir, 'img0.jpg'), '--json', '--idempotency-key', 'k-one'], { env });
    await going;
    const [k2, plain] = await Promise.all([
      spawnGeo(['locate', join(dir, 'img0.jpg'), '--json', '--idempotency-key', 'k-two'], { env }),
      spawnGeo(['locate', join(dir, 'img0.jpg'), '--json'], { env }),
    ]);
    const one = await k1;
    for (const r of [one, k2, plain]) expect(r.code, r.stderr).toBe(0);
    expect(server.charges()).toBe(1);
    expect([...server.requests.keys()]).toEqual(['k-one']);
    expect(k2.stderr).toMatch(WAITED);
    expect(plain.stderr).toMatch(/another geo process is sending/);
    expect(located(k2)).toEqual(located(one));
    expect(located(plain)).toEqual(located(one));
  }, 60_000);

  it('a caller key for a request answered before under geo\'s own key: reused, not sent, and said so', async () => {
    server = await startChargingServer({ delayMs: 50 });
    const dir = images(1);
    const env = envFor(server);
    const first = await spawnGeo(['locate', join(dir, 'img0.jpg'), '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const keyed = await spawnGeo(['locate', join(dir, 'img0.jpg'), '--json', '--idempotency-key', 'late-key'], { env });
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(server.charges()).toBe(1);
    expect(server.requests.has('late-key')).toBe(false);
    expect(keyed.stderr).toMatch(REUSED);
    expect(located(keyed)).toEqual(located(first));
  }, 60_000);

  it('the same caller key with the same image replays; the same key with another image is refused before sending', async () => {
    server = await startChargingServer({ delayMs: 50 });
    const dir = images(2);
    const env = envFor(server);
    const a = await spawnGeo(['locate', join(dir, 'img0.jpg'), '--json', '--idempotency-key', 'mine-1'], { env });
    const again = await spawnGeo(['locate', join(dir, 'img0.jpg'), '--json', '--idempotency-key', 'mine-1'], { env });
    expect(a.code, a.stderr).toBe(0);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/another idempotency key/);
    const other = await spawnGeo(['locate', join(dir, 'img1.jpg'), '--json', '--idempotency-key', 'mine-1'], { env });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/mine-1 was already used for another request/);
    expect(server.charges()).toBe(1);
  }, 60_000);

  it('geo api with two different -H Idempotency-Key values for one body, overlapping: one charge, the second says it waited', async () => {
    server = await startChargingServer({ delayMs: 3000 });
    const dir = images(1);
    const body = join(dir, 'body.json');
    writeFileSync(body, JSON.stringify({ image_b64: readFileSync(join(dir, 'img0.jpg')).toString('base64'), depth: 1 }));
    const env = envFor(server);
    const going = started(server);
    const first = spawnGeo(['api', 'geolocate', '--input', body, '-H', 'Idempotency-Key: api-one'], { env });
    await going;
    const second = await spawnGeo(['api', 'geolocate', '--input', body, '-H', 'Idempotency-Key: api-two'], { env });
    const one = await first;
    expect(one.code, one.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(server.charges()).toBe(1);
    expect([...server.requests.keys()]).toEqual(['api-one']);
    expect(second.stderr).toMatch(WAITED);
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(one.stdout));
  }, 60_000);

  it('8 processes with mixed flags over 6 images, started together: 6 charges, each keyed run that did not send says it waited or reused', async () => {
    server = await startChargingServer({ delayMs: 2000 });
    const dir = images(6);
    const env = envFor(server);
    const img = (i: number) => join(dir, `img${i}.jpg`);
    const runs: Array<{ argv: string[]; key?: string }> = [
      { argv: ['locate', dir, '--json'] },
      { argv: ['locate', img(0), '--json', '--idempotency-key', 'mix-a'], key: 'mix-a' },
      { argv: ['locate', img(0), '--json', '--idempotency-key', 'mix-b'], key: 'mix-b' },
      { argv: ['locate', img(1), '--json', '--idempotency-key', 'mix-c'], key: 'mix-c' },
      { argv: ['locate', img(2), '--json'] },
      { argv: ['locate', img(3), '--json', '--idempotency-key', 'mix-d'], key: 'mix-d' },
      { argv: ['locate', img(4), img(5), '--json'] },
      { argv: ['locate', img(5), '--json', '--idempotency-key', 'mix-e'], key: 'mix-e' },
    ];
    const outs = await Promise.all(runs.map((r) => spawnGeo(r.argv, { env })));
    outs.forEach((r) => expect(r.code, r.stderr).toBe(0));
    console.log(`[any-key] 8 mixed processes over 6 images: ${server.charges()} charges, keys sent: ${[...server.requests.keys()].join(' ')}`);
    expect(server.charges()).toBe(6);
    runs.forEach((r, i) => {
      if (r.key !== undefined && !server!.requests.has(r.key)) expect(outs[i]!.stderr).toMatch(new RegExp(`${WAITED.source}|${REUSED.source}`));
    });
  }, 90_000);
});
