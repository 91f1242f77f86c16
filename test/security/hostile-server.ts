/**
 * A hostile API for the security suite (node:http, port 0). The base URL chooses the behaviour:
 * `${url}/m/ok` answers every route with a valid 200 body, `${url}/m/<status>` answers every route
 * with that error status. Every string field (and x-request-id) is `fill(key)`, where key is the
 * one the client sent: a constant full of terminal escapes, or an echo of the key.
 */
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fill = (key: string) => string;

/** The code each error status carries, chosen so describeError quotes the most server text. */
const CODES: Record<number, string | null> = {
  400: null, // no code for 400 in the spec: the server's own (filled) code is shown
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  409: null,
  422: 'effort_exceeds_depth',
  500: 'server_error',
  502: 'analysis_failed',
};
export const ERROR_STATUSES = Object.keys(CODES).map(Number);

export function okBody(route: string, method: string, s: string): unknown {
  const kase = { id: s, name: s, description: s, createdAt: s, updatedAt: s, teamId: s };
  if (route === '/api/v1/credits') return { success: true, data: { balance: 1, api_balance: 2, total_available: 3, total_purchased: null, total_used: null, note: s }, note: s };
  if (route === '/api/v1/usage') return { success: true, data: { [s]: s, meter: { status: s, overage: [s, s] } } };
  if (route === '/api/v1/analyses') {
    return { success: true, data: [{ id: s, analysis_id: s, created_at: s, filename: s, neighborhood: s, city: s, country: s, latitude: 1, longitude: 2, confidence: 0.5, depth: 1, extra: { x: s } }] };
  }
  if (route === '/api/v1/cases') return method === 'POST' ? kase : { success: true, data: [kase] };
  if (route === '/api/v1/geolocate') {
    return {
      success: true, analysis_id: s, confidence: 0.5, reasoning: s, thinking: s, model: 'orca-1.5', depth: 3, timing_ms: 10,
      location: { latitude: 1.5, longitude: 2.5, country: s, city: s, neighborhood: s, address: s },
      visual_clues: [{ label: s, detail: s }],
      forensic: { precision_tier: s, verification_status: s, supports: [s], contradictions: [s], candidates: [{ lat: 1, lng: 2, label: s, confidence: 50, supports: [s], contradictions: [s] }] },
      calibration: { [s]: s, policy: s },
    };
  }
  return undefined;
}

export function errorBody(status: number, s: string): Record<string, unknown> {
  return {
    success: false, error: s, code: CODES[status] ?? s, message: s, hint: s, details: { balance: s, cost: s, why: s },
    docs: 'https://errors.invalid/doc', type: 'https://errors.invalid/type', title: s, status, detail: s,
    max_effort: s, max_depth: 1, retry_after: 0, retryable: true,
  };
}

/** Header values may carry C1 bytes (latin1) but not ESC, CR or anything above U+00FF. */
const headerSafe = (s: string) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');

function keyOf(req: IncomingMessage): string {
  const a = req.headers.authorization ?? '';
  return a.startsWith('Bearer ') ? a.slice(7) : String(req.headers['x-api-key'] ?? '');
}

export interface Hostile {
  url: string;
  base(mode: 'ok' | number): string;
  requests(): number;
  close(): Promise<void>;
}

/** `mangle` rewrites each JSON text before it is sent (a raw CR between tokens, \\u-spelt keys). */
export async function startHostile(fill: Fill, opts: { mangle?: (json: string) => string } = {}): Promise<Hostile> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    n++;
    req.resume();
    req.on('end', () => {
      const m = /^\/m\/(ok|\d{3})(\/[^?]*)/.exec(req.url ?? '');
      const s = fill(keyOf(req));
      const headers = { 'content-type': 'application/json', 'x-request-id': headerSafe(s) };
      const send = (status: number, body: unknown) => {
        const json = JSON.stringify(body);
        res.writeHead(status, headers);
        res.end(opts.mangle ? opts.mangle(json) : json);
      };
      if (!m) return send(404, errorBody(404, s));
      const [, mode, route] = m as unknown as [string, string, string];
      if (route === '/api/v1/docs') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(`<html><body>${s}</body></html>`);
      }
      if (mode !== 'ok') return send(Number(mode), errorBody(Number(mode), s));
      const body = okBody(route, req.method ?? 'GET', s);
      return body === undefined ? send(404, errorBody(404, s)) : send(200, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    base: (mode) => `${url}/m/${mode}`,
    requests: () => n,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
