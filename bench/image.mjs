/**
 * bench/image (issue 7): one 14.9 MB JPEG through `geo locate --json` against `geo sandbox`: peak
 * RSS and wall time, next to bench/baseline-post.mjs (plain node: read, encode, post) and to bare
 * `node -e 0`. Budget: peak RSS <= bare-node RSS + 1.5 x image size. Figures only, no verdict.
 *
 *   node bench/image.mjs [--runs 3] [--bytes 14900000]
 *
 * Peak RSS is GNU time's %M (the kernel's maximum resident set size); without /usr/bin/time it is
 * /proc/<pid>/status VmHWM polled every 2 ms, which can miss a peak in the last moments.
 *
 * Where the memory goes (issue 30): the same locate with a 2 KB photo is geo's own footprint, and
 * `node` loading libsql and opening a WAL database is the store's share of it (the store came
 * after the budget was set: issue 19). The 14.9 MB image itself adds what the two rows differ by.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GEO_BIN, GNU_TIME, ROOT, benchEnv, load, measure, median, printRows, row, startSandbox } from './lib.mjs';


/**
 * A JPEG of exactly `size` bytes whose bulk is picture data: a fixture with printable filler
 * (no 0xFF, so no marker) added to its entropy-coded scan before EOI. Not COM segments, as before
 * issue 14: geo removes those before upload, and the figure must be a 15 MB upload. geo never
 * decodes the pixels to send them, so the scan need not decode.
 */
export function makeJpeg(path, size) {
  const base = readFileSync(join(ROOT, 'fixtures/images/nogps.jpg'));
  const filler = Buffer.alloc(size - base.length);
  for (let i = 0; i < filler.length; i++) filler[i] = 0x41 + (i % 26);
  writeFileSync(path, Buffer.concat([base.subarray(0, base.length - 2), filler, base.subarray(base.length - 2)]));
}

export async function runImage({ runs = 3, bytes = 14_900_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'geo-bench-image-'));
  const file = join(dir, 'big.jpg');
  makeJpeg(file, bytes);
  const sb = await startSandbox(['--rate-limit', '1000000']);
  // Every geo run gets empty state and data folders: with the previous run's journal, locate would
  // answer from it (nothing sent) and the figure would not be an upload at all.
  const env = (run) =>
    benchEnv({ GEO_API_KEY: 'orca_sandbox_pro', GEO_BASE_URL: sb.url, GEO_CONFIG_DIR: join(dir, 'config'), GEO_CACHE_DIR: join(dir, 'cache'), GEO_DATA_DIR: join(dir, `data-${run}`), GEO_STATE_DIR: join(dir, `state-${run}`), NO_COLOR: '1' });
  const results = { bare: [], baseline: [], geo: [], keep: [], tiny: [], sqlite: [] };
  const tiny = join(ROOT, 'fixtures/images/nogps.jpg');
  // What the store costs on its own: the binding loaded, a WAL database opened and written once.
  const sqlite = `const D = require(${JSON.stringify(join(ROOT, 'node_modules/libsql'))}); const d = new D(${JSON.stringify(join(dir, 'probe.db'))}); d.prepare('PRAGMA journal_mode = WAL').all(); d.exec('CREATE TABLE IF NOT EXISTS t (x); INSERT INTO t VALUES (1)'); d.close()`;
  try {
    // A first, untimed run writes geo's code cache (bin/load-cli.js), as a user's first run does.
    await measure(process.execPath, [GEO_BIN, 'locate', '--json', file], env('warm-up'));
    for (let i = 0; i < runs; i++) {
      results.bare.push(await measure(process.execPath, ['-e', '0'], env(i)));
      results.baseline.push(await measure(process.execPath, [join(ROOT, 'bench/baseline-post.mjs'), file, sb.url], env(i)));
      results.geo.push(await measure(process.execPath, [GEO_BIN, 'locate', '--json', file], env(i)));
      // The file as it is: no removal plan, no second pass for the sha256 of the bytes sent.
      results.keep.push(await measure(process.execPath, [GEO_BIN, 'locate', '--json', '--keep-metadata', file], env(`keep-${i}`)));
      results.tiny.push(await measure(process.execPath, [GEO_BIN, 'locate', '--json', tiny], env(`tiny-${i}`)));
      results.sqlite.push(await measure(process.execPath, ['-e', sqlite], env(i)));
    }
    for (const k of ['geo', 'keep']) {
      const uploads = results[k].filter((r) => r.code === 0 && !/from (the journal|your results)/.test(r.err)).length;
      if (uploads !== runs) throw new Error(`only ${uploads} of ${runs} ${k} runs sent the image`);
    }
  } finally {
    sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const [k, rs] of Object.entries(results)) {
    const bad = rs.find((r) => r.code !== 0);
    if (bad) throw new Error(`${k} failed (exit ${bad.code}): ${bad.err.trim() || bad.out.trim()}`);
  }
  const mb = (kb) => kb / 1024;
  const rss = (k) => mb(median(results[k].map((r) => r.rssKb)));
  const wall = (k) => median(results[k].map((r) => r.ms));
  const imageMb = bytes / 1024 / 1024;
  const limit = rss('bare') + 1.5 * imageMb;
  const budget = `<= ${limit.toFixed(1)} MiB (bare ${rss('bare').toFixed(1)} + 1.5 x ${imageMb.toFixed(1)})`;
  console.log(`  image ${bytes.toLocaleString('en-US')} bytes (${imageMb.toFixed(1)} MiB), ${runs} runs, medians; ${GNU_TIME ? 'GNU time %M' : '/proc VmHWM polling'}; load ${load()}`);
  return [
    row('image: bare node -e 0 peak RSS', rss('bare'), 'MiB', '(reference)'),
    row('image: baseline-post.mjs peak RSS', rss('baseline'), 'MiB', budget, limit),
    row('image: baseline-post.mjs wall', wall('baseline'), 'ms', '(reference)'),
    row('image: geo locate --json peak RSS', rss('geo'), 'MiB', budget, limit),
    row('image: geo locate --json wall', wall('geo'), 'ms', '(figure only)'),
    row('image: --keep-metadata peak RSS', rss('keep'), 'MiB', budget, limit),
    row('image: --keep-metadata wall', wall('keep'), 'ms', '(figure only)'),
    row('image: geo locate, 2 KB photo peak RSS', rss('tiny'), 'MiB', '(geo\'s footprint)'),
    row('image: node + libsql, WAL db peak RSS', rss('sqlite'), 'MiB', '(the store\'s share)'),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, bytes: { type: 'string', default: '14900000' } } });
  console.log(`bench/image  (NODE_EXTRA_CA_CERTS unset; ${process.version}; load ${load()})`);
  printRows(await runImage({ runs: Number(values.runs), bytes: Number(values.bytes) }));
}
