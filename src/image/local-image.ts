/**
 * A local image ready to send as image_b64 (api-spec.md: "Raw base64 of a JPEG or PNG ... Max
 * 20 MB"). Files are checked with stat before they are read, hashed as a stream and encoded in
 * chunks, so a 15 MB image is never held three times (bytes, base64 string, JSON body); only stdin,
 * which cannot be read twice, is held as one Buffer.
 */
import { createHash } from 'node:crypto';
import { type Stats, createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ImageB64Source } from '../api/body.js';
import { LIMITS, MAX_IMAGE_BYTES } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { checkReadableInput } from '../files/safe.js';
import { readChunks, readFileHead, readFileWhole, sha256File } from '../files/read.js';
import { type ImageKind, MIME, SNIFF_BYTES, describeNonImage, sniffKind } from './sniff.js';

export { type ImageKind, MIME, sniffKind } from './sniff.js';

export interface LocalImage {
  /** The path as given, or '-' for stdin. */
  source: string;
  size: number;
  sha256: string;
  kind: ImageKind;
  mime: string;
  /** Present when the input was read whole (stdin, pipes); files are streamed from disk instead. */
  bytes?: Buffer;
  b64: ImageB64Source;
}

/** What the API takes as-is; other kinds need converting. */
export const SENDABLE: ReadonlySet<ImageKind> = new Set<ImageKind>(['jpeg', 'png']);

// A multiple of 3, so every chunk but the last encodes to base64 without padding. Its base64 (64 KiB)
// is a string small enough for V8's young generation, which is reclaimed as the upload goes.
const CHUNK = 3 * 16 * 1024;
const fmt = (n: number) => n.toLocaleString('en-US');
const DOWNSCALE_HINT = 'downscale or recompress it (e.g. `convert in.jpg -resize 50% -quality 85 out.jpg`)';

/** Reads an image for sending: any failure is a one-line UsageError with a hint (exit 2). */
export async function loadImage(source: string, stdin: NodeJS.ReadableStream): Promise<LocalImage> {
  return prepare(source, stdin, MAX_IMAGE_BYTES, sendableOrThrow);
}

/**
 * Reads any image-like input without judging whether the API takes it (for `geo inspect`):
 * errors only for what cannot be read at all (missing, a folder, empty, not an image).
 * `maxBytes` bounds what is read whole from a pipe.
 */
export async function readImage(source: string, stdin: NodeJS.ReadableStream, opts: { maxBytes?: number; stat?: Stats; hashes?: HashCache } = {}): Promise<LocalImage> {
  return prepare(source, stdin, opts.maxBytes ?? MAX_IMAGE_BYTES, () => undefined, opts.stat, opts.hashes);
}

/**
 * Hashes of files read before, keyed by path and checked against the file's stat (the store's
 * file_hashes): a hit skips reading the file to learn its type and sha256.
 */
export interface HashCache {
  get(path: string, st: Stats): { sha256: string; kind: string } | undefined;
  put(path: string, st: Stats, h: { sha256: string; kind: string }): void;
}

/** Why the API would refuse this image as it is (type or size), or undefined when it takes it. */
export function unsendableReason(kind: ImageKind, size: number): { message: string; hint: string } | undefined {
  if (size > MAX_IMAGE_BYTES) {
    return {
      message: `${fmt(size)} bytes is over the API's 20 MB image limit: ${fmt(LIMITS.imageB64MaxChars)} base64 characters, i.e. at most ${fmt(MAX_IMAGE_BYTES)} bytes`,
      hint: DOWNSCALE_HINT,
    };
  }
  if (!SENDABLE.has(kind)) return { message: `${kind.toUpperCase()} is not accepted by the API, which takes JPEG or PNG`, hint: 'convert it first, e.g. `convert in.webp out.jpg`' };
  return undefined;
}

/** Throws a one-line UsageError unless the API takes this image as it is. */
export function sendableOrThrow(kind: ImageKind, size: number, source: string): void {
  const r = unsendableReason(kind, size);
  if (r) throw new UsageError(`${label(source)}: ${r.message}`, r.hint);
}

type Check = (kind: ImageKind, size: number, source: string) => void;

/** Files up to this size are read once for their type and sha256 (one open instead of two). */
const SMALL_FILE = 1024 * 1024;

async function prepare(source: string, stdin: NodeJS.ReadableStream, maxPipe: number, check: Check, known?: Stats, hashes?: HashCache): Promise<LocalImage> {
  const name = label(source);
  if (source === '-') return fromBytes(source, await readAll(stdin, name, maxPipe), check);

  const st = known ?? await stat(source).catch((e: NodeJS.ErrnoException) => {
    throw fsError(source, e);
  });
  if (st.isDirectory()) throw new UsageError(`${source} is a folder, not an image file`, 'pass image files (geo locate also takes folders)');
  if (!st.isFile()) {
    // A named FIFO with no writer would block forever, a device may never end: refused. A pipe the
    // shell already opened (`<(curl ...)`) can be read once only, so it is held like stdin.
    checkReadableInput(source, name, st);
    return fromBytes(source, await readAll(createReadStream(source), name, maxPipe), check);
  }
  if (st.size === 0) throw new UsageError(`${source} is empty (0 bytes)`, 'check the file was fully downloaded or copied');

  const hit = hashes?.get(source, st);
  if (hit) {
    check(hit.kind as ImageKind, st.size, source);
    return fileImage(source, st.size, hit.sha256, hit.kind as ImageKind);
  }
  // Type and size are judged from stat and the first bytes: nothing more is read until they pass.
  // A small file is read once for both (a folder of a thousand photos: a thousand opens fewer);
  // its bytes are not kept: the upload streams it from disk again.
  const small = st.size <= SMALL_FILE ? await readFileWhole(source, st.size).catch((e: NodeJS.ErrnoException) => {
    throw fsError(source, e);
  }) : undefined;
  const head = small ? small.subarray(0, SNIFF_BYTES) : await readHead(source);
  const kind = sniffKind(head);
  if (kind === 'unknown') throw notImage(source, head);
  check(kind, st.size, source);
  const sha256 = small ? createHash('sha256').update(small).digest('hex') : await sha256File(source);
  hashes?.put(source, st, { sha256, kind });
  return fileImage(source, st.size, sha256, kind);
}

/**
 * A file's base64, read from disk when streamed. A class, not a closure per file: a batch of
 * 100,000 files holds 100,000 of these until each is sent (memory that does not grow).
 */
class FileB64 implements ImageB64Source {
  readonly length: number;
  constructor(private readonly path: string, size: number) {
    this.length = b64Length(size);
  }
  stream(): AsyncIterable<string> {
    return encodeChunks(readChunks(this.path, CHUNK));
  }
}

/** A file on disk as an image to send: streamed from disk when sent, never held whole. */
export function fileImage(source: string, size: number, sha256: string, kind: ImageKind): LocalImage {
  return { source, size, sha256, kind, mime: MIME[kind], b64: new FileB64(source, size) };
}

/** An image already in memory (a conversion's output), taken as it is. */
export function imageFromBytes(source: string, bytes: Buffer): LocalImage {
  return fromBytes(source, bytes, () => undefined);
}

function fromBytes(source: string, bytes: Buffer, check: Check): LocalImage {
  const name = label(source);
  if (bytes.length === 0) throw new UsageError(`${name} is empty (0 bytes)`, source === '-' ? 'pipe image bytes in, e.g. `geo locate - < photo.jpg`' : undefined);
  const kind = sniffKind(bytes.subarray(0, SNIFF_BYTES));
  if (kind === 'unknown') throw notImage(name, bytes.subarray(0, SNIFF_BYTES));
  check(kind, bytes.length, source);
  return {
    source, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), kind, mime: MIME[kind], bytes,
    b64: { length: b64Length(bytes.length), stream: () => encodeChunks(slices(bytes)) },
  };
}

function label(source: string): string {
  return source === '-' ? 'stdin' : source;
}

export function b64Length(size: number): number {
  return 4 * Math.ceil(size / 3);
}

/** A pipe is read until it passes `max`: its full size is unknown, so say "more than". */
function tooLarge(name: string, max: number): UsageError {
  if (max !== MAX_IMAGE_BYTES) return new UsageError(`${name} is more than ${fmt(max)} bytes, too large to read whole`);
  return new UsageError(
    `${name} is more than ${fmt(max)} bytes, over the API's 20 MB image limit: ${fmt(LIMITS.imageB64MaxChars)} base64 characters, i.e. at most ${fmt(MAX_IMAGE_BYTES)} bytes`,
    DOWNSCALE_HINT,
  );
}

function notImage(name: string, head: Uint8Array): UsageError {
  return new UsageError(`${name} is not an image (${describeNonImage(head)}); JPEG or PNG expected`, 'the type is read from the bytes, not the file name');
}

function fsError(source: string, e: NodeJS.ErrnoException): UsageError {
  if (e.code === 'ENOENT') return new UsageError(`${source}: no such file`, 'check the path (quote it if it has spaces)');
  if (e.code === 'EACCES' || e.code === 'EPERM') return new UsageError(`${source}: permission denied`, 'check the file permissions');
  if (e.code === 'ENOTDIR') return new UsageError(`${source}: not a valid path (a part of it is a file)`);
  return new UsageError(`${source}: cannot be read (${e.code ?? e.message})`);
}

function readHead(path: string): Promise<Buffer> {
  return readFileHead(path, SNIFF_BYTES).catch((e: NodeJS.ErrnoException) => {
    throw fsError(path, e);
  });
}

/**
 * Reads a stream whole, refusing (without buffering further) once it passes `max` bytes, and as
 * soon as its first bytes say it is no image: a bounded prefix decides, so `geo inspect /dev/zero`
 * refuses after a few bytes instead of reading 256 MiB of zeros first.
 */
async function readAll(stream: NodeJS.ReadableStream, name: string, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  let sniffed = false;
  const stop = () => (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += buf.length;
    if (total > max) {
      stop();
      throw tooLarge(name, max);
    }
    parts.push(buf);
    if (!sniffed && total >= SNIFF_BYTES) {
      sniffed = true;
      const head = Buffer.concat(parts, total).subarray(0, SNIFF_BYTES);
      if (sniffKind(head) === 'unknown') {
        stop();
        throw notImage(name, head);
      }
    }
  }
  return Buffer.concat(parts, total);
}

function* slices(bytes: Buffer): Iterable<Buffer> {
  for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
}

/**
 * Base64 text of a byte stream, as strings; whatever the chunk sizes, 0-2 bytes are carried to the
 * next. Each chunk is encoded before the next is read, so the source may reuse its buffer
 * (readChunks does). Strings, not Buffers: the socket writes and frees their bytes as it goes, and
 * the strings are young-generation garbage, whereas a Buffer per chunk would stay allocated until
 * a full collection (peak-RSS budget).
 */
export async function* encodeChunks(source: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncIterable<string> {
  let carry = Buffer.alloc(0);
  for await (const chunk of source) {
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const whole = buf.length - (buf.length % 3);
    carry = Buffer.from(buf.subarray(whole));
    if (whole > 0) yield buf.toString('base64', 0, whole);
  }
  if (carry.length) yield carry.toString('base64');
}
