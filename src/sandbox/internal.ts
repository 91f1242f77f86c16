/**
 * The sandbox's own paths (not part of the API contract, no auth, no rate limit):
 *   GET /__sandbox/ledger        per key: balances, debits, refunds, model calls, idempotency keys.
 *                                Loopback callers only: it exposes every key's activity.
 *   GET /__sandbox/openapi.json  OpenAPI 3.1 generated from the zod schemas and routes.
 *   POST /__sandbox/tsa          a test time-stamp authority (RFC 3161), and
 *   GET /__sandbox/tsa/ca.pem    its throwaway CA (tsa-http.ts).
 */
import { isLoopbackHost } from '../api/schemas.js';
import { type Exchange, sendError, sendJson } from './http.js';
import type { SandboxRuntime } from './runtime.js';
import { TSA_CA_PATH, TSA_PATH } from '../evidence/tsa-sandbox.js';

function isLoopbackAddress(addr: string | undefined): boolean {
  if (!addr) return false;
  return isLoopbackHost(addr) || addr.startsWith('::ffff:127.');
}

export async function handleInternal(ex: Exchange, rt: SandboxRuntime): Promise<void> {
  const path = ex.url.pathname;
  if (path === TSA_PATH || path === TSA_CA_PATH) return (await import('./tsa-http.js')).serveTsa(ex, rt);
  const known = path === '/__sandbox/ledger' || path === '/__sandbox/openapi.json';
  if (!known) return sendError(ex, 'not_found', `no sandbox path ${path}; there are /__sandbox/ledger, /__sandbox/openapi.json, /__sandbox/tsa and /__sandbox/tsa/ca.pem`);
  if (ex.req.method !== 'GET') return sendError(ex, 'method_not_allowed', `${ex.req.method} is not allowed on ${path}; use GET`, {}, { Allow: 'GET' });
  if (path === '/__sandbox/openapi.json') {
    const { openApiDocument } = await import('./openapi.js');
    return sendJson(ex, 200, openApiDocument(ex.base));
  }
  if (!isLoopbackAddress(ex.req.socket.remoteAddress)) return sendError(ex, 'forbidden', 'the ledger is served to loopback callers only');
  sendJson(ex, 200, { success: true, at: new Date(rt.now()).toISOString(), ...rt.state.ledger() });
}
