/**
 * bench/pdq-layouts: the two multi-index layouts that cover a near-duplicate look-up at 31 bits of
 * 256, side by side in SQLite at --results hashes (default 1,000,000 random ones: SHA-256's bits,
 * as balanced as PDQ's), the figures behind src/store/pdq-index.ts's choice
 * (docs/internals/near-duplicates.md):
 *
 *   16x16  16 chunks of 16 bits; a look-up probes each chunk's value and its 16 one-bit neighbours
 *          (272 keys): two hashes within 31 bits share a chunk within 1 bit (pigeonhole)
 *   32x8   32 chunks of 8 bits, probed exactly (32 keys): two hashes within 31 bits share a chunk
 *
 * Each layout is a table (chunk key, image) WITHOUT ROWID beside the hashes, as geo's pdq_index.
 * Prints per layout: the index's size, its build time, and per look-up the keys probed, the
 * candidates read and the wall time (in-process, median of --runs, after a first cold one).
 * Databases are kept in --dir and reused.
 *
 *   node bench/pdq-layouts.mjs [--results 1000000] [--runs 5] [--dir /var/tmp/geo-bench-pdq]
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { load, median } from './lib.mjs';

const { values } = parseArgs({ options: { results: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '5' }, dir: { type: 'string', default: '/var/tmp/geo-bench-pdq' } } });
const N = Number(values.results);
const Database = createRequire(import.meta.url)('libsql');
const POP = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let v = b; v; v &= v - 1) n++;
  return n;
});
const hamming = (a, b) => {
  let d = 0;
  for (let i = 0; i < 32; i++) d += POP[a[i] ^ b[i]];
  return d;
};

const LAYOUTS = {
  '16x16': {
    keys: (h) => Array.from({ length: 16 }, (_, i) => i * 65536 + ((h[2 * i] << 8) | h[2 * i + 1])),
    probes: (h) => Array.from({ length: 16 }, (_, i) => {
      const v = (h[2 * i] << 8) | h[2 * i + 1];
      return [i * 65536 + v, ...Array.from({ length: 16 }, (_, b) => i * 65536 + (v ^ (1 << b)))];
    }).flat(),
  },
  '32x8': {
    keys: (h) => Array.from({ length: 32 }, (_, i) => i * 256 + h[i]),
    probes: (h) => Array.from({ length: 32 }, (_, i) => i * 256 + h[i]),
  },
};

function build(name, layout) {
  mkdirSync(values.dir, { recursive: true });
  const path = join(values.dir, `${name}-${N}.db`);
  if (existsSync(path)) return { db: new Database(path), path, buildS: undefined };
  const db = new Database(path);
  db.exec('PRAGMA journal_mode = WAL; CREATE TABLE hashes (id INTEGER PRIMARY KEY, pdq BLOB NOT NULL); CREATE TABLE idx (chunk INTEGER NOT NULL, image INTEGER NOT NULL, PRIMARY KEY (chunk, image)) WITHOUT ROWID;');
  const putHash = db.prepare('INSERT INTO hashes (id, pdq) VALUES (?, ?)');
  const putKey = db.prepare('INSERT INTO idx (chunk, image) VALUES (?, ?)');
  const t0 = Date.now();
  for (let from = 0; from < N; from += 50_000) {
    db.exec('BEGIN');
    for (let i = from; i < Math.min(N, from + 50_000); i++) {
      const h = createHash('sha256').update(`image ${i}`).digest();
      putHash.run(i + 1, h);
      for (const k of layout.keys(h)) putKey.run(k, i + 1);
    }
    db.exec('COMMIT');
  }
  return { db, path, buildS: (Date.now() - t0) / 1000 };
}

console.log(`bench/pdq-layouts — ${process.version}, load ${load()}; ${N} hashes; look-ups at 31 bits`);
for (const [name, layout] of Object.entries(LAYOUTS)) {
  const { db, path, buildS } = build(name, layout);
  const times = [];
  let candidates = 0;
  let keys = 0;
  for (let r = 0; r <= Number(values.runs); r++) {
    const q = randomBytes(32);
    const probes = layout.probes(q);
    const t = performance.now();
    const rows = db.prepare(`SELECT id, pdq FROM hashes WHERE id IN (SELECT image FROM idx WHERE chunk IN (${probes.map(() => '?').join(', ')}))`).all(...probes);
    rows.filter((row) => hamming(row.pdq, q) <= 31);
    const ms = performance.now() - t;
    if (r === 0) console.log(`  ${name}: first (cold) look-up ${ms.toFixed(1)} ms`);
    else times.push(ms);
    candidates = rows.length;
    keys = probes.length;
  }
  console.log(`  ${name}: ${(statSync(path).size / 1e6).toFixed(0)} MB${buildS === undefined ? '' : `, built in ${buildS.toFixed(0)} s`}; ${keys} keys probed, ${candidates} candidates read, median ${median(times).toFixed(1)} ms (${times.map((t) => t.toFixed(0)).join(', ')})`);
  db.close();
}
console.log(`load ${load()}`);
