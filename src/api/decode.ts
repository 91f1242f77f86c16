/**
 * From the bytes on the wire to the body text, liberally (Postel; DESIGN.md "Never lose what was
 * paid"): a Content-Encoding the server declared is undone, a gzip body sent without one is
 * recognised by its magic bytes, and a UTF-8 byte order mark is dropped. What deviates from the
 * contract ("JSON responses", RFC 8259 forbids the BOM) is named, not fatal. Only a body that
 * cannot be decoded at all is unreadable (ContractError, retried like any unreadable body).
 */
import { ContractError, ResponseTooLargeError } from './errors.js';

export interface Decoded {
  text: string;
  deviations: string[];
}

const GZIP_MAGIC = [0x1f, 0x8b];

async function inflate(kind: string, bytes: Buffer, maxBytes: number): Promise<Buffer> {
  const zlib = await import('node:zlib');
  const opts = { maxOutputLength: maxBytes };
  if (kind === 'gzip' || kind === 'x-gzip') return zlib.gunzipSync(bytes, opts);
  if (kind === 'br') return zlib.brotliDecompressSync(bytes, opts);
  // "deflate" is zlib-wrapped by RFC 9110, but some servers send it raw.
  try {
    return zlib.inflateSync(bytes, opts);
  } catch {
    return zlib.inflateRawSync(bytes, opts);
  }
}

export async function decodeBody(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number, status: number): Promise<Decoded> {
  const deviations: string[] = [];
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  let body = bytes;
  if (codings.length === 0 && body.length > 2 && body[0] === GZIP_MAGIC[0] && body[1] === GZIP_MAGIC[1]) {
    codings.push('gzip');
    deviations.push('body: gzip-compressed without a Content-Encoding header');
  }
  // Codings are listed in the order they were applied: undo them last to first.
  for (const kind of codings.reverse()) {
    if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(kind)) throw new ContractError(`the ${status} response uses an unknown Content-Encoding (${kind})`, status);
    try {
      body = await inflate(kind, body, maxBytes);
    } catch (err) {
      // The cap applies to the decoded size too: a small gzip must not inflate past it.
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ResponseTooLargeError(`the ${status} response inflates past the ${maxBytes}-byte cap`, status);
      throw new ContractError(`the ${status} response body could not be decompressed (${kind})`, status);
    }
  }
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    deviations.push('body: starts with a UTF-8 byte order mark');
  }
  return { text, deviations };
}
