/**
 * An independent ZIP reader for the KMZ tests (APPNOTE: end of central directory -> central
 * directory -> local headers). Its CRC-32 is the textbook table version, not node:zlib's, so the
 * writer's checksums are checked by other code than wrote them.
 */
import { inflateRawSync } from 'node:zlib';

export interface UnzippedEntry {
  name: string;
  method: number;
  data: Buffer;
  utf8Flag: boolean;
}

const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32Table(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Every entry, in central-directory order; throws on any inconsistency between the two headers. */
export function unzip(zip: Buffer): UnzippedEntry[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  const cdSize = zip.readUInt32LE(eocd + 12);
  let p = zip.readUInt32LE(eocd + 16);
  if (p + cdSize !== eocd) throw new Error('central directory does not end where the EOCD starts');
  const out: UnzippedEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central header ${i}`);
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const csize = zip.readUInt32LE(p + 20);
    const usize = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extra = zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extra;
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    if (zip.readUInt32LE(local + 14) !== crc || zip.readUInt32LE(local + 18) !== csize) throw new Error(`local and central headers differ for ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + csize);
    const data = method === 8 ? inflateRawSync(raw) : method === 0 ? Buffer.from(raw) : undefined;
    if (!data) throw new Error(`unknown method ${method} for ${name}`);
    if (data.length !== usize) throw new Error(`size of ${name}: ${data.length}, header says ${usize}`);
    if (crc32Table(data) !== crc) throw new Error(`CRC of ${name} does not match`);
    out.push({ name, method, data, utf8Flag: (flags & 0x0800) !== 0 });
  }
  return out;
}
