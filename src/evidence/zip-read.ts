/**
 * A small ZIP reader for verifying bundles (PKWARE APPNOTE 6.3: end of central directory ->
 * central directory -> local headers; stored and deflated members; no ZIP64, no encryption), the
 * counterpart of output/export/zip.ts. It never extracts: each member is streamed from the file
 * through inflate, sha256 and CRC-32, so memory stays flat whatever the bundle holds, and
 * nothing is written anywhere. A member that inflates past its declared size is stopped there.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { crc32, createInflateRaw } from 'node:zlib';

/** The file is not a zip geo can read (no end of central directory, ZIP64, inconsistent headers). */
export class ZipFormatError extends Error {
  override readonly name = 'ZipFormatError';
}

export interface ZipMember {
  name: string;
  method: number;
  encrypted: boolean;
  crc: number;
  compressedSize: number;
  size: number;
  /** Where the member's data starts (after its local header). */
  dataOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  if (bytesRead !== length) throw new ZipFormatError('the file ends inside a zip header');
  return buf;
}

/** The end-of-central-directory record: the last signature whose comment reaches exactly the end. */
function findEocd(tail: Buffer): number {
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD && i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length) return i;
  }
  return -1;
}

/** Every member, in central-directory order, each checked against its local header. */
export async function readZipDirectory(fh: FileHandle): Promise<ZipMember[]> {
  const fileSize = (await fh.stat()).size;
  if (fileSize < EOCD_SIZE) throw new ZipFormatError('too short to be a zip file');
  const tailStart = Math.max(0, fileSize - EOCD_SIZE - MAX_COMMENT);
  const tail = await readAt(fh, tailStart, fileSize - tailStart);
  const at = findEocd(tail);
  if (at < 0) throw new ZipFormatError('no end of central directory: not a zip file');
  const count = tail.readUInt16LE(at + 10);
  const cdSize = tail.readUInt32LE(at + 12);
  const cdOffset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new ZipFormatError('a ZIP64 archive (bundles are plain zips under 4 GiB)');
  if (tail.readUInt16LE(at + 4) !== 0 || tail.readUInt16LE(at + 6) !== 0 || tail.readUInt16LE(at + 8) !== count) throw new ZipFormatError('a multi-disk archive');
  if (cdOffset + cdSize > tailStart + at) throw new ZipFormatError('the central directory lies outside the file');
  const cd = await readAt(fh, cdOffset, cdSize);
  const members: ZipMember[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL) throw new ZipFormatError(`central directory entry ${i + 1} is damaged`);
    const flags = cd.readUInt16LE(p + 8);
    const nameLen = cd.readUInt16LE(p + 28);
    const skip = cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
    const name = cd.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const m = { name, method: cd.readUInt16LE(p + 10), encrypted: (flags & 1) !== 0, crc: cd.readUInt32LE(p + 16), compressedSize: cd.readUInt32LE(p + 20), size: cd.readUInt32LE(p + 24) };
    const local = cd.readUInt32LE(p + 42);
    p += 46 + nameLen + skip;
    if (local + 30 > fileSize) throw new ZipFormatError(`the local header of ${JSON.stringify(name)} lies outside the file`);
    const head = await readAt(fh, local, 30);
    if (head.readUInt32LE(0) !== LOCAL) throw new ZipFormatError(`no local header where the directory puts ${JSON.stringify(name)}`);
    const localName = (await readAt(fh, local + 30, head.readUInt16LE(26))).toString('utf8');
    if (localName !== name) throw new ZipFormatError(`the local header names ${JSON.stringify(localName)}, the directory ${JSON.stringify(name)}`);
    const dataOffset = local + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
    if (dataOffset + m.compressedSize > fileSize) throw new ZipFormatError(`the data of ${JSON.stringify(name)} runs past the end of the file`);
    members.push({ ...m, dataOffset });
  }
  return members;
}

export interface MemberDigest {
  sha256: string;
  size: number;
  /** The bytes, when asked for (keep) and within maxKeep. */
  bytes?: Buffer;
}

/**
 * Streams one member: its sha256 and size, and its bytes when `keep` (up to maxKeep). Throws a
 * plain Error naming the problem (unsupported method, encrypted, damaged, CRC, size).
 */
export async function digestMember(path: string, m: ZipMember, opts: { keep?: boolean; maxKeep?: number } = {}): Promise<MemberDigest> {
  if (m.encrypted) throw new Error('encrypted');
  if (m.method !== 0 && m.method !== 8) throw new Error(`compression method ${m.method} (geo reads stored and deflated members)`);
  if (opts.keep && m.size > (opts.maxKeep ?? Infinity)) throw new Error(`too large to read (${m.size} bytes)`);
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let crc = 0;
  let size = 0;
  // An empty stored member has no bytes to read (a read stream cannot end before it starts).
  const source = m.compressedSize === 0 ? undefined : createReadStream(path, { start: m.dataOffset, end: m.dataOffset + m.compressedSize - 1 });
  let stream: AsyncIterable<Buffer> | Iterable<Buffer> = source ?? [];
  if (source && m.method === 8) {
    const inflate = createInflateRaw();
    source.on('error', (e) => inflate.destroy(e));
    stream = source.pipe(inflate);
  }
  try {
    for await (const chunk of stream) {
      size += chunk.length;
      if (size > m.size) throw new Error(`inflates beyond its declared ${m.size} bytes`);
      hash.update(chunk);
      crc = crc32(chunk, crc);
      if (opts.keep) kept.push(chunk);
    }
  } catch (e) {
    throw new Error(e instanceof Error && /inflates beyond/.test(e.message) ? e.message : `damaged data (${e instanceof Error ? e.message : String(e)})`);
  } finally {
    source?.destroy();
  }
  if (size !== m.size) throw new Error(`holds ${size} bytes, its header says ${m.size}`);
  if (crc >>> 0 !== m.crc) throw new Error('its CRC-32 does not match: damaged');
  return { sha256: hash.digest('hex'), size, ...(opts.keep ? { bytes: Buffer.concat(kept) } : {}) };
}
