/**
 * The image bytes of a request: decoded image_b64, or image_url fetched (https, or http on loopback
 * so tests can serve fixtures) with a timeout and a size cap. Also the content screening rule.
 */
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { inflateSync } from 'node:zlib';
import { MAX_IMAGE_BYTES } from '../api/schemas.js';

export const FETCH_TIMEOUT_MS = 10_000;

/** "Raw base64 of a JPEG or PNG" (api-spec.md request table): the sandbox checks the magic bytes. */
export function isJpegOrPng(buf: Buffer): boolean {
  const jpeg = buf.length > 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff;
  const png = buf.length > 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return jpeg || png;
}

/**
 * Content screening (sandbox rule): an image fails screening (422 content_blocked, never charged)
 * when its pixels hold this ASCII marker: a PNG whose decompressed image data (IDAT) contains it,
 * as the first row of fixtures/images/blocked.png spells it. In the pixels, not in a text chunk,
 * because geo removes metadata before upload and screening must survive that. Raw bytes
 * holding it anywhere (an image sent with --keep-metadata and a marker comment) count as well.
 */
export const BLOCK_MARKER = 'SANDBOX_CONTENT_BLOCKED';
export function isBlocked(buf: Buffer): boolean {
  if (buf.includes(BLOCK_MARKER, 0, 'latin1')) return true;
  const idat = pngImageData(buf);
  if (!idat) return false;
  try {
    return inflateSync(idat, { maxOutputLength: 256 * 1024 * 1024 }).includes(BLOCK_MARKER, 0, 'latin1');
  } catch {
    return false;
  }
}

/** The concatenated IDAT payloads of a PNG, or undefined for anything else. */
function pngImageData(buf: Buffer): Buffer | undefined {
  if (!isJpegOrPng(buf) || buf[0] !== 0x89) return undefined;
  const parts: Buffer[] = [];
  for (let pos = 8; pos + 12 <= buf.length; ) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    if (type === 'IDAT') parts.push(buf.subarray(pos + 8, Math.min(buf.length, pos + 8 + len)));
    if (type === 'IEND') break;
    pos += 12 + len;
  }
  return parts.length ? Buffer.concat(parts) : undefined;
}

export type Fetched = { ok: true; buf: Buffer } | { ok: false; reason: string };

/** GET image_url: no redirects, 200 only, at most MAX_IMAGE_BYTES, FETCH_TIMEOUT_MS overall. */
export function fetchImage(url: string, signal: AbortSignal): Promise<Fetched> {
  return new Promise((resolve) => {
    let done = false;
    let req: ReturnType<typeof httpGet> | undefined;
    const timer = setTimeout(() => {
      req?.destroy();
      finish({ ok: false, reason: `image_url did not answer within ${FETCH_TIMEOUT_MS / 1000} s` });
    }, FETCH_TIMEOUT_MS);
    const finish = (r: Fetched) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    try {
      req = get(url, { signal, headers: { accept: 'image/jpeg, image/png' } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return finish({ ok: false, reason: `image_url answered HTTP ${res.statusCode}` });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_IMAGE_BYTES) {
            res.destroy();
            return finish({ ok: false, reason: 'image_url is larger than 20 MB' });
          }
          chunks.push(c);
        });
        res.on('end', () => finish({ ok: true, buf: Buffer.concat(chunks) }));
        res.on('error', (e) => finish({ ok: false, reason: `image_url could not be read: ${e.message}` }));
      });
    } catch (e) {
      return finish({ ok: false, reason: `image_url could not be fetched: ${(e as Error).message}` });
    }
    req.on('error', (e) => finish({ ok: false, reason: `image_url could not be fetched: ${e.message}` }));
  });
}
