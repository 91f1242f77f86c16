/**
 * ISO-BMFF boxes of HEIF and AVIF files (ISO/IEC 14496-12, 23008-12), read without decoding: the
 * walk the size header (dimensions.ts) and the Exif item (below) are found by. Every read is
 * bounds-checked by Buffer, so a truncated or fuzzed file throws a RangeError the callers catch.
 */

/** The boxes of one type between `from` and `to`: where each one's contents start and where it ends. */
export function* boxes(b: Buffer, from: number, to: number, type: string): Generator<{ body: number; end: number }> {
  const limit = Math.min(to, b.length);
  for (let p = from; p + 8 <= limit; ) {
    const size32 = b.readUInt32BE(p);
    // size 1: a 64-bit size follows the type; size 0: the box runs to the end of its parent.
    const header = size32 === 1 ? 16 : 8;
    const size = size32 === 1 ? Number(b.readBigUInt64BE(p + 8)) : size32 === 0 ? to - p : size32;
    if (size < header) return; // a damaged size would loop forever or walk backwards
    if (b.toString('latin1', p + 4, p + 8) === type) yield { body: p + header, end: Math.min(p + size, limit) };
    p += size;
  }
}

/** The file's top-level meta box (a FullBox: its children start after 4 bytes of version and flags). */
export function metaBox(b: Buffer): { body: number; end: number } | undefined {
  if (b.length < 12 || b.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  for (const m of boxes(b, 0, b.length, 'meta')) return { body: m.body + 4, end: m.end };
  return undefined;
}

/** An unsigned big-endian integer of 0, 4 or 8 bytes (iloc's field sizes). */
function uint(b: Buffer, at: number, size: number): number {
  return size === 0 ? 0 : size === 8 ? Number(b.readBigUInt64BE(at)) : b.readUIntBE(at, size);
}

/** iinf: the id of the item whose type is `type` (infe version 2 or 3; older ones carry no type). */
function itemId(b: Buffer, meta: { body: number; end: number }, type: string): number | undefined {
  for (const iinf of boxes(b, meta.body, meta.end, 'iinf')) {
    const v = b[iinf.body]!;
    for (const infe of boxes(b, iinf.body + 4 + (v === 0 ? 2 : 4), iinf.end, 'infe')) {
      const iv = b[infe.body]!;
      if (iv < 2) continue;
      const idSize = iv === 3 ? 4 : 2;
      if (b.toString('latin1', infe.body + 4 + idSize + 2, infe.body + 4 + idSize + 6) === type) return uint(b, infe.body + 4, idSize);
    }
  }
  return undefined;
}

/**
 * iloc: the bytes of item `id`, its extents joined. Each extent's position is the item's base offset
 * plus the extent's offset, in the file (construction method 0) or in the meta box's idat (1).
 */
function itemBytes(b: Buffer, meta: { body: number; end: number }, id: number): Buffer | undefined {
  for (const iloc of boxes(b, meta.body, meta.end, 'iloc')) {
    const v = b[iloc.body]!;
    let p = iloc.body + 4;
    const [offsetSize, lengthSize] = [b[p]! >> 4, b[p]! & 15];
    const [baseSize, indexSize] = [b[p + 1]! >> 4, v === 0 ? 0 : b[p + 1]! & 15];
    p += 2;
    const count = uint(b, p, v === 2 ? 4 : 2);
    p += v === 2 ? 4 : 2;
    for (let i = 0; i < count && p < iloc.end; i++) {
      const item = uint(b, p, v === 2 ? 4 : 2);
      p += v === 2 ? 4 : 2;
      const method = v === 0 ? 0 : b.readUInt16BE(p) & 15;
      p += (v === 0 ? 0 : 2) + 2; // construction method, data reference index
      const base = uint(b, p, baseSize);
      p += baseSize;
      const extents = b.readUInt16BE(p);
      p += 2;
      const parts: Buffer[] = [];
      for (let e = 0; e < extents; e++) {
        p += indexSize;
        const offset = uint(b, p, offsetSize);
        const length = uint(b, p + offsetSize, lengthSize);
        p += offsetSize + lengthSize;
        if (item !== id) continue;
        const idat = method === 1 ? [...boxes(b, meta.body, meta.end, 'idat')][0]?.body : 0;
        if (idat === undefined || method > 1) return undefined;
        const start = idat + base + offset;
        if (start + length > b.length) return undefined; // cut short: not there to read
        parts.push(b.subarray(start, start + length));
      }
      if (item === id) return parts.length === 1 ? parts[0] : Buffer.concat(parts);
    }
  }
  return undefined;
}

/**
 * The TIFF block (EXIF) of a HEIF or AVIF, from its Exif item: a 4-byte offset, then the TIFF header
 * that many bytes further. exifr 7 reads the item at its extent offset alone, so in a HEIF written
 * by libheif (heif-enc, GIMP, ImageMagick), whose iloc puts the position in the base offset, it
 * finds "Malformed EXIF data"; this reads it as exiftool does. Undefined for other files.
 */
export function heifExifTiff(bytes: Uint8Array): Buffer | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const meta = metaBox(b);
    const id = meta && itemId(b, meta, 'Exif');
    const item = meta && id !== undefined ? itemBytes(b, meta, id) : undefined;
    if (!item || item.length < 8) return undefined;
    const tiff = item.subarray(4 + item.readUInt32BE(0));
    const order = tiff.toString('latin1', 0, 4);
    return order === 'MM\0*' || order === 'II*\0' ? tiff : undefined;
  } catch {
    return undefined; // a read past the end: a damaged or truncated file
  }
}
