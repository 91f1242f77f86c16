/**
 * An independent geolocate service with chosen answers (issue 33's rule tests): plain node:http,
 * not geo's sandbox. Each image is known by the sha256 of the bytes geo sends (its metadata
 * removed: what `geo locate FILE --dry-run --json` reports as image.sha256); the test chooses the
 * body answered for it unscoped, and with a scope (--scoped). GET /credits answers a large
 * balance. It records every request, so a test can say what was sent.
 */
import { createHash } from 'node:crypto';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Chosen {
  plain: Record<string, unknown>;
  scoped?: Record<string, unknown>;
}

export interface AnswerServer {
  url: string;
  /** sent sha256 -> the bodies to answer (set or change it before the run). */
  answers: Map<string, Chosen>;
  requests: Array<{ sha256: string; scope?: Record<string, unknown>; depth: number }>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A whole, valid geolocate body (api-spec.md "Geolocation response") at this point and depth. */
export function answer(o: { lat: number; lng: number; confidence: number; depth?: 1 | 2 | 3; city?: string; country?: string; reasoning?: string; candidates?: Array<{ lat: number; lng: number; label: string; confidence: number }>; contradictions?: string[]; scopeConsistent?: boolean; calibration?: Record<string, unknown> }): Record<string, unknown> {
  const depth = o.depth ?? 1;
  return {
    success: true, analysis_id: `an_chosen_${Math.round(o.lat * 1000)}_${Math.round(o.lng * 1000)}`,
    location: { latitude: o.lat, longitude: o.lng, country: o.country ?? 'Testland', city: o.city ?? 'Test City', neighborhood: '', address: '' },
    confidence: o.confidence, reasoning: o.reasoning ?? 'Chosen by the test.', model: 'orca-1.5', depth,
    ...(o.scopeConsistent !== undefined ? { scope_consistent: o.scopeConsistent } : {}),
    timing_ms: 1000,
    ...(depth >= 2 ? { thinking: '1. chosen', visual_clues: [] } : {}),
    ...(depth === 3
      ? {
          forensic: { precision_tier: 'city_level', verification_status: 'unverified', supports: [], contradictions: o.contradictions ?? [], candidates: (o.candidates ?? []).map((c) => ({ ...c, supports: [], contradictions: [] })) },
          calibration: o.calibration ?? { abstain: false },
        }
      : {}),
  };
}

export async function startAnswerServer(): Promise<AnswerServer> {
  const state: AnswerServer = { url: '', answers: new Map(), requests: [], close: async () => {} };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const send = (status: number, v: unknown) => {
        const text = JSON.stringify(v);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path === '/api/v1/credits') return send(200, { success: true, data: { balance: 100000, api_balance: 100000, total_available: 100000, total_purchased: null, total_used: null } });
      if (req.method !== 'POST' || path !== '/api/v1/geolocate') return send(404, { success: false, error: 'Not found', code: 'not_found', message: 'no such endpoint' });
      const parsed = JSON.parse(body.toString('utf8')) as { image_b64?: string; scope?: Record<string, unknown>; depth?: number };
      const sha256 = createHash('sha256').update(Buffer.from(parsed.image_b64 ?? '', 'base64')).digest('hex');
      state.requests.push({ sha256, ...(parsed.scope ? { scope: parsed.scope } : {}), depth: parsed.depth ?? 1 });
      const chosen = state.answers.get(sha256);
      if (!chosen) return send(422, { success: false, error: 'Unknown image', code: 'invalid_request', message: 'the test chose no answer for this image' });
      send(200, parsed.scope ? { scope_consistent: true, ...(chosen.scoped ?? chosen.plain) } : chosen.plain);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return state;
}
