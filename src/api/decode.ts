/**
 * From the bytes on the wire to the body text, liberally (Postel; DESIGN.md "Never lose what was
 * paid"): a Content-Encoding the server declared is undone, a gzip body sent without one is
 * recognised by its magic bytes, and a UTF-8 byte order mark is dropped. What deviates from the
 * contract ("JSON responses", RFC 8259 forbids the BOM) is named, not fatal. Only a body that
 * cannot be decoded at all is unreadable (ContractError, retried like any unreadable body).
 */
import { isUtf8 } from 'node:buffer';
import { ContractError, ResponseTooLargeError } from './errors.js';

export interface Decoded {
  /** The body as text: BOM dropped, bytes that are not UTF-8 written as \udcXX escapes (textOf). */
  text: string;
  /** The body bytes once the content codings are undone, BOM and all: what was received. */
  bytes: Buffer;
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
  if (hasBom(body)) deviations.push('body: starts with a UTF-8 byte order mark');
  const invalid = isUtf8(body) ? 0 : countInvalidUtf8(body);
  if (invalid > 0) deviations.push(`body: not valid UTF-8 (${invalid} byte${invalid === 1 ? '' : 's'}, shown as \\udcXX escapes; the bytes are kept)`);
  return { text: bodyText(body), bytes: body, deviations };
}

const hasBom = (b: Buffer) => b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

/** A body's text as geo shows and parses it: BOM dropped, bytes that are not UTF-8 as \udcXX (textOf). The store reads its BLOBs back with it. */
export function bodyText(body: Buffer): string {
  return textOf(hasBom(body) ? body.subarray(3) : body);
}

/** Length of the well-formed UTF-8 sequence at `i` (Unicode 15, table 3-7), or 0 when there is none. */
function sequenceAt(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n === 0 || i + n > b.length) return 0;
  const c1 = b[i + 1]!;
  const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
  const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
  if (c1 < lo || c1 > hi) return 0;
  for (let k = 2; k < n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  return n;
}

function countInvalidUtf8(b: Uint8Array): number {
  let bad = 0;
  for (let i = 0; i < b.length; ) {
    const n = sequenceAt(b, i);
    if (n === 0) bad++;
    i += n || 1;
  }
  return bad;
}

/**
 * The bytes as text, losing nothing ("raw means raw"): well-formed UTF-8 as itself, and
 * each byte that is not as the six characters `\udcXX` (XX its value; Python's surrogateescape,
 * PEP 383). Inside a JSON string that is a valid escape, so the body still parses, `--json` shows
 * where the bytes were, and the byte can be recovered; U+FFFD would have hidden both.
 */
export function textOf(b: Buffer): string {
  return withStrayBytes(b, (byte) => `\\udc${byte.toString(16).padStart(2, '0')}`);
}

/** Well-formed UTF-8 as itself, each byte that is not spelled by `spell` (textOf, escapedText). */
function withStrayBytes(b: Buffer, spell: (byte: number) => string): string {
  if (isUtf8(b)) return b.toString('utf8');
  let out = '';
  let from = 0;
  for (let i = 0; i < b.length; ) {
    const n = sequenceAt(b, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += b.toString('utf8', from, i) + spell(b[i]!);
    from = ++i;
  }
  return out + b.toString('utf8', from);
}

/**
 * The bytes as a string that gives them back exactly (bytesOfEscaped): well-formed UTF-8 as itself,
 * each other byte as the lone surrogate U+DC00 + its value (PEP 383's surrogateescape). Masking
 * (mask.ts) reads a body through it, so a body that is not UTF-8 is masked without losing a byte.
 */
export function escapedText(b: Buffer): string {
  return withStrayBytes(b, (byte) => String.fromCharCode(0xdc00 + byte));
}

/** escapedText's string back to its bytes: a lone U+DC80..U+DCFF is the byte it stands for. */
export function bytesOfEscaped(s: string): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const lone = c >= 0xdc80 && c <= 0xdcff && !(i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff);
    if (!lone) continue;
    parts.push(Buffer.from(s.slice(from, i), 'utf8'), Buffer.from([c - 0xdc00]));
    from = i + 1;
  }
  if (parts.length === 0) return Buffer.from(s, 'utf8');
  parts.push(Buffer.from(s.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * The body as base64 when its text does not give the bytes back (bytes that are not UTF-8, a BOM),
 * else undefined: journals and records keep `raw` for people and this beside it, so nothing that
 * was received is lost.
 */
export function rawB64(text: string | undefined, bytes: Buffer | undefined): string | undefined {
  if (bytes === undefined || (text !== undefined && Buffer.from(text, 'utf8').equals(bytes))) return undefined;
  return bytes.toString('base64');
}
