/**
 * The perceptual hashes of bench/store.mjs's store, so `geo history --like` is timed on a million
 * results as the other look-ups are. Every stored image (by sha256) gets a hash made from its
 * sha256 (SHA-256's bits: as balanced as PDQ's, which sets 128 of 256), filed in the index through
 * the store module itself (src/store/sqlite/perceptual.ts); and five of them get hashes 0, 3, 9, 17
 * and 30 bits from a real photo's (the query), so the look-up finds five copies among a million.
 * The scan mark is set past every result: nothing is left to hash on first use. Once per folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';
import { processProbe } from '../src/cli.ts';
import { pdqOf } from '../src/image/pdq.ts';
import { Store } from '../src/store/index.ts';

/** The photo `--like` asks about (committed with the PDQ test vectors). */
export const QUERY = join(ROOT, 'test/image/pdq-vectors/bridge-1-original.jpg');
/** How far the five planted copies lie from the query, in bits. */
export const PLANTED = [0, 3, 9, 17, 30];

/**
 * The hash with `n` bits flipped, spread over the 16 chunks of the index as evenly as can be (the
 * look-up's hardest case: at 30 bits, 14 chunks differ by 2 and only 2 by 1).
 */
function flipped(hex, n) {
  const b = Buffer.from(hex, 'hex');
  for (let k = 0; k < n; k++) {
    const bit = (k % 16) * 16 + ((Math.floor(k / 16) * 7) % 16);
    b[bit >> 3] ^= 0x80 >> (bit & 7);
  }
  return b.toString('hex');
}

export async function addPerceptual(dir, data) {
  const stamp = join(dir, 'perceptual');
  if (existsSync(stamp)) return;
  const query = (await pdqOf(QUERY)).hash;
  const store = Store.open(data, { probe: processProbe(), now: Date.now });
  const p = store.perceptual();
  const t0 = Date.now();
  // Read as an outside reader would: the bench needs the images and the last id, geo has no call for them.
  const db = new (createRequire(import.meta.url)('libsql'))(join(data, 'geo.db'), { readonly: true });
  const shas = db.prepare('SELECT DISTINCT sha256 FROM results WHERE sha256 IS NOT NULL').all().map((r) => r.sha256);
  const last = db.prepare('SELECT max(id) AS id FROM results').all()[0].id;
  db.close();
  const planted = new Map(PLANTED.map((bits, i) => [shas[Math.floor(((i + 0.5) * shas.length) / PLANTED.length)], flipped(query, bits)]));
  for (let from = 0; from < shas.length; from += 5000) {
    p.put(shas.slice(from, from + 5000).map((sha256) => ({ sha256, pdq: planted.get(sha256) ?? createHash('sha256').update(`pdq ${sha256}`).digest('hex'), quality: 100 })));
    if ((from / 5000) % 20 === 0) process.stderr.write(`\r  hashing the local store: ${from} of ${shas.length} images, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  p.scanned(last);
  store.close();
  console.error(`\r  ${shas.length} images hashed and indexed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  writeFileSync(stamp, '');
}
