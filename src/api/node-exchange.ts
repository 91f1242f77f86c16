/**
 * One exchange over node:http(s), for requests that carry a body (POST /geolocate, POST /cases,
 * `geo api` with a body).
 *
 * Why not undici here: RFC 9110 §15.2 says a client must read past interim (1xx) answers it did
 * not ask for, and proxies do send `100 Continue` to a request with content even when no
 * `Expect: 100-continue` was sent. undici (7.x) destroys the socket on any 100 it did not ask for
 * ("bad response", UND_ERR_SOCKET), so a paid answer that followed was never read and every retry
 * met the same fate. node:http reads a 100, 102 or 103 as an 'information' event and
 * goes on to the final answer. Requests without a body stay on undici (client.ts): a 100 answers
 * request content (RFC 9110 §15.2.1), and undici reads 102 and 103 past already.
 */
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { B64Chunk } from './body.js';

export interface Exchanged {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer>;
  /** Drops the connection (a cap was passed, or the attempt ended early). */
  destroy(): void;
  /** After the body was read: a request whose body was cut short by an early answer cannot be reused. */
  release(): void;
}

export interface ExchangeArgs {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer | AsyncIterable<B64Chunk>;
  signal: AbortSignal;
  agents: NodeAgents;
  /** Called once the socket is connected (a connect that never happens sends nothing). */
  onConnect(): void;
}

type Send = (url: URL, options: RequestOptions) => ClientRequest;

/**
 * A keep-alive agent per protocol; idle sockets are unref'd by node, so they never hold the
 * process. node:http and node:https are loaded on the first request with a body: every command
 * that sends none (`geo credits`, the start-up budget) would otherwise load tls too.
 */
export class NodeAgents {
  #http?: { agent: HttpAgent; send: Send };
  #https?: { agent: HttpAgent; send: Send };
  async for(protocol: string): Promise<{ agent: HttpAgent; send: Send }> {
    if (protocol === 'https:') {
      if (!this.#https) {
        const https = await import('node:https');
        this.#https = { agent: new https.Agent({ keepAlive: true }), send: https.request };
      }
      return this.#https;
    }
    if (!this.#http) {
      const http = await import('node:http');
      this.#http = { agent: new http.Agent({ keepAlive: true }), send: http.request };
    }
    return this.#http;
  }
  close(): void {
    this.#http?.agent.destroy();
    this.#https?.agent.destroy();
  }
}

/** Writes the body with back-pressure; stops (without error) once the answer has come. */
async function writeBody(req: ClientRequest, body: ExchangeArgs['body'], answered: () => boolean, gone: Promise<void>): Promise<void> {
  if (Buffer.isBuffer(body)) {
    req.end(body);
    return;
  }
  const it = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      if (answered() || req.destroyed) return;
      const r = await it.next();
      if (r.done) break;
      if (!req.write(r.value)) await Promise.race([new Promise<void>((ok) => req.once('drain', ok)), gone]);
    }
    if (!answered() && !req.destroyed) req.end();
  } finally {
    // Ended early (the server answered first, or the attempt failed): the source closes its file now.
    await it.return?.();
  }
}

/**
 * Sends the request and resolves with the final answer's status and headers; its body is read
 * by the caller. Rejects with the error that ended the attempt before an answer (the body
 * source's own error included, as it was thrown).
 */
export async function exchange(a: ExchangeArgs): Promise<Exchanged> {
  const u = new URL(a.url);
  const { agent, send } = await a.agents.for(u.protocol);
  return new Promise<Exchanged>((resolve, reject) => {
    let res: IncomingMessage | undefined;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(err);
    };
    const req = send(u, { method: a.method, headers: a.headers, agent });
    const gone = new Promise<void>((ok) => req.once('close', ok));
    const onAbort = () => {
      if (!res) return fail(a.signal.reason);
      res.destroy(a.signal.reason instanceof Error ? a.signal.reason : new Error('aborted'));
      req.destroy();
    };
    if (a.signal.aborted) return fail(a.signal.reason);
    a.signal.addEventListener('abort', onAbort, { once: true });
    req.once('close', () => a.signal.removeEventListener('abort', onAbort));
    req.on('socket', (s) => {
      if (!s.connecting) a.onConnect();
      else s.once('connect', () => a.onConnect());
    });
    // Interim answers (100, 102, 103) are read past: node:http parses them as 'information'.
    req.on('information', () => {});
    req.on('error', (err) => {
      // After the answer came, a write error (the server closed without reading our body) is no
      // failure of the exchange; the answer's own stream reports a cut-off body.
      if (res) return;
      fail(err);
    });
    req.on('response', (r) => {
      res = r;
      settled = true;
      resolve({
        status: r.statusCode ?? 0,
        headers: r.headers,
        body: r,
        destroy: () => {
          r.destroy();
          req.destroy();
        },
        release: () => {
          if (!req.writableEnded) req.destroy();
        },
      });
    });
    writeBody(req, a.body, () => res !== undefined, gone).catch((err: unknown) => fail(err));
  });
}
