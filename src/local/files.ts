/** Small file reads shared by image loading, batch hashing, inspect and the EXIF check. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';

/** The first `n` bytes of a file (fewer when it is shorter), without reading the rest. */
export async function readFileHead(path: string, n: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** sha256 of a file, streamed: the file is never held whole. */
export async function sha256File(path: string, chunkBytes = 1024 * 1024): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes })) hash.update(chunk as Buffer);
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
