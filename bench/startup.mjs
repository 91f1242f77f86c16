/**
 * bench/startup (issue 7): start-up of `geo --version`, `geo --help` and `geo credits --json`
 * (against a running `geo sandbox`) next to `node -e 0`, with hyperfine, on this Node and on
 * Node 24 when it is cached. Budgets: 1.5x, 2x and 4x `node -e 0`. Figures only, no verdict.
 *
 *   node bench/startup.mjs [--rounds 3] [--runs 15]
 *
 * Each round times the four commands back to back and its ratios are taken within the round, so
 * a change of machine load between commands weighs less; the figure is the median over rounds.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GEO_BIN, benchEnv, hasCommand, load, median, node24, nodeVersion, printRows, row, startSandbox, wallTimes } from './lib.mjs';

const BUDGETS = { version: 1.5, help: 2, credits: 4 };

export async function runStartup({ rounds = 3, runs = 15 } = {}) {
  if (!hasCommand('hyperfine')) console.log('  NOTICE: hyperfine is not installed (apt-get install hyperfine); using a plain spawn loop instead');
  const sb = await startSandbox(['--rate-limit', '1000000']);
  const dir = mkdtempSync(join(tmpdir(), 'geo-bench-startup-'));
  // An empty config folder: credits resolves its key and base URL from the environment. An empty
  // code-cache folder too (bin/load-cli.js), so the figures never depend on an earlier build's cache.
  const env = benchEnv({ GEO_API_KEY: 'orca_sandbox_pro', GEO_BASE_URL: sb.url, GEO_CONFIG_DIR: join(dir, 'config'), GEO_CACHE_DIR: join(dir, 'cache'), NO_COLOR: '1' });
  const rows = [];
  try {
    for (const bin of [process.execPath, node24()].filter(Boolean)) {
      const v = nodeVersion(bin);
      const cmds = [[bin, '-e', '0'], [bin, GEO_BIN, '--version'], [bin, GEO_BIN, '--help'], [bin, GEO_BIN, 'credits', '--json']];
      // A user's first runs: each command's first run writes its code cache (bin/load-cli.js), and
      // Node >= 22 fills its own compile cache.
      for (const [b, ...args] of cmds.slice(1)) spawnSync(b, args, { env, stdio: 'ignore' });
      const per = { base: [], version: [], help: [], credits: [] };
      for (let r = 0; r < rounds; r++) {
        const [base, version, help, credits] = wallTimes(cmds, { runs, env });
        per.base.push(base);
        per.version.push(version / base);
        per.help.push(help / base);
        per.credits.push(credits / base);
      }
      const base = median(per.base);
      console.log(`  ${v}: node -e 0 = ${base.toFixed(1)} ms (median of ${rounds} rounds x ${runs} runs; load ${load()})`);
      rows.push(row(`startup ${v} node -e 0`, base, 'ms', '(reference)'));
      for (const k of ['version', 'help', 'credits']) {
        const ratio = median(per[k]);
        const label = k === 'credits' ? 'credits --json' : `--${k}`;
        rows.push({ figure: `startup ${v} geo ${label}`, value: ratio * base, unit: `ms (${ratio.toFixed(2)}x)`, budget: `<= ${BUDGETS[k]}x`, ratio: ratio / BUDGETS[k] });
      }
    }
  } finally {
    sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, runs: { type: 'string', default: '15' } } });
  console.log(`bench/startup  (NODE_EXTRA_CA_CERTS unset for timing; load ${load()})`);
  printRows(await runStartup({ rounds: Number(values.rounds), runs: Number(values.runs) }));
}
