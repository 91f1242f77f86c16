/**
 * A real node:http server on 127.0.0.1:0, scripted per test (no mocked fetch), plus a fake clock
 * whose sleep records each delay and advances time, so retry tests run in milliseconds.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { ApiClient, type ClientOptions } from '../../src/api/client.js';

export const KEY = 'orca_test_sEcReT_key_0123456789';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** What the server does with request number n (0-based). */
export type Step = (res: ServerResponse, req: IncomingMessage) => void;

export interface Scripted {
  url: string;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

export async function scriptedServer(script: Step[] | ((n: number) => Step), port = 0): Promise<Scripted> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = seen.length;
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const step = typeof script === 'function' ? script(n) : (script[n] ?? script[script.length - 1]!);
      step(res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port with nothing listening (bound, then released). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

// ---- Steps -----------------------------------------------------------------------------------

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Step => (res) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
};

export const text = (status: number, body: string, headers: Record<string, string> = {}): Step => (res) => {
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
};

/** The socket is dropped before any answer (the sandbox's reset-before / reset-after). */
export const reset: Step = (_res, req) => {
  req.socket.destroy();
};

/** Never answers (the client's per-attempt timeout must fire). */
export const hang: Step = () => {};

/** Half the declared body, then the socket is dropped (the sandbox's `truncate`). */
export const truncate = (status: number, body: unknown): Step => (res) => {
  const full = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(full.length) });
  res.write(full.subarray(0, Math.floor(full.length / 2)), () => setTimeout(() => res.socket?.destroy(), 20));
};

// ---- Bodies ----------------------------------------------------------------------------------

export const OK_D1 = {
  success: true,
  analysis_id: 'an_1',
  location: { latitude: 48.8584, longitude: 2.2945, country: 'France', city: 'Paris', neighborhood: 'Gros-Caillou', address: 'Champ de Mars' },
  confidence: 0.82,
  reasoning: 'Iron lattice tower.',
  model: 'orca-1.5',
  depth: 1,
  timing_ms: 1234,
};

export function errBody(status: number, code: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    success: false, error: code, code, message: `${code} happened`, docs: `https://docs.example/errors/${code}`,
    type: `https://docs.example/problems/${code}`, title: code, status, detail: `${code} happened`, ...extra,
  };
}

export const REQ = { image_url: 'https://example.com/a.jpg', depth: 1 } as const;

// ---- Clock and client ------------------------------------------------------------------------

export interface FakeClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  delays: number[];
  onSleep?: (ms: number, index: number) => Promise<void> | void;
}

export function fakeClock(start = 1_700_000_000_000): FakeClock {
  let t = start;
  const clock: FakeClock = {
    now: () => t,
    delays: [],
    sleep: async (ms: number) => {
      clock.delays.push(ms);
      t += ms;
      await clock.onSleep?.(ms, clock.delays.length - 1);
    },
  };
  return clock;
}

export function makeClient(baseUrl: string, clock: FakeClock, extra: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl, apiKey: KEY, now: clock.now, sleep: clock.sleep, random: () => 0.5, timeoutMs: 5_000, retry: { deadlineMs: 600_000 }, ...extra,
  });
}

/** Every request carried the same Idempotency-Key and the same body bytes. */
export function sameKeyAndBytes(seen: Seen[]): { keys: Set<string>; bodies: Set<string> } {
  return {
    keys: new Set(seen.map((s) => String(s.headers['idempotency-key']))),
    bodies: new Set(seen.map((s) => s.body.toString('base64'))),
  };
}

/** The scripted server and client of the running test, both closed after each test. */
export function perTest(): { server?: Scripted; client?: ApiClient } {
  const t: { server?: Scripted; client?: ApiClient } = {};
  afterEach(async () => {
    await t.client?.close();
    await t.server?.close();
    delete t.server;
    delete t.client;
  });
  return t;
}
