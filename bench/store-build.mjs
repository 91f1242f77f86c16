/**
 * The local store of bench/store.mjs (issue 19), built once per folder through the store module
 * itself (src/store/, the way geo writes them) and reused: N realistic depth-3 answers
 * (store-data.mjs body(i): the same answers bench/team.mjs loads into PostgreSQL), the last 1000
 * of them the answers of 1000 tiny images written beside it (the dry run's reuse look-ups).
 * Building a million takes minutes and ~6 GB of disk; `fresh` builds it anew.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';
import { accountFingerprint } from '../src/api/secret.ts';
import { processProbe } from '../src/cli.ts';
import { buildRecord } from '../src/evidence/records.ts';
import { Store } from '../src/store/index.ts';
import { body } from './store-data.mjs';

export const BASE_URL = 'http://127.0.0.1:9'; // never contacted: every look-up is local
export const KEY = 'orca_live_bench_0123456789abcdef0123456789';
const ACCOUNT = accountFingerprint(BASE_URL, KEY);
export const REUSED = 1000;

/** Result i's provenance record, as geo builds it (depth 1 for the images of `imagesDir`, else 3). */
export function localRecord(imagesDir) {
  return (i, sha, path) => {
    const b = body(i);
    return buildRecord({
      input: { path, sha256: sha }, request: { image_b64: 'x', depth: path.startsWith(imagesDir) ? 1 : 3 },
      response: { data: b, raw: JSON.stringify(b), status: 200, headers: { 'x-request-id': `req_${i}` }, replayed: false, requestId: `req_${i}`, idempotencyKey: `bench-${i}` },
      baseUrl: BASE_URL, account: ACCOUNT, cliVersion: 'bench', now: Date.UTC(2026, 0, 1) + i * 1000,
    });
  };
}

/** The 1000 images whose answers are stored (the dry run's reuse look-ups): tiny distinct JPEGs. */
function writeImages(images) {
  mkdirSync(images, { recursive: true });
  const base = readFileSync(join(ROOT, 'fixtures/images/nogps.jpg'));
  const shas = [];
  for (let i = 0; i < REUSED; i++) {
    const text = Buffer.from(`bench image ${i}`, 'latin1');
    const seg = Buffer.alloc(4);
    seg.writeUInt16BE(0xfffe, 0);
    seg.writeUInt16BE(text.length + 2, 2);
    const bytes = Buffer.concat([base.subarray(0, 2), seg, text, base.subarray(2)]);
    writeFileSync(join(images, `img${String(i).padStart(4, '0')}.jpg`), bytes);
    shas.push(createHash('sha256').update(bytes).digest('hex'));
  }
  return shas;
}

/** The store of N results in `dir` (data/ and images/), built unless a build of N is there already. */
export function buildLocalStore(N, dir, { fresh = false } = {}) {
  const data = join(dir, 'data');
  const images = join(dir, 'images');
  if (fresh) rmSync(dir, { recursive: true, force: true });
  const stamp = join(dir, `built-${N}`);
  if (existsSync(stamp)) return { data, images };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const shas = writeImages(images);
  const record = localRecord(images);
  const t0 = Date.now();
  const store = Store.open(data, { probe: processProbe(), now: Date.now });
  const CHUNK = 5000;
  for (let from = 0; from < N; from += CHUNK) {
    const rows = [];
    for (let i = from; i < Math.min(N, from + CHUNK); i++) {
      // The last 1000 results are the answers of the 1000 images (depth 1, as the dry run asks).
      const k = i - (N - REUSED);
      const rec = k >= 0 ? record(i, shas[k], join(images, `img${String(k).padStart(4, '0')}.jpg`)) : record(i, createHash('sha256').update(`image ${i}`).digest('hex'), `/cases/${Math.floor(i / 1000)}/photo-${i}.jpg`);
      rows.push({ record: rec, origin: BASE_URL, sandbox: false, listed: true });
    }
    store.insertMany(rows);
    if ((from / CHUNK) % 20 === 0) process.stderr.write(`\r  building the local store: ${from + rows.length} of ${N} results, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  store.close();
  console.error(`\r  built ${N} local results in ${((Date.now() - t0) / 1000).toFixed(0)} s (geo.db ${(statSync(join(data, 'geo.db')).size / 1e9).toFixed(2)} GB)`);
  writeFileSync(stamp, '');
  return { data, images };
}
