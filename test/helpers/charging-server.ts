/**
 * An independent geolocate service (plain node:http, not geo's sandbox) for the money tests and
 * the rule tests, implementing api-spec.md's idempotency state table and nothing else. Each key's
 * first request takes `delayMs`, then completes and is charged once; the same key while in
 * progress gets 409 idempotency_in_progress; completed, its stored answer is replayed
 * (Idempotent-Replayed: true, no charge); another payload under a used key gets 409. What it
 * counts is what the tests assert. GET /credits answers a large balance.
 *
 * What it answers: by default a result placed by the image's hash. A test may choose the body for
 * an image instead (`answers`, by the sha256 of the bytes geo sends, its metadata removed: what
 * `geo locate FILE --dry-run --json` reports as image.sha256), unscoped and with a scope
 * (--scoped); with `chosenOnly`, an image with no chosen body gets 422, nothing charged.
 *
 * `answerDepth` answers (and charges) that depth whatever was asked, the way a hostile or mistaken
 * service could (credits() sums what it charged by the depth it answered: 1, 2 or 10, api-spec.md
 * "Limits"); `quota` sends rate-limit headers granting that many requests per minute, so geo
 * starts a folder's requests at once instead of probing with one.
 */
import { createHash } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The bodies a test chose for one image: unscoped, and with a scope. */
export interface Chosen {
  plain: Record<string, unknown>;
  scoped?: Record<string, unknown>;
}

export interface ChargingServer {
  url: string;
  /** sent sha256 -> the bodies to answer (set or change it before the run). */
  answers: Map<string, Chosen>;
  /** Every geolocate request, in order: the sha256 of the image bytes sent (image_b64), the image_url when one was sent instead, its scope and depth (and the bytes, with `keepImages`). */
  sent: Array<{ sha256: string; image_url?: string; scope?: Record<string, unknown>; depth: number; bytes?: Buffer }>;
  /** Completed analyses (each charged once). */
  charges(): number;
  /** Credits charged: each completed analysis at the cost of the depth it answered. */
  credits(): number;
  /** Requests per idempotency key (the first, 409 polls, replays). */
  requests: Map<string, number>;
  /** Keys still in progress (answers the server owes). */
  inProgress(): number;
  /** Called when a key's analysis starts (tests use it to time kills and fills). */
  onStart?: (key: string) => void;
  /** Awaited before an analysis completes (a test can hold it there). */
  beforeComplete?: (key: string) => Promise<void>;
  close(): Promise<void>;
}

interface KeyState {
  payload: string;
  done?: string;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A result placed by the image's hash: the same bytes always get the same answer. */
function answerFor(payloadHash: string, depth: number, n: number): Record<string, unknown> {
  const x = parseInt(payloadHash.slice(0, 8), 16) / 0xffffffff;
  const y = parseInt(payloadHash.slice(8, 16), 16) / 0xffffffff;
  return {
    success: true, analysis_id: `an_charge_${n}`, confidence: 0.5, model: 'orca-1.5', depth, timing_ms: 2000, reasoning: 'An independent test server placed this by the image hash.',
    location: { latitude: -60 + 120 * x, longitude: -170 + 340 * y, country: 'Testland', city: `City ${payloadHash.slice(0, 4)}`, neighborhood: '', address: '' },
    ...(depth >= 2 ? { thinking: 'steps', visual_clues: [] } : {}),
    ...(depth === 3 ? { forensic: { precision_tier: 'city_level', verification_status: 'unverified', supports: [], contradictions: [], candidates: [] }, calibration: {} } : {}),
  };
}

/** A whole, valid geolocate body (api-spec.md "Geolocation response") at this point and depth, for `answers`. */
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

const COST: Record<number, number> = { 1: 1, 2: 2, 3: 10 };

export interface ChargingOptions {
  delayMs?: number;
  /** The depth every answer says (and is charged at), or one per analysis (n counts from 1). */
  answerDepth?: 1 | 2 | 3 | ((n: number) => 1 | 2 | 3);
  /** Requests per minute granted in rate-limit headers on every answer. */
  quota?: number;
  /** Only the chosen bodies (`answers`): an image with none gets 422. */
  chosenOnly?: boolean;
  /** Keep the image bytes of every request in `sent` (for tests of what an upload holds). */
  keepImages?: boolean;
}

export async function startChargingServer(o: ChargingOptions = {}): Promise<ChargingServer> {
  const delayMs = o.delayMs ?? 2000;
  const keys = new Map<string, KeyState>();
  let charged = 0;
  let credits = 0;
  const state: ChargingServer = {
    url: '',
    charges: () => charged,
    credits: () => credits,
    answers: new Map(),
    sent: [],
    requests: new Map(),
    inProgress: () => [...keys.values()].filter((k) => k.done === undefined).length,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  // A generous quota, said on every answer (api-spec.md "Limits"), when the test asks for one.
  const quota: Record<string, string> = o.quota === undefined ? {} : { 'ratelimit-policy': `"default";q=${o.quota};w=60`, ratelimit: `"default";r=${o.quota - 1};t=60` };
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => sendJson(res, status, body, { ...quota, ...headers });
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path === '/api/v1/credits') return send(res, 200, { success: true, data: { balance: 100000, api_balance: 100000, total_available: 100000, total_purchased: null, total_used: null } });
      if (req.method !== 'POST' || path !== '/api/v1/geolocate') return send(res, 404, { success: false, error: 'Not found', code: 'not_found', message: 'no such endpoint' });
      const key = String(req.headers['idempotency-key'] ?? '');
      state.requests.set(key, (state.requests.get(key) ?? 0) + 1);
      let parsed: { depth?: number; image_b64?: string; image_url?: string; scope?: Record<string, unknown> };
      try {
        parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
      } catch {
        return send(res, 400, { success: false, error: 'Bad request', code: 'invalid_request', message: 'malformed JSON' });
      }
      const image = Buffer.from(parsed.image_b64 ?? '', 'base64');
      const sha256 = createHash('sha256').update(image).digest('hex');
      state.sent.push({ sha256, ...(parsed.image_url !== undefined ? { image_url: parsed.image_url } : {}), ...(parsed.scope ? { scope: parsed.scope } : {}), depth: parsed.depth ?? 1, ...(o.keepImages ? { bytes: image } : {}) });
      const chosen = state.answers.get(sha256);
      if (!chosen && o.chosenOnly) return send(res, 422, { success: false, error: 'Unknown image', code: 'invalid_request', message: 'the test chose no answer for this image' });
      const payload = createHash('sha256').update(body).digest('hex');
      const k = keys.get(key);
      if (k && k.payload !== payload) return send(res, 409, { success: false, error: 'Conflict', code: 'idempotency_key_reused', message: 'another payload under this key' });
      if (k && k.done === undefined) return send(res, 409, { success: false, error: 'In progress', code: 'idempotency_in_progress', message: 'still processing' }, { 'retry-after': '1' });
      if (k && k.done !== undefined) return send(res, 200, JSON.parse(k.done), { 'idempotent-replayed': 'true' });
      const fresh: KeyState = { payload };
      keys.set(key, fresh);
      state.onStart?.(key);
      // The analysis runs whether or not the client is still there (a cancelled client has paid).
      await new Promise((r) => setTimeout(r, delayMs));
      await state.beforeComplete?.(key);
      charged++;
      const depth = (typeof o.answerDepth === 'function' ? o.answerDepth(charged) : o.answerDepth) ?? parsed.depth ?? 1;
      const answered = chosen ? (parsed.scope ? { scope_consistent: true, ...(chosen.scoped ?? chosen.plain) } : chosen.plain) : answerFor(createHash('sha256').update(JSON.stringify(parsed.image_b64 ?? '')).digest('hex'), depth, charged);
      credits += COST[chosen ? Number(answered.depth ?? depth) : depth] ?? 0;
      fresh.done = JSON.stringify(answered);
      if (!res.destroyed) send(res, 200, answered);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
