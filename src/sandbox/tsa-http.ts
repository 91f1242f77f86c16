/**
 * The sandbox's time-stamp authority over HTTP (RFC 3161 §3.4): POST /__sandbox/tsa with an
 * application/timestamp-query body answers application/timestamp-reply (a refused request is a
 * reply too, with its status); GET /__sandbox/tsa/ca.pem gives the throwaway CA to trust with
 * `geo cases verify --tsa-ca`. The CA is made when one of them is first asked for (a few ms of
 * ECDSA keys, and the ASN.1 chunk loaded only then) and kept, in memory, for the sandbox's run.
 */
import { type Exchange, readBody, send, sendError } from './http.js';
import type { SandboxRuntime } from './runtime.js';
import { TSA_CA_PATH, TSA_PATH } from '../evidence/tsa-sandbox.js';
import { makeSandboxCa } from './tsa-ca.js';
import { SandboxTsa } from './tsa.js';


/** A query is a hundred bytes or so; anything past this is not one. */
const MAX_QUERY_BYTES = 64 * 1024;

const tsaOf = (rt: SandboxRuntime) => (rt.tsa ??= Promise.resolve().then(() => new SandboxTsa(makeSandboxCa(rt.now()))));

export async function serveTsa(ex: Exchange, rt: SandboxRuntime): Promise<void> {
  const path = ex.url.pathname;
  const method = path === TSA_PATH ? 'POST' : 'GET';
  if (ex.req.method !== method) return sendError(ex, 'method_not_allowed', `${ex.req.method} is not allowed on ${path}; use ${method}`, {}, { Allow: method });
  const tsa = await tsaOf(rt);
  if (path === TSA_CA_PATH) return send(ex, 200, 'application/x-pem-file', tsa.ca.caPem);
  const type = (ex.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/timestamp-query') return send(ex, 415, 'text/plain; charset=utf-8', `a time-stamp request is sent as application/timestamp-query (RFC 3161 section 3.4), not ${type || 'no Content-Type'}\n`);
  const body = await readBody(ex.req, MAX_QUERY_BYTES);
  if (!body.ok) return send(ex, 413, 'text/plain; charset=utf-8', `a time-stamp request is at most ${MAX_QUERY_BYTES} bytes\n`);
  send(ex, 200, 'application/timestamp-reply', tsa.reply(body.buf, rt.now()));
}
