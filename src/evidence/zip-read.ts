/**
 * A small ZIP reader for verifying bundles (PKWARE APPNOTE 6.3: end of central directory ->
 * central directory -> local headers; stored and deflated members; no ZIP64, no encryption), the
 * counterpart of output/export/zip.ts. It never extracts: each member is streamed from the one
 * open descriptor through inflate, sha256 and CRC-32, so memory stays flat whatever the bundle
 * holds, and nothing is written anywhere. A member that inflates past its declared size is stopped.
 *
 * It refuses what would let two readers see two different archives (zip-layout.ts): bytes
 * no member covers (a local header hidden before or between members, or after a deflate stream
 * inside a member's data), local headers that disagree with the directory, a name twice, links
 * and special members, and names that could escape the folder (bundle-format.ts unsafeMemberName).
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import { unsafeMemberName } from './bundle-format.js';
import { type Span, coverage, duplicates, localMismatch, typeProblem } from './zip-layout.js';

/** The file is not a zip geo can read (no end of central directory, ZIP64, a damaged directory). */
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
  /** Where the member's local header starts, and its data (after that header). */
  localOffset: number;
  dataOffset: number;
}

export interface ZipDirectory {
  members: ZipMember[];
  /** One line per refusal, naming the member: an archive with any is not read further. */
  refusals: string[];
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
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

const q = (s: string) => JSON.stringify(s);

type Parsed = ZipMember & Span;

/** Every member, in central-directory order, each checked against its local header; the refusals, each naming its member. */
export async function readZipDirectory(fh: FileHandle): Promise<ZipDirectory> {
  const fileSize = (await fh.stat()).size;
  if (fileSize < EOCD_SIZE) throw new ZipFormatError('too short to be a zip file');
  const tailStart = Math.max(0, fileSize - EOCD_SIZE - MAX_COMMENT);
  const tail = await readAt(fh, tailStart, fileSize - tailStart);
  const at = findEocd(tail);
  if (at < 0) throw new ZipFormatError('no end of central directory: not a zip file');
  const eocdAt = tailStart + at;
  const count = tail.readUInt16LE(at + 10);
  const cdSize = tail.readUInt32LE(at + 12);
  const cdOffset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new ZipFormatError('a ZIP64 archive (bundles are plain zips under 4 GiB)');
  if (tail.readUInt16LE(at + 4) !== 0 || tail.readUInt16LE(at + 6) !== 0 || tail.readUInt16LE(at + 8) !== count) throw new ZipFormatError('a multi-disk archive');
  if (cdOffset + cdSize > eocdAt) throw new ZipFormatError('the central directory lies outside the file');
  const cd = await readAt(fh, cdOffset, cdSize);
  const refusals: string[] = [];
  const refuse = (name: string, why: string) => refusals.push(`refused: member ${q(name)} ${why}`);
  const members: Parsed[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL) throw new ZipFormatError(`central directory entry ${i + 1} is damaged`);
    const flags = cd.readUInt16LE(p + 8);
    const nameLen = cd.readUInt16LE(p + 28);
    const skip = cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
    const name = cd.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const m = { name, method: cd.readUInt16LE(p + 10), encrypted: (flags & 1) !== 0, crc: cd.readUInt32LE(p + 16), compressedSize: cd.readUInt32LE(p + 20), size: cd.readUInt32LE(p + 24) };
    const madeBy = cd.readUInt16LE(p + 4);
    const external = cd.readUInt32LE(p + 38);
    const local = cd.readUInt32LE(p + 42);
    p += 46 + nameLen + skip;
    if (local + 30 > fileSize) throw new ZipFormatError(`the local header of ${q(name)} lies outside the file`);
    const head = await readAt(fh, local, 30);
    if (head.readUInt32LE(0) !== LOCAL) throw new ZipFormatError(`no local header where the directory puts ${q(name)}`);
    const localName = (await readAt(fh, local + 30, head.readUInt16LE(26))).toString('utf8');
    if (localName !== name) throw new ZipFormatError(`the local header names ${q(localName)}, the directory ${q(name)}`);
    const dataOffset = local + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
    if (dataOffset + m.compressedSize > fileSize) throw new ZipFormatError(`the data of ${q(name)} runs past the end of the file`);
    let end = dataOffset + m.compressedSize;
    const described = (flags & 8) !== 0;
    if (described) end += await descriptorLength(fh, end, fileSize, m);
    const unsafe = unsafeMemberName(name);
    const bad = (unsafe && `has ${unsafe}`) ?? localMismatch(head, flags, m, described) ?? typeProblem(name, madeBy, external);
    if (bad) refuse(name, bad);
    else if (m.method === 0 && m.compressedSize !== m.size) refuse(name, `is stored with ${m.compressedSize} bytes but declares ${m.size}`);
    members.push({ ...m, localOffset: local, dataOffset, end });
  }
  if (p !== cd.length) refusals.push(`refused: the central directory holds ${cd.length - p} bytes after its last entry, which no member covers`);
  refusals.push(...coverage(members, cdOffset, cdOffset + cdSize, eocdAt));
  refusals.push(...duplicates(members));
  return { members: members.map(({ end: _e, ...m }) => m), refusals };
}

/** A data descriptor's length (its signature is optional), after checking it says what the directory does. */
async function descriptorLength(fh: FileHandle, at: number, fileSize: number, m: { crc: number; compressedSize: number; size: number; name: string }): Promise<number> {
  if (at + 12 > fileSize) throw new ZipFormatError(`the data descriptor of ${q(m.name)} runs past the end of the file`);
  const d = await readAt(fh, at, Math.min(16, fileSize - at));
  const signed = d.readUInt32LE(0) === DESCRIPTOR && d.length === 16;
  const o = signed ? 4 : 0;
  if (d.readUInt32LE(o) !== m.crc || d.readUInt32LE(o + 4) !== m.compressedSize || d.readUInt32LE(o + 8) !== m.size) throw new ZipFormatError(`the data descriptor of ${q(m.name)} disagrees with the central directory`);
  return signed ? 16 : 12;
}

export interface MemberDigest {
  sha256: string;
  size: number;
  /** The bytes, when asked for (keep) and within maxKeep. */
  bytes?: Buffer;
}

/** The member's compressed bytes, read from the descriptor in chunks. */
async function* compressed(fh: FileHandle, m: ZipMember): AsyncGenerator<Buffer> {
  const chunk = 256 * 1024;
  for (let at = 0; at < m.compressedSize; ) {
    const n = Math.min(chunk, m.compressedSize - at);
    const buf = Buffer.allocUnsafe(n);
    const { bytesRead } = await fh.read(buf, 0, n, m.dataOffset + at);
    if (bytesRead === 0) throw new Error('the file ends inside its data');
    yield buf.subarray(0, bytesRead);
    at += bytesRead;
  }
}

/**
 * Streams one member: its sha256 and size, and its bytes when `keep` (up to maxKeep). Throws a
 * plain Error naming the problem (unsupported method, encrypted, damaged, CRC, size, bytes left
 * after its deflate stream ends, where a local header could hide).
 */
export async function digestMember(fh: FileHandle, m: ZipMember, opts: { keep?: boolean; maxKeep?: number } = {}): Promise<MemberDigest> {
  if (m.encrypted) throw new Error('encrypted');
  if (m.method !== 0 && m.method !== 8) throw new Error(`compression method ${m.method} (geo reads stored and deflated members)`);
  if (opts.keep && m.size > (opts.maxKeep ?? Infinity)) throw new Error(`too large to read (${m.size} bytes)`);
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let crc = 0;
  let size = 0;
  const source = Readable.from(compressed(fh, m));
  const inflate = m.method === 8 ? createInflateRaw() : undefined;
  if (inflate) source.on('error', (e) => inflate.destroy(e));
  const stream: AsyncIterable<Buffer> = inflate ? source.pipe(inflate) : source;
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
    source.destroy();
  }
  if (size !== m.size) throw new Error(`holds ${size} bytes, its header says ${m.size}`);
  if (crc >>> 0 !== m.crc) throw new Error('its CRC-32 does not match: damaged');
  // zlib stops at the end of the deflate stream and ignores what follows: bytes a streaming reader could take for a member.
  if (inflate && inflate.bytesWritten !== m.compressedSize) throw new Error(`${m.compressedSize - inflate.bytesWritten} bytes follow the end of its compressed data`);
  return { sha256: hash.digest('hex'), size, ...(opts.keep ? { bytes: Buffer.concat(kept) } : {}) };
}
