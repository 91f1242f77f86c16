/**
 * A photo geo fetches from the web itself (an https URL input), so that what is located is bytes
 * geo has hashed, read the metadata of and stripped, like a file's. Redirects are followed here, one
 * hop at a time, so that each is recorded and each is held to the rule the API's base URL is held
 * to: https, or plain http to a loopback host only (api/validators.ts isAcceptableImageUrl).
 *
 * Nothing of geo goes with the request: no key, no Idempotency-Key, no geo user agent; a connection
 * pool of its own that the API never uses. Bounded like a file: a declared length over the limit is
 * refused before the body is read, the body is cut off the moment it passes the limit, its first
 * bytes are sniffed as they come (a web page is refused after a few bytes, not 20 MB), and one
 * timeout covers the whole exchange, redirects included.
 */
import { sha256Hex } from './custody.js';
import { isAcceptableImageUrl } from '../api/validators.js';
import { createAgent, request } from '../api/undici.js';
import { CancelledError, UsageError } from '../errors.js';
import { SNIFF_BYTES, describeNonImage, sniffKind } from '../image/sniff.js';
import type { FetchedFrom } from './record-types.js';

/** Hops followed at most (browsers follow about 20; a photo's address rarely needs more than two). */
export const MAX_REDIRECTS = 5;
export const FETCH_TIMEOUT_MS = 60_000;
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const HINT = 'check the address in a browser (the image itself, not the page showing it); --service-fetch lets the service fetch it instead';

export interface FetchOptions {
  /** Bytes read at most (the limit an input file has). */
  maxBytes: number;
  /** The hint when the photo is larger than maxBytes. */
  tooLargeHint?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  now: () => number;
}

export interface FetchedPhoto {
  bytes: Buffer;
  fetched: FetchedFrom;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const header = (h: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
};
/** A host's words go to a terminal: printable ASCII, one line, short. */
const tame = (s: string) => s.replace(/[^\x20-\x7e]+/g, ' ').trim().slice(0, 200);

function refused(url: string, why: string, hint = HINT): UsageError {
  return new UsageError(`${tame(url)}: ${why}; nothing was sent`, hint);
}

/** What the last answer said of the bytes, as the record keeps it (headers not sent are left out). */
function answerFacts(h: Record<string, string | string[] | undefined>): Pick<FetchedFrom, 'content_type' | 'content_length' | 'etag' | 'last_modified'> {
  const type = header(h, 'content-type');
  const length = header(h, 'content-length')?.trim();
  const etag = header(h, 'etag');
  const modified = header(h, 'last-modified');
  return {
    ...(type !== undefined ? { content_type: type } : {}),
    ...(length !== undefined && /^\d+$/.test(length) ? { content_length: Number(length) } : {}),
    ...(etag !== undefined ? { etag } : {}),
    ...(modified !== undefined ? { last_modified: modified } : {}),
  };
}

/** The body as it comes: refused past maxBytes, and as soon as its first bytes are no image. */
async function readBody(url: string, body: AsyncIterable<Buffer> & { destroy(): void }, o: FetchOptions): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  let sniffed = false;
  const sniff = () => {
    sniffed = true;
    const head = Buffer.concat(parts, total).subarray(0, SNIFF_BYTES);
    if (sniffKind(head) === 'unknown') {
      body.destroy();
      throw refused(url, total === 0 ? 'the photo host answered with no bytes' : `not an image (${describeNonImage(head)})`);
    }
  };
  for await (const chunk of body) {
    total += chunk.length;
    if (total > o.maxBytes) {
      body.destroy();
      throw refused(url, `more than ${fmt(o.maxBytes)} bytes, over the limit of one image (reading stopped there)`, o.tooLargeHint);
    }
    parts.push(chunk);
    if (!sniffed && total >= SNIFF_BYTES) sniff();
  }
  if (!sniffed) sniff();
  return Buffer.concat(parts, total);
}

/**
 * GETs the photo at `url`, following at most MAX_REDIRECTS redirects, and returns its bytes with
 * the record of how they were got. Every refusal is a one-line UsageError (exit 2, nothing sent).
 */
export async function fetchPhoto(url: string, o: FetchOptions): Promise<FetchedPhoto> {
  if (!isAcceptableImageUrl(url)) throw refused(url, 'not an https URL (plain http is taken only from this machine)');
  const timeoutMs = o.timeoutMs ?? FETCH_TIMEOUT_MS;
  const timer = new AbortController();
  const t = setTimeout(() => timer.abort(), timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timer.signal]) : timer.signal;
  const agent = await createAgent({ connect: { timeout: Math.min(timeoutMs, 30_000) }, headersTimeout: 0, bodyTimeout: 0 });
  const redirects: FetchedFrom['redirects'] = [];
  let at = url;
  try {
    for (;;) {
      const res = await request(at, { method: 'GET', headers: { accept: 'image/*, */*;q=0.5', 'accept-encoding': 'identity' }, signal, dispatcher: agent });
      // A body given up (a redirect's, a refused one's) is destroyed: its abort is no one's error.
      res.body.on('error', () => undefined);
      const retrievedAt = new Date(o.now()).toISOString();
      const location = header(res.headers, 'location');
      if (REDIRECT_STATUS.has(res.statusCode) && location !== undefined) {
        res.body.destroy();
        let next: string;
        try {
          next = new URL(location, at).href;
        } catch {
          throw refused(url, `redirected (${res.statusCode}) to ${tame(location)}, which is no address`);
        }
        redirects.push({ url: at, status: res.statusCode, location });
        if (!isAcceptableImageUrl(next)) throw refused(url, `redirected (${res.statusCode}) to ${tame(next)}: geo follows https only, or plain http to this machine`);
        if (redirects.length > MAX_REDIRECTS) throw refused(url, `more than ${MAX_REDIRECTS} redirects`);
        at = next;
        continue;
      }
      if (res.statusCode !== 200) {
        res.body.destroy();
        throw refused(url, `the photo host answered HTTP ${res.statusCode}${at !== url ? ` at ${tame(at)}` : ''}`);
      }
      const facts = answerFacts(res.headers);
      // A web page is no photo, whatever it holds: refused before a byte of it is read.
      if (/^\s*(text\/html|application\/xhtml)/i.test(facts.content_type ?? '')) {
        res.body.destroy();
        throw refused(url, `the photo host answered a web page (${tame(facts.content_type!)}), not an image`);
      }
      if (facts.content_length !== undefined && facts.content_length > o.maxBytes) {
        res.body.destroy();
        throw refused(url, `the photo host declares ${fmt(facts.content_length)} bytes, over the ${fmt(o.maxBytes)} of one image (nothing of it was read)`, o.tooLargeHint);
      }
      const bytes = await readBody(url, res.body, o);
      const sha256 = sha256Hex(bytes);
      return { bytes, fetched: { url, redirects, final_url: at, retrieved_at: retrievedAt, status: res.statusCode, ...facts, sha256, size: bytes.length } };
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (o.signal?.aborted) throw new CancelledError(`cancelled while fetching ${tame(url)}: nothing was sent`);
    if (timer.signal.aborted) throw refused(url, `the photo host did not answer within ${timeoutMs / 1000} s`);
    throw refused(url, `could not be fetched (${errorCode(err)})`);
  } finally {
    clearTimeout(t);
    await agent.destroy().catch(() => undefined);
  }
}

/** The error's code (ECONNREFUSED, ENOTFOUND, a TLS code), else its message. */
function errorCode(err: unknown): string {
  for (let e = err as { code?: unknown; cause?: unknown; message?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string') return e.code;
  }
  return err instanceof Error ? tame(err.message) : 'unknown error';
}
