/**
 * One request/response exchange and the ways to answer it. Faults that act on the wire (truncate,
 * reset-after) live here, at the single place bytes are written.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SANDBOX_HEADER } from '../api/routes.js';
import type { Account } from './state.js';
import { type ErrorCode, type ErrorExtras, apiErrorBody, prefersProblem, problemBody } from './errors.js';
import type { Fault } from './faults.js';
import type { RateInfo } from './ratelimit.js';

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  id: string;
  url: URL;
  /** Base URL of this sandbox (for docs links). */
  base: string;
  key?: string;
  account?: Account;
  /** Rate-limit headers to send with whatever answer this gets. */
  rateHeaders?: Record<string, string>;
  rate?: RateInfo;
  fault?: Fault;
}

/** Writes a complete answer, honouring the truncate and reset-after faults. */
export function send(ex: Exchange, status: number, contentType: string, payload: string | Buffer, headers: Record<string, string> = {}): void {
  const { res } = ex;
  if (res.headersSent || res.destroyed) return;
  const buf = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  res.statusCode = status;
  res.setHeader('X-Request-Id', ex.id);
  res.setHeader(SANDBOX_HEADER, 'simulated; credits=sandbox');
  for (const [k, v] of Object.entries({ ...ex.rateHeaders, ...headers })) res.setHeader(k, v);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(buf.length));
  if (ex.fault?.kind === 'reset-after') {
    // The work is done and recorded; the client just never hears about it.
    ex.req.socket.destroy();
    return;
  }
  if (ex.fault?.kind === 'truncate') {
    res.flushHeaders();
    res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => setImmediate(() => ex.req.socket.destroy()));
    return;
  }
  res.end(buf);
}

export function sendJson(ex: Exchange, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(ex, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

export function sendError(ex: Exchange, code: ErrorCode, message: string, extras: ErrorExtras = {}, headers: Record<string, string> = {}): void {
  const full = apiErrorBody(ex.base, ex.id, code, message, extras);
  if (prefersProblem(ex.req.headers.accept)) {
    send(ex, full.status, 'application/problem+json; charset=utf-8', JSON.stringify(problemBody(full)), headers);
  } else {
    sendJson(ex, full.status, full, headers);
  }
}

export type BodyResult = { ok: true; buf: Buffer } | { ok: false; tooLarge: true };

/**
 * Reads the body up to `max` bytes. Past the limit it stops reading at once (no 20 MB buffering of
 * an oversize upload) and the caller answers 422 with Connection: close.
 */
export function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ ok: false, tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolve({ ok: true, buf: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

/** Sleeps, but gives up (rejects) when the sandbox closes. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('sandbox closed'));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('sandbox closed'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
