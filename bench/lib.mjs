/**
 * Shared helpers of the bench scripts: a `geo sandbox` in its own process, figures (median of
 * several runs) and the machine's state next to them. Benches print figures, never pass/fail.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = new URL('..', import.meta.url).pathname;
export const GEO_BIN = join(ROOT, 'bin/geo.js');

/** NODE_EXTRA_CA_CERTS makes every Node 20 start ~45 ms slower: timings run without it. */
export function benchEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

export function needBuild() {
  if (!existsSync(join(ROOT, 'dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
}

/** The Node 24 binary cached by .ci/run, or BENCH_NODE24; undefined when neither exists. */
export function node24() {
  const candidates = [process.env.BENCH_NODE24, join(homedir(), '.cache/geo-ci/node24/bin/node')].filter(Boolean);
  return candidates.find((p) => existsSync(p));
}

export function nodeVersion(bin) {
  return spawnSync(bin, ['--version'], { encoding: 'utf8', env: benchEnv() }).stdout.trim();
}

export function load() {
  return loadavg().map((x) => x.toFixed(2)).join(' ');
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function hasCommand(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** `geo sandbox` (the built CLI) on a free loopback port; resolves once it printed its URL. */
export async function startSandbox(args = [], nodeBin = process.execPath) {
  needBuild();
  const child = spawn(nodeBin, [GEO_BIN, 'sandbox', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: benchEnv() });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c) => {
      buf += c.toString('utf8');
      if (buf.includes('\n')) resolve(buf.split('\n')[0].trim());
    });
    child.on('exit', (code) => reject(new Error(`geo sandbox exited ${code}: ${err.trim()}`)));
  });
  child.stdout.resume();
  await settle(child.pid);
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/**
 * The sandbox warms its offline geocoder in the background after start (~1 s of CPU on this
 * machine), which would be timed as part of the first figures: wait until its CPU time stops
 * growing (Linux /proc), at most 5 s; elsewhere wait 1.5 s.
 */
async function settle(pid) {
  const cpu = () => {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks
  };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  if (!existsSync(`/proc/${pid}/stat`)) return sleep(1500);
  const end = Date.now() + 5000;
  let last = cpu();
  while (Date.now() < end) {
    await sleep(250);
    const now = cpu();
    if (now - last <= 1) return;
    last = now;
  }
}

/** A row of the summary table: figure, value, budget, ratio (value / budget limit). */
export function row(figure, value, unit, budget, limit) {
  return { figure, value, unit, budget, ratio: limit ? value / limit : undefined };
}

export function printRows(rows) {
  const fmt = (r) => [r.figure, `${typeof r.value === 'number' ? round(r.value) : r.value} ${r.unit}`.trim(), r.budget ?? '', r.ratio === undefined ? '' : r.ratio.toFixed(2)];
  const table = [['figure', 'value', 'budget', 'value/budget'], ...rows.map(fmt)];
  const widths = table[0].map((_, i) => Math.max(...table.map((t) => String(t[i]).length)));
  for (const t of table) console.log('  ' + t.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd());
}

export function round(x) {
  if (Number.isInteger(x)) return String(x);
  return Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(3);
}

/** A word for hyperfine's own command splitter (-N: no shell), quoted when it needs to be. */
function word(arg) {
  return /^[\w./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'"'"'`)}'`;
}

/**
 * The wall time of whole processes, median ms of each command (an array: the binary, then its
 * arguments), with hyperfine where it is installed (-N: no shell in between, 3 warm-ups, runs
 * back to back, output to a pipe as when it is read): the tool that times a process from its
 * exec to its exit and nothing else. Without hyperfine, a spawnSync loop, the commands
 * interleaved. Not measure(): its asynchronous spawn from a Node process, its pipes and GNU time
 * around the child add their own milliseconds to every figure (in one bench process, `node -e 0`
 * 73 and 63 ms through it against 56 and 52 ms under hyperfine), so peak RSS is measured apart,
 * with measure().
 */
export function wallTimes(cmds, { runs, env }) {
  if (hasCommand('hyperfine')) {
    const dir = mkdtempSync(join(tmpdir(), 'geo-bench-hf-'));
    try {
      const out = join(dir, 'hf.json');
      const args = ['-N', '--style', 'none', '--output', 'pipe', '--warmup', '3', '--runs', String(runs), '--export-json', out, ...cmds.map((c) => c.map(word).join(' '))];
      const r = spawnSync('hyperfine', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) throw new Error(`hyperfine failed (${r.status}): ${cmds.map((c) => c.join(' ')).join('; ')}`);
      return JSON.parse(readFileSync(out, 'utf8')).results.map((x) => x.median * 1000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const times = cmds.map(() => []);
  for (let i = 0; i < runs + 3; i++) {
    cmds.forEach(([bin, ...args], j) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(bin, args, { env, stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`${[bin, ...args].join(' ')} exited ${r.status}`);
      if (i >= 3) times[j].push(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  }
  return times.map(median);
}

/**
 * Whole processes compared with each other: rounds in which every command runs once, the order
 * rotated by one each round (none always follows the same other), so a machine that slows down or
 * speeds up weighs on all of them alike; `warmup` rounds first, not counted. Each round is one
 * hyperfine call (-N, --runs 1 per command: exec to exit, nothing else) where it is installed;
 * else a spawnSync of each, timed from this process. Returns every command's times (ms), in order.
 */
export function interleavedTimes(cmds, { runs, warmup = 3, env }) {
  const times = cmds.map(() => []);
  const hf = hasCommand('hyperfine');
  const dir = mkdtempSync(join(tmpdir(), 'geo-bench-rounds-'));
  try {
    for (let r = 0; r < warmup + runs; r++) {
      const order = cmds.map((_, i) => (i + r) % cmds.length);
      let ms;
      if (hf) {
        const out = join(dir, 'round.json');
        const args = ['-N', '--style', 'none', '--output', 'pipe', '--runs', '1', '--export-json', out, ...order.map((j) => cmds[j].map(word).join(' '))];
        const res = spawnSync('hyperfine', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
        if (res.status !== 0) throw new Error(`hyperfine failed (${res.status}) in round ${r}`);
        ms = JSON.parse(readFileSync(out, 'utf8')).results.map((x) => x.times[0] * 1000);
      } else {
        ms = order.map((j) => {
          const t0 = process.hrtime.bigint();
          const res = spawnSync(cmds[j][0], cmds[j].slice(1), { env, stdio: 'ignore' });
          if (res.status !== 0) throw new Error(`${cmds[j].join(' ')} exited ${res.status}`);
          return Number(process.hrtime.bigint() - t0) / 1e6;
        });
      }
      if (r >= warmup) order.forEach((j, k) => times[j].push(ms[k]));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return times;
}

/** GNU time reports a process's peak RSS exactly; without it, /proc/<pid>/status VmHWM is polled. */
export const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Runs a command; resolves with its exit code, wall ms, peak RSS in KB and stdout. */
export function measure(cmd, args, env, o = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const argv = GNU_TIME ? [GNU_TIME, ['-f', '__RSS_KB=%M', cmd, ...args]] : [cmd, args];
    // o.devNull: stdout goes to /dev/null itself (`> /dev/null`), not through a pipe this process reads.
    const sink = o.devNull ? openSync('/dev/null', 'w') : 'pipe';
    const child = spawn(argv[0], argv[1], { env, stdio: ['ignore', sink, 'pipe'] });
    if (sink !== 'pipe') closeSync(sink);
    let out = '';
    let err = '';
    let hwm = 0;
    const poll = GNU_TIME ? undefined : setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwm = Math.max(hwm, Number(m[1]));
      } catch { /* the process has just exited */ }
    }, 2);
    child.stdout?.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (poll) clearInterval(poll);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const m = /__RSS_KB=(\d+)/.exec(err);
      resolve({ code, ms, rssKb: m ? Number(m[1]) : hwm, out, err: err.replace(/__RSS_KB=\d+\n?/, '') });
    });
  });
}
