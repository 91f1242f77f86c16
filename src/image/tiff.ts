/**
 * The little of TIFF (the structure inside EXIF) that metadata removal needs: what IFD0 holds,
 * and a minimal TIFF carrying only the Orientation tag (TIFF 6.0 section 2; EXIF 2.32 4.6).
 */

const TAG_ORIENTATION = 0x0112;
/** IFD0 tags that say what an EXIF block gives away (TIFF 6.0, EXIF 2.32 4.6.3). */
const REVEALS: Array<[number[], string]> = [
  [[0x8825], 'GPS'],
  [[0x010f, 0x0110], 'camera'],
  [[0x8769, 0x0132], 'capture details'],
  [[0x013b, 0x8298], 'owner'],
];

/** Orientation and what IFD0 holds, read from a TIFF structure; undefined parts when damaged. */
export function readTiffIfd0(tiff: Buffer): { orientation?: number; holds: string[] } {
  const holds: string[] = [];
  if (tiff.length < 8) return { holds };
  const le = tiff.toString('latin1', 0, 2) === 'II';
  if (!le && tiff.toString('latin1', 0, 2) !== 'MM') return { holds };
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return { holds };
  const n = u16(ifd);
  const tags = new Set<number>();
  let orientation: number | undefined;
  for (let i = 0; i < n && ifd + 2 + i * 12 + 12 <= tiff.length; i++) {
    const e = ifd + 2 + i * 12;
    const tag = u16(e);
    tags.add(tag);
    // Orientation is a SHORT (type 3), count 1, its value in the entry's first two bytes.
    if (tag === TAG_ORIENTATION && u16(e + 2) === 3) {
      const v = u16(e + 8);
      if (v >= 1 && v <= 8) orientation = v;
    }
  }
  for (const [ids, label] of REVEALS) if (ids.some((t) => tags.has(t))) holds.push(label);
  return { ...(orientation !== undefined ? { orientation } : {}), holds };
}

/** A big-endian TIFF whose IFD0 holds only Orientation: 26 bytes, nothing else to learn from it. */
export function minimalTiff(orientation: number): Buffer {
  const t = Buffer.alloc(26);
  t.write('MM', 0, 'latin1');
  t.writeUInt16BE(42, 2);
  t.writeUInt32BE(8, 4);
  t.writeUInt16BE(1, 8);
  t.writeUInt16BE(TAG_ORIENTATION, 10);
  t.writeUInt16BE(3, 12);
  t.writeUInt32BE(1, 14);
  t.writeUInt16BE(orientation, 18);
  // bytes 20-21 pad the value field; 22-25: no next IFD.
  return t;
}

/**
 * A copy of `tiff` whose Orientation (when IFD0 has one) says 1, upright: for pixels already turned
 * upright (a HEIC's, which libheif turns by its irot and imir boxes), so a viewer does not turn them twice.
 */
export function uprightTiff(tiff: Buffer): Buffer {
  const t = Buffer.from(tiff);
  if (t.length < 8) return t;
  const le = t.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? t.readUInt16LE(o) : t.readUInt16BE(o));
  const ifd = le ? t.readUInt32LE(4) : t.readUInt32BE(4);
  if (ifd + 2 > t.length) return t;
  for (let i = 0, n = u16(ifd); i < n && ifd + 2 + i * 12 + 12 <= t.length; i++) {
    const e = ifd + 2 + i * 12;
    if (u16(e) === TAG_ORIENTATION && u16(e + 2) === 3) {
      if (le) t.writeUInt16LE(1, e + 8);
      else t.writeUInt16BE(1, e + 8);
    }
  }
  return t;
}
