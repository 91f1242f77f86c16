/**
 * bench/rps (issue 7): the sandbox's requests per second on GET /api/v1/credits, loopback only,
 * bounded in time and count. Load comes from a small undici loop (C connections, each with one
 * request in flight), and from wrk when it is installed. The sandbox and the load share this
 * machine's cores, so the figure is a floor for the sandbox alone. Figures only, no verdict.
 *
 *   node bench/rps.mjs [--connections 16] [--seconds 5] [--max 200000]
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Client, request } from 'undici';
import { hasCommand, load, printRows, row, startSandbox } from './lib.mjs';

const HEADERS = { authorization: 'Bearer orca_sandbox_pro' };

/** C workers, each with its own connection and one request in flight, for `seconds` or `max` requests. */
async function undiciLoop(url, connections, seconds, max) {
  const target = `${url}/api/v1/credits`;
  let ok = 0;
  let other = 0;
  let sent = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    const client = new Client(url);
    while (performance.now() < end && sent < max) {
      sent++;
      const res = await request(target, { headers: HEADERS, dispatcher: client });
      await res.body.dump();
      if (res.statusCode === 200) ok++;
      else other++;
    }
    await client.close();
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const s = (performance.now() - t0) / 1000;
  return { rps: (ok + other) / s, ok, other, s };
}

function wrk(url, connections, seconds) {
  const r = spawnSync('wrk', ['-t', '1', '-c', String(connections), '-d', `${seconds}s`, '-H', `authorization: ${HEADERS.authorization}`, `${url}/api/v1/credits`], { encoding: 'utf8' });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(r.stdout);
  return rps ? { rps: Number(rps[1]), non2xx: non2xx ? Number(non2xx[1]) : 0 } : undefined;
}

export async function runRps({ connections = 16, seconds = 5, max = 200_000 } = {}) {
  // 1,000,000 per second: a rate limit no load here reaches, so this measures the server, not 429s.
  const sb = await startSandbox(['--rate-limit', '1000000', '--rate-window', '1']);
  const rows = [];
  try {
    // The sandbox warms its offline geocoder in the background after start: let that finish first.
    await undiciLoop(sb.url, connections, 2, max);
    const u = await undiciLoop(sb.url, connections, seconds, max);
    console.log(`  undici loop: ${connections} connections, ${u.s.toFixed(1)} s, ${u.ok} x 200, ${u.other} other; load ${load()}`);
    rows.push(row(`rps sandbox GET /credits (undici, c=${connections})`, u.rps, 'req/s', '(figure only)'));
    if (hasCommand('wrk')) {
      const w = wrk(sb.url, connections, seconds);
      if (w) {
        console.log(`  wrk: 1 thread, ${connections} connections, ${seconds} s, non-2xx ${w.non2xx}; load ${load()}`);
        rows.push(row(`rps sandbox GET /credits (wrk, c=${connections})`, w.rps, 'req/s', '(figure only)'));
      }
    } else {
      console.log('  NOTICE: wrk is not installed (apt-get install wrk); only the undici loop ran');
    }
  } finally {
    sb.stop();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { connections: { type: 'string', default: '16' }, seconds: { type: 'string', default: '5' }, max: { type: 'string', default: '200000' } } });
  console.log(`bench/rps  (${process.version}; load ${load()})`);
  printRows(await runRps({ connections: Number(values.connections), seconds: Number(values.seconds), max: Number(values.max) }));
}
