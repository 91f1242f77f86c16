/** Small file reads shared by image loading, batch hashing, inspect and the EXIF check. */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, readFile } from 'node:fs/promises';
import { specialKind } from './safe.js';

/** The first `n` bytes of a file (fewer when it is shorter), without reading the rest. */
export async function readFileHead(path: string, n: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    // Unsafe is fine: only the bytes read are handed out.
    const buf = Buffer.allocUnsafe(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** A small file whole, in one open and read of its `size` bytes (fewer when it shrank meanwhile). */
export function readFileWhole(path: string, size: number): Promise<Buffer> {
  return readFileHead(path, size);
}

/**
 * The buffer for reading `size` bytes in chunks of `chunkBytes`: no larger than they need (a
 * multiple of 3, as chunkBytes is, so base64 chunks never carry bytes over). A 2 KB photo read
 * through a 48 KiB buffer left 46 KiB of it to the next garbage collection, and a dry run of
 * 100,000 photos reached 30 MB of such buffers between collections.
 */
function chunkBuffer(size: number, chunkBytes: number): Buffer {
  return Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(3, Math.ceil(size / 3) * 3)));
}

/**
 * A file's bytes in order, read into ONE buffer that every chunk reuses: each yielded view is valid
 * only until the next is requested, so the consumer must copy or digest it first. A read stream
 * allocates a fresh buffer per chunk instead, and those stay in memory until a garbage collection:
 * 15 MB of them for a 15 MB photo (peak-RSS budget; bench/image.mjs).
 */
export async function* readChunks(path: string, chunkBytes: number): AsyncGenerator<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = chunkBuffer((await fh.stat()).size, chunkBytes);
    chunkBytes = buf.length;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, chunkBytes, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

/** What the file must still be: its size and sha256 when it was hashed, and the error if it is not. */
export interface Expected {
  size: number;
  sha256: string;
  changed: () => Error;
}

/**
 * Byte ranges [from, to) of a file and in-memory pieces, in order, through one reused buffer (same
 * contract as readChunks: each view is valid until the next is requested). Every chunk but the
 * last is exactly `chunkBytes` long, whatever the piece boundaries: a multiple of 3 keeps the
 * base64 encoder from carrying bytes over, which would cost a fresh Buffer per chunk (the
 * peak-RSS budget). Pieces must follow the file's order (a metadata removal plan does).
 *
 * With `expect`, the bytes sent are the bytes hashed: the whole file is read in order
 * (the ranges left out are read for the hash only), a read that comes up short or a file that
 * grew throws `expect.changed()` at once, and the last chunk is held back until the file's sha256
 * is checked, so a file rewritten in place never completes a body under its Idempotency-Key.
 */
export async function* readRanges(path: string, pieces: ReadonlyArray<{ from: number; to: number } | Buffer>, chunkBytes: number, expect?: Expected): AsyncGenerator<Buffer> {
  const fh = await open(path, 'r');
  try {
    // Every chunk but the last is chunkBytes long: a buffer no longer than all the pieces holds the one chunk there is.
    const buf = chunkBuffer(pieces.reduce((n, p) => n + (Buffer.isBuffer(p) ? p.length : p.to - p.from), 0), chunkBytes);
    const hash = expect ? createHash('sha256') : undefined;
    let hashedTo = 0;
    /** Hashes the file from where the hash stands up to `pos` (bytes no piece sends). */
    const skipTo = async (pos: number, scratch: Buffer) => {
      while (hash && hashedTo < pos) {
        const { bytesRead } = await fh.read(scratch, 0, Math.min(scratch.length, pos - hashedTo), hashedTo);
        if (bytesRead === 0) throw expect!.changed();
        hash.update(scratch.subarray(0, bytesRead));
        hashedTo += bytesRead;
      }
    };
    const scratch = expect ? chunkBuffer(expect.size + 1, Math.min(chunkBytes, 64 * 1024)) : buf;
    let filled = 0;
    for (const p of pieces) {
      let at = Buffer.isBuffer(p) ? 0 : p.from;
      const end = Buffer.isBuffer(p) ? p.length : p.to;
      if (!Buffer.isBuffer(p)) await skipTo(at, scratch);
      while (at < end) {
        const want = Math.min(chunkBytes - filled, end - at);
        let got: number;
        if (Buffer.isBuffer(p)) got = p.copy(buf, filled, at, at + want);
        else {
          ({ bytesRead: got } = await fh.read(buf, filled, want, at));
          if (hash) {
            // Shorter than planned: the file shrank since it was hashed.
            if (got < want) throw expect!.changed();
            hash.update(buf.subarray(filled, filled + got));
            hashedTo = at + got;
          }
        }
        if (got === 0) break;
        at += got;
        filled += got;
        if (filled === chunkBytes) {
          yield buf;
          filled = 0;
        }
      }
    }
    if (expect && hash) {
      await skipTo(expect.size, scratch);
      const grew = (await fh.read(scratch, 0, 1, expect.size)).bytesRead > 0;
      if (grew || hash.digest('hex') !== expect.sha256) throw expect.changed();
    }
    if (filled > 0) yield buf.subarray(0, filled);
  } finally {
    await fh.close();
  }
}

/** A path that names something other than a regular file (a FIFO, a device, a folder, a link when links are refused). */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
  constructor(
    readonly path: string,
    /** In words: "a FIFO (named pipe)", "a symbolic link", "a device". */
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file`);
  }
}

/**
 * Opens a file geo did not just choose (one a custody log names, an original) for reading, without
 * ever blocking: O_NONBLOCK, so a FIFO put where a report was opens at once instead of
 * waiting for a writer; fstat on the descriptor before any read, so what is refused (a FIFO, a
 * device, a folder) is the very thing opened; and with `noFollow`, O_NOFOLLOW: a symbolic link
 * put at the path is refused, not followed. Throws NotRegularFileError for those, the open's own
 * error (ENOENT…) otherwise. O_NONBLOCK changes nothing for reads of a regular file.
 */
export async function openRegularFile(path: string, o: { noFollow?: boolean } = {}): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | (o.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (err) {
    // Linux says ELOOP (and the BSDs EMLINK) for O_NOFOLLOW on a link.
    const code = (err as NodeJS.ErrnoException).code;
    if (o.noFollow && (code === 'ELOOP' || code === 'EMLINK')) throw new NotRegularFileError(path, 'a symbolic link');
    throw err;
  }
  const kind = specialKind(await fh.stat().catch(async (e: unknown) => {
    await fh.close();
    throw e;
  }));
  if (kind !== undefined) {
    await fh.close();
    throw new NotRegularFileError(path, kind);
  }
  return fh;
}

/** sha256 of a file openRegularFile accepts, streamed: never blocks, never follows a link with `noFollow`. */
export async function sha256RegularFile(path: string, o: { noFollow?: boolean } = {}): Promise<string> {
  const fh = await openRegularFile(path, o);
  try {
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(256 * 1024);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return hash.digest('hex');
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
}

/** sha256 of a file, streamed: the file is never held whole. */
export async function sha256File(path: string, chunkBytes = 256 * 1024): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of readChunks(path, chunkBytes)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * The bytes EXIF needs. A JPEG keeps its EXIF in APP1 segments (64 KiB at most each) before the
 * image data, so its first 256 KiB suffice and a 15 MB photo is not read a second time; PNG (eXIf
 * may follow IDAT) and HEIC (EXIF may sit at the end) are read whole.
 */
export async function readForExif(path: string): Promise<Buffer> {
  const head = await readFileHead(path, 256 * 1024);
  const isJpeg = head[0] === 0xff && head[1] === 0xd8;
  return isJpeg ? head : readFile(path);
}
