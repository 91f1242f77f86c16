/**
 * One RFC 3161 exchange over HTTP (RFC 3161 §3.4): POST the DER query as
 * application/timestamp-query, read an application/timestamp-reply back.
 *
 * It goes through geo's own HTTP layer (api/transport.ts sendOnce), not undici directly: a POST
 * with a body there rides node:http, which reads past interim 1xx answers that proxies send
 * (undici drops the socket on them), and it brings the timeout, the connect timeout,
 * the response cap and the typed NetworkError / TimeoutError that cli.ts maps to exit 6. Nothing
 * of the API client comes along: no key, no Idempotency-Key, no retries (a TSA request is free
 * and cheap to make again; `geo cases stamp --pending` is the retry).
 */
import { NodeAgents } from '../api/node-exchange.js';
import { ContractError, NetworkError, TimeoutError } from '../api/errors.js';
import { sendOnce } from '../api/transport.js';
import { checkTsaUrl } from './tsa-url.js';
import { TimestampError } from './tsa-errors.js';

/** A reply is a few kilobytes (a token and a certificate or two); anything past this is not one. */
const MAX_REPLY_BYTES = 1024 * 1024;
const REPLY_TYPES = new Set(['application/timestamp-reply', 'application/timestamp-response']);

export interface SendOptions {
  /** The whole exchange (default 30 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Printable ASCII only: a server's words go to a terminal (DESIGN.md: server strings escaped). */
const tame = (s: string) => s.replace(/[^\x20-\x7e]+/g, ' ').trim().slice(0, 160);

/**
 * POSTs `query` (tsa-request.ts) to the TSA at `url` and returns the reply's DER, unread.
 * Throws NetworkError / TimeoutError when the TSA could not be reached or did not answer in time
 * (queue the request: isUnreachable), TimestampError when it answered something that is no reply.
 */
export async function sendTimestampQuery(url: string, query: Buffer, opts: SendOptions = {}): Promise<Buffer> {
  const href = checkTsaUrl(url);
  const host = new URL(href).host;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const nodeAgents = new NodeAgents();
  try {
    const answer = await sendOnce({
      method: 'POST',
      url: href,
      headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply', 'content-length': String(query.length) },
      body: query,
      timeoutMs,
      connectTimeoutMs: Math.min(timeoutMs, 10_000),
      maxResponseBytes: MAX_REPLY_BYTES,
      nodeAgents,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (answer.status >= 300 && answer.status < 400) throw new TimestampError('refused', `${host} answered ${answer.status} (a redirect${answer.headers.location ? ` to ${tame(answer.headers.location)}` : ''}); geo does not follow redirects`, 'configure the URL the TSA documents');
    if (answer.status !== 200) throw new TimestampError('refused', `${host} answered HTTP ${answer.status}${answer.raw ? `: ${tame(answer.raw)}` : ''}`);
    if (answer.cutShort) throw new TimestampError('unreadable', `the reply from ${host} was cut off after ${answer.cutShort.received} bytes`);
    const type = (answer.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!REPLY_TYPES.has(type)) throw new TimestampError('unreadable', `${host} answered ${type || 'no Content-Type'}, not application/timestamp-reply`, 'is this the URL of the TSA itself (not its web page)?');
    return answer.bytes;
  } catch (err) {
    // The transport's own cap error is a ContractError; for a TSA it simply is no reply.
    if (err instanceof ContractError) throw new TimestampError('unreadable', `the reply from ${host}: ${err.message}`);
    throw err;
  } finally {
    nodeAgents.close();
  }
}

/** Whether `err` means the TSA was not reached or did not answer: keep the request pending and send it later. */
export function isUnreachable(err: unknown): boolean {
  return err instanceof NetworkError || err instanceof TimeoutError;
}
