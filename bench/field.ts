/**
 * The field, not the bench (issue 21): what bench/batch.ts puts between geo and the sandbox.
 *
 * - relay: a TCP relay on loopback that holds every chunk, each way, for a seeded random 0-40 ms,
 *   keeping each direction's byte order (a chunk never overtakes the one before it on its
 *   connection). Requests started in one order reach the sandbox in another, as on any network.
 * - otherClient: a second client on the same key (a colleague, a cron job) that spends 25% of
 *   every window: one GET /api/v1/credits every 4·W/R seconds, through the relay too. It counts
 *   what it spent and the 429s it met; geo is never told about it.
 */
import { Agent, get } from 'node:http';
import { type Socket, connect, createServer } from 'node:net';
// The sandbox's own seeded generator: every run of a row meets the same delays.
import { mulberry32 } from '../src/sandbox/faults.js';

export interface Relay {
  url: string;
  close(): Promise<void>;
}

/**
 * Pipes `from` into `to`, each chunk held for delay() ms, in order: one queue and one timer at a
 * time (timers of different lengths due at the same moment may fire in any order).
 */
function delayedPipe(from: Socket, to: Socket, delay: () => number): void {
  let due = 0;
  const queue: Array<{ at: number; fn: () => void }> = [];
  let armed = false;
  const run = () => {
    armed = false;
    while (queue.length && queue[0]!.at <= Date.now()) queue.shift()!.fn();
    if (queue.length) arm();
  };
  const arm = () => {
    if (armed) return;
    armed = true;
    setTimeout(run, Math.max(0, queue[0]!.at - Date.now()));
  };
  const later = (fn: () => void) => {
    due = Math.max(due, Date.now() + delay());
    queue.push({ at: due, fn });
    arm();
  };
  from.on('data', (chunk) => later(() => !to.destroyed && to.write(chunk)));
  from.on('end', () => later(() => to.end()));
  from.on('error', () => to.destroy());
  from.on('close', () => later(() => to.destroy()));
}

export async function startRelay(target: string, seed: number, maxDelayMs = 40): Promise<Relay> {
  const t = new URL(target);
  const random = mulberry32(seed);
  const delay = () => random() * maxDelayMs;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(t.port), t.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.setNoDelay(true);
    }
    delayedPipe(client, upstream, delay);
    delayedPipe(upstream, client, delay);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

export interface OtherClient {
  sent: number;
  ok: number;
  limited: number;
  stop(): void;
}

/** One request every `everyMs` on `key`, from the moment it starts until stop(). */
export function otherClient(baseUrl: string, key: string, everyMs: number): OtherClient {
  const agent = new Agent({ keepAlive: true });
  const o: OtherClient = { sent: 0, ok: 0, limited: 0, stop: () => {} };
  const start = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    o.sent++;
    get(`${baseUrl}/api/v1/credits`, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      if (res.statusCode === 429) o.limited++;
      else if (res.statusCode === 200) o.ok++;
      res.resume();
    }).on('error', () => {});
    // Scheduled from the start, not from the last tick: timer lateness does not add up.
    timer = setTimeout(tick, start + o.sent * everyMs - Date.now());
  };
  tick();
  o.stop = () => {
    stopped = true;
    clearTimeout(timer);
    agent.destroy();
  };
  return o;
}
