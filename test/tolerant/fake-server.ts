/**
 * An independent fake of the API for the tolerant-reader suite: plain node:http on loopback,
 * port 0, sharing nothing with the sandbox (which implements the same contract geo reads, so it
 * could never send what the contract forbids). Each test chooses the exact bytes a route answers
 * with; the server counts requests per route and keeps the Idempotency-Keys it saw.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface Answer {
  status: number;
  /** Exact bytes (or text) of the body. */
  body: Buffer | string;
  headers?: Record<string, string>;
  /** Never answer (the client's timeout must fire). */
  hang?: boolean;
}

export type RouteKey = 'geolocate' | 'credits' | 'usage' | 'analyses' | 'cases list' | 'cases create';

function routeOf(method: string, path: string): RouteKey | undefined {
  const p = path.replace(/\?.*$/, '');
  if (method === 'POST' && p === '/api/v1/geolocate') return 'geolocate';
  if (method === 'GET' && p === '/api/v1/credits') return 'credits';
  if (method === 'GET' && p === '/api/v1/usage') return 'usage';
  if (method === 'GET' && p === '/api/v1/analyses') return 'analyses';
  if (method === 'GET' && p === '/api/v1/cases') return 'cases list';
  if (method === 'POST' && p === '/api/v1/cases') return 'cases create';
  return undefined;
}

/** A valid credits snapshot: batches read the balance first. */
const CREDITS = JSON.stringify({ success: true, data: { balance: 500, api_balance: 500, total_available: 1000, total_purchased: null, total_used: null } });

/** What the request carried, for answers that depend on it (the image, the depth). */
export interface Received {
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeApi {
  url: string;
  /** What each route answers from now on (a function may vary by attempt, or by what was sent). */
  answers: Partial<Record<RouteKey, Answer | ((n: number, req: Received) => Answer)>>;
  count(route: RouteKey): number;
  keys: string[];
  reset(): void;
  close(): Promise<void>;
}

/** One fake API for the calling test file: started before its tests, reset before each, closed after. */
export function withFakeApi(use: (api: FakeApi) => void): void {
  let api: FakeApi | undefined;
  beforeAll(async () => use((api = await startFakeApi())));
  beforeEach(() => api?.reset());
  afterAll(() => api?.close());
}

export async function startFakeApi(): Promise<FakeApi> {
  const counts = new Map<RouteKey, number>();
  const api: FakeApi = {
    url: '',
    answers: {},
    count: (r) => counts.get(r) ?? 0,
    keys: [],
    reset() {
      counts.clear();
      api.answers = {};
      api.keys = [];
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = routeOf(req.method ?? '', req.url ?? '');
      if (!route) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{"success":false,"code":"not_found","message":"no such route"}');
      }
      const n = (counts.get(route) ?? 0) + 1;
      counts.set(route, n);
      const key = req.headers['idempotency-key'];
      if (typeof key === 'string') api.keys.push(key);
      const chosen = api.answers[route];
      const a: Answer = typeof chosen === 'function' ? chosen(n, { body: Buffer.concat(chunks), headers: req.headers }) : (chosen ?? { status: 200, body: route === 'credits' ? CREDITS : '{}' });
      if (a.hang) return;
      const bytes = typeof a.body === 'string' ? Buffer.from(a.body, 'utf8') : a.body;
      res.writeHead(a.status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...a.headers });
      res.end(bytes);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}

// ---- Answers ---------------------------------------------------------------------------------

export const ok = (body: unknown, status = 200, headers: Record<string, string> = {}): Answer => ({ status, body: typeof body === 'string' ? body : JSON.stringify(body), headers });
/** `body` as JSON, or these exact bytes when it is a Buffer. */
export const gzip = (body: unknown, header = true): Answer => ({ status: 200, body: gzipSync(Buffer.isBuffer(body) ? body : JSON.stringify(body)), headers: header ? { 'content-encoding': 'gzip' } : {} });
export const deflate = (body: unknown): Answer => ({ status: 200, body: deflateSync(JSON.stringify(body)), headers: { 'content-encoding': 'deflate' } });
export const brotli = (body: unknown): Answer => ({ status: 200, body: brotliCompressSync(JSON.stringify(body)), headers: { 'content-encoding': 'br' } });
export const bom = (body: unknown): Answer => ({ status: 200, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(body))]) });
