/**
 * One HTTP attempt, turned into either the raw answer or one typed failure that says whether the
 * request may have run (errors.ts). Requests with a body go over node:http (node-exchange.ts says
 * why: interim 1xx answers); the others over undici. Redirects are never followed: undici's
 * request() does not follow them unless a redirect interceptor is installed (none is), and
 * node:http never does.
 *
 * What arrived is kept byte for byte (DESIGN.md "Never lose what was paid"): `bytes` is the body
 * once its Content-Encoding is undone, and a body that ends before its Content-Length is returned
 * as far as it came (`cutShort`) for the client to judge, not thrown away.
 */
import type { Dispatcher } from 'undici';
import { request } from './undici.js';
import { type B64Chunk, BodySourceError } from './body.js';
import { decodeBody, textOf } from './decode.js';
import { ContractError, NetworkError, ResponseTooLargeError, TimeoutError } from './errors.js';
import { type Exchanged, type NodeAgents, exchange } from './node-exchange.js';

export { ResponseTooLargeError } from './errors.js';

export interface Attempt {
  /** GET and POST for the spec's routes; any method for `geo api`. */
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer | AsyncIterable<B64Chunk>;
  timeoutMs: number;
  /** How long a connection may take to open (node:http; undici's Agent has its own). */
  connectTimeoutMs?: number;
  maxResponseBytes: number;
  signal?: AbortSignal;
  /** undici's, for requests without a body; one with a body goes over nodeAgents and needs none (a TSA query). */
  dispatcher?: Dispatcher;
  nodeAgents: NodeAgents;
}

export interface RawAnswer {
  status: number;
  /** lower-case names; repeated headers joined with ", " */
  headers: Record<string, string>;
  /** The body text (decode.ts): byte for byte where it is UTF-8, bytes that are not as \udcXX escapes. */
  raw: string;
  /** The body bytes exactly as received, once a declared Content-Encoding is undone (and the key masked: secret.ts). */
  bytes: Buffer;
  /** Set when the key was masked out of the body (secret.ts): the sha256 of the bytes as received. */
  receivedSha256?: string;
  /** How the bytes deviated from plain JSON text (a BOM, gzip without Content-Encoding, not UTF-8). */
  deviations: string[];
  /** The connection closed before the body was whole: how much came of what was declared. */
  cutShort?: { received: number; declared?: number; reason: string };
}

/**
 * Codes that mean the connection was never established, so no byte reached the server. Only these
 * make a NetworkError with mayHaveRun = false (and only these may resend POST /cases).
 */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'CONNECT_TIMEOUT']);

function errCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; errors?: unknown[]; cause?: unknown } | undefined;
  if (typeof e?.code === 'string') return e.code;
  // Happy-eyeballs connects (autoSelectFamily) fail with an AggregateError of per-address errors.
  if (Array.isArray(e?.errors)) for (const inner of e.errors) if (typeof (inner as { code?: unknown })?.code === 'string') return (inner as { code: string }).code;
  if (e?.cause && e.cause !== err) return errCode(e.cause);
  return undefined;
}

function bodySourceError(err: unknown): BodySourceError | undefined {
  for (let e = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) if (e instanceof BodySourceError) return e;
  return undefined;
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * undici takes an async iterable body as it is (its README; its types list only streams) and writes
 * each chunk to the socket, strings included, waiting for 'drain' between them. Wrapping it in a
 * Readable would turn every string into a Buffer that lingers until a garbage collection.
 */
async function viaUndici(a: Attempt, signal: AbortSignal): Promise<Exchanged> {
  if (!a.dispatcher) throw new Error('a request without a body needs an undici dispatcher');
  const res = await request(a.url, { method: a.method, headers: a.headers, body: (a.body ?? null) as Dispatcher.RequestOptions['body'], signal, dispatcher: a.dispatcher });
  return { status: res.statusCode, headers: res.headers, body: res.body, destroy: () => res.body.destroy(), release: () => {} };
}

export async function sendOnce(a: Attempt): Promise<RawAnswer> {
  const timer = new AbortController();
  let connected = false;
  const connectTimeout = (): NetworkError => new NetworkError(`cannot connect to ${host} (connect timeout)`, 'CONNECT_TIMEOUT', false);
  const t = setTimeout(() => timer.abort(a.body !== undefined && !connected ? connectTimeout() : new TimeoutError(a.timeoutMs)), a.timeoutMs);
  const ct = a.body !== undefined && a.connectTimeoutMs !== undefined && a.connectTimeoutMs < a.timeoutMs
    ? setTimeout(() => !connected && timer.abort(connectTimeout()), a.connectTimeoutMs) : undefined;
  const signal = a.signal ? AbortSignal.any([a.signal, timer.signal]) : timer.signal;
  const host = new URL(a.url).host;
  const failed = (err: unknown): Error => {
    if (a.signal?.aborted) return a.signal.reason instanceof Error ? a.signal.reason : new Error('aborted');
    if (timer.signal.aborted) return timer.signal.reason as Error;
    const src = bodySourceError(err);
    if (src) return src;
    const code = errCode(err);
    if (code && NOT_CONNECTED.has(code)) return new NetworkError(`cannot connect to ${host} (${code})`, code, false);
    return new NetworkError(`the connection to ${host} failed (${code ?? (err instanceof Error ? err.message : 'unknown error')})`, code, true);
  };
  try {
    let res: Exchanged;
    try {
      res = a.body !== undefined
        ? await exchange({ method: a.method, url: a.url, headers: a.headers, body: a.body, signal, agents: a.nodeAgents, onConnect: () => (connected = true) })
        : await viaUndici(a, signal);
    } catch (err) {
      throw failed(err);
    }
    const headers = flatHeaders(res.headers);
    const declaredText = headers['content-length'];
    const declared = declaredText !== undefined && /^\d+$/.test(declaredText.trim()) ? Number(declaredText) : undefined;
    if (declared !== undefined && declared > a.maxResponseBytes) {
      res.destroy();
      throw new ResponseTooLargeError(`the response declares ${declared} bytes, above the ${a.maxResponseBytes}-byte cap`, res.status);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let cutShort: RawAnswer['cutShort'];
    try {
      for await (const chunk of res.body) {
        size += chunk.length;
        if (size > a.maxResponseBytes) {
          res.destroy();
          throw new ResponseTooLargeError(`the response exceeds the ${a.maxResponseBytes}-byte cap`, res.status);
        }
        chunks.push(chunk);
      }
    } catch (err) {
      if (err instanceof ResponseTooLargeError) throw err;
      const why = failed(err);
      // Ours (a cancel, the timeout, the image source): not the server's doing, so no answer.
      if (a.signal?.aborted || timer.signal.aborted || why instanceof BodySourceError) throw why;
      cutShort = { received: size, ...(declared !== undefined ? { declared } : {}), reason: errCode(err) ?? 'connection closed' };
    }
    res.release();
    const wire = Buffer.concat(chunks);
    let body;
    try {
      body = await decodeBody(wire, headers['content-encoding'], a.maxResponseBytes, res.status);
    } catch (err) {
      if (!cutShort || err instanceof ResponseTooLargeError) throw err;
      // Half a gzip stream does not inflate: the cut is what went wrong, and what came is kept.
      throw cutOff(res.status, cutShort, wire);
    }
    return { status: res.status, headers, raw: body.text, bytes: body.bytes, deviations: body.deviations, ...(cutShort ? { cutShort } : {}) };
  } finally {
    clearTimeout(t);
    if (ct) clearTimeout(ct);
  }
}

/** The unknown outcome of a body that ended early (retried with the same key), keeping what came. */
export function cutOff(status: number, cut: NonNullable<RawAnswer['cutShort']>, bytes: Buffer): ContractError {
  const of = cut.declared !== undefined ? ` after ${cut.received} of ${cut.declared} declared bytes` : ` after ${cut.received} bytes`;
  const err = new ContractError(`the response body was cut off${of} (${cut.reason})`, status, true);
  err.rawBytes = bytes;
  err.raw = textOf(bytes);
  return err;
}
