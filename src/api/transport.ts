/**
 * One HTTP attempt on undici, turned into either the raw answer or one typed failure that says
 * whether the request may have run (errors.ts). Redirects are never followed: undici's request()
 * does not follow them unless a redirect interceptor is installed, and none is.
 */
import type { Dispatcher } from 'undici';
import { request } from './undici.js';
import { type B64Chunk, BodySourceError } from './body.js';
import { decodeBody } from './decode.js';
import { ContractError, NetworkError, ResponseTooLargeError, TimeoutError } from './errors.js';

export { ResponseTooLargeError } from './errors.js';

export interface Attempt {
  /** GET and POST for the spec's routes; any method for `geo api`. */
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer | AsyncIterable<B64Chunk>;
  timeoutMs: number;
  maxResponseBytes: number;
  signal?: AbortSignal;
  dispatcher: Dispatcher;
}

export interface RawAnswer {
  status: number;
  /** lower-case names; repeated headers joined with ", " */
  headers: Record<string, string>;
  /** The body text, decoded (decode.ts). */
  raw: string;
  /** How the bytes deviated from plain JSON text (a BOM, gzip without Content-Encoding). */
  deviations: string[];
}

/**
 * Codes that mean the connection was never established, so no byte reached the server. Only these
 * make a NetworkError with mayHaveRun = false (and only these may resend POST /cases).
 */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

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
function toBody(b: Attempt['body']): Dispatcher.RequestOptions['body'] {
  if (b === undefined) return null;
  return b as Dispatcher.RequestOptions['body'];
}

export async function sendOnce(a: Attempt): Promise<RawAnswer> {
  const timer = new AbortController();
  const t = setTimeout(() => timer.abort(new TimeoutError(a.timeoutMs)), a.timeoutMs);
  const signal = a.signal ? AbortSignal.any([a.signal, timer.signal]) : timer.signal;
  const host = new URL(a.url).host;
  const failed = (err: unknown, stage: 'connect' | 'body', status = 0): Error => {
    if (a.signal?.aborted) return a.signal.reason instanceof Error ? a.signal.reason : new Error('aborted');
    if (timer.signal.aborted) return new TimeoutError(a.timeoutMs);
    const src = bodySourceError(err);
    if (src) return src;
    const code = errCode(err);
    if (stage === 'body') return new ContractError(`the response body was cut off (${code ?? 'connection closed'})`, status, true);
    if (code && NOT_CONNECTED.has(code)) return new NetworkError(`cannot connect to ${host} (${code})`, code, false);
    return new NetworkError(`the connection to ${host} failed (${code ?? (err instanceof Error ? err.message : 'unknown error')})`, code, true);
  };
  try {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(a.url, { method: a.method, headers: a.headers, body: toBody(a.body), signal, dispatcher: a.dispatcher });
    } catch (err) {
      throw failed(err, 'connect');
    }
    // destroy() below emits 'error' on the body; without a listener it would be an uncaught exception.
    res.body.on('error', () => {});
    const headers = flatHeaders(res.headers);
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > a.maxResponseBytes) {
      res.body.destroy();
      throw new ResponseTooLargeError(`the response declares ${declared} bytes, above the ${a.maxResponseBytes}-byte cap`, res.statusCode);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > a.maxResponseBytes) {
          res.body.destroy();
          throw new ResponseTooLargeError(`the response exceeds the ${a.maxResponseBytes}-byte cap`, res.statusCode);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof ResponseTooLargeError) throw err;
      throw failed(err, 'body', res.statusCode);
    }
    const body = await decodeBody(Buffer.concat(chunks), headers['content-encoding'], a.maxResponseBytes, res.statusCode);
    return { status: res.statusCode, headers, raw: body.text, deviations: body.deviations };
  } finally {
    clearTimeout(t);
  }
}
