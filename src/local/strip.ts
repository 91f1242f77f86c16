/**
 * Metadata stays home (issue 14): before upload, geo removes what a photo says about its owner
 * (EXIF GPS and camera serials, XMP, IPTC, comments, maker segments) without touching a pixel.
 * Lossless by construction: the result is the original's bytes minus whole segments or chunks, so
 * the JPEG entropy-coded data and the PNG IDAT go out byte for byte. Orientation survives as a
 * minimal EXIF holding only the Orientation tag, so the service sees the picture the right way up.
 *
 * JPEG (ITU T.81 B.1): kept are every marker segment that describes the picture (SOF, DHT, DQT,
 * DRI, SOS and the scans), JFIF (APP0), the ICC profile (APP2 "ICC_PROFILE") and Adobe (APP14,
 * colour transform); removed are APP1 (EXIF, XMP), APP13 (IPTC), COM, every other APPn (MPF, FPXR,
 * JFXX thumbnails, maker segments) and whatever follows EOI (appended gain maps and previews).
 * PNG (RFC 2083 + eXIf extension): removed are tEXt, zTXt, iTXt, eXIf, tIME and anything after IEND.
 *
 * The plan is a list of byte ranges of the original plus a few bytes made here, computed from the
 * segment headers: a 15 MB photo is never held whole (issue 7's memory budget), its scan data is
 * walked in 64 KiB windows only to find EOI.
 */
import { type FileHandle, open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import type { ImageKind } from './sniff.js';

/** A range [from, to) of the original, or bytes geo wrote (the minimal EXIF). */
export type Piece = { from: number; to: number } | Buffer;

export interface Removed {
  /** What it was, for people: "EXIF (GPS, camera, capture details)", "XMP", "comment". */
  what: string;
  bytes: number;
}

export interface StripPlan {
  pieces: Piece[];
  /** Size of the bytes to send. */
  size: number;
  /** Empty when the file had nothing to remove (then pieces is the whole file). */
  removed: Removed[];
  /** EXIF Orientation (1-8) carried over as a minimal EXIF, when the original had one. */
  orientation?: number;
}

/** Random access to the original: a Buffer held in memory, or a file read in windows. */
export interface ByteSource {
  size: number;
  read(pos: number, len: number): Promise<Buffer>;
}

const WINDOW = 64 * 1024;

export function bufferSource(buf: Buffer): ByteSource {
  return { size: buf.length, read: async (pos, len) => buf.subarray(pos, Math.min(buf.length, pos + len)) };
}

/**
 * A file read through one window buffer, reused: what read() returns is valid until the next read
 * (the planners use each answer before asking again). A new buffer per window would leave the whole
 * scan behind as garbage until a collection: 15 MB of it for a 15 MB photo (bench/image.mjs).
 */
export async function withFileSource<T>(path: string, fn: (src: ByteSource) => Promise<T>): Promise<T> {
  const fh: FileHandle = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    let buf = Buffer.allocUnsafe(WINDOW);
    let winStart = -1;
    let winLength = 0;
    const read = async (pos: number, len: number): Promise<Buffer> => {
      if (pos >= winStart && pos + len <= winStart + winLength) return buf.subarray(pos - winStart, pos - winStart + len);
      if (len > buf.length) buf = Buffer.allocUnsafe(len); // one APP1 segment at most: 64 KiB
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      winStart = pos;
      winLength = bytesRead;
      return buf.subarray(0, Math.min(len, bytesRead));
    };
    return await fn({ size, read });
  } finally {
    await fh.close();
  }
}

/** The removal plan for a JPEG or PNG; other kinds (converted by sharp, which drops metadata) are sent whole. */
export async function planStrip(src: ByteSource, kind: ImageKind): Promise<StripPlan> {
  const plan = kind === 'jpeg' ? await planJpeg(src) : kind === 'png' ? await planPng(src) : undefined;
  if (!plan || plan.removed.length === 0) return { pieces: [{ from: 0, to: src.size }], size: src.size, removed: [] };
  return plan;
}

/** What was removed, for people: "EXIF (GPS, camera; 1,204 bytes), XMP (3,100 bytes); orientation (6) kept". */
export function describeRemoval(removed: readonly Removed[], orientation?: number): string {
  if (removed.length === 0) return 'no metadata to remove';
  const parts = removed.map((r) => `${r.what.replace(/\)$/, '')}${r.what.endsWith(')') ? '; ' : ' ('}${r.bytes.toLocaleString('en-US')} bytes)`);
  return `${parts.join(', ')}${orientation !== undefined ? `; orientation (${orientation}) kept` : ''}`;
}

class Plan {
  pieces: Piece[] = [];
  removed = new Map<string, number>();
  keep(from: number, to: number): void {
    if (to <= from) return;
    const last = this.pieces[this.pieces.length - 1];
    if (last && !Buffer.isBuffer(last) && last.to === from) last.to = to;
    else this.pieces.push({ from, to });
  }
  drop(what: string, bytes: number): void {
    if (bytes > 0) this.removed.set(what, (this.removed.get(what) ?? 0) + bytes);
  }
  done(orientation: number | undefined): StripPlan {
    const size = this.pieces.reduce((n, p) => n + (Buffer.isBuffer(p) ? p.length : p.to - p.from), 0);
    const removed = [...this.removed].map(([what, bytes]) => ({ what, bytes }));
    return { pieces: this.pieces, size, removed, ...(orientation !== undefined ? { orientation } : {}) };
  }
}

// ---- EXIF (TIFF) --------------------------------------------------------------------------------

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

const EXIF_ID = Buffer.from('Exif\0\0', 'latin1');

function exifLabel(holds: string[]): string {
  return holds.length ? `EXIF (${holds.join(', ')})` : 'EXIF';
}

// ---- JPEG ---------------------------------------------------------------------------------------

const SOS = 0xda;
const EOI = 0xd9;
const COM = 0xfe;
const isApp = (m: number) => m >= 0xe0 && m <= 0xef;
/** Markers without a length: TEM and RST0-7 (T.81 table B.1). */
const standalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd7);

/** What an APPn/COM segment is, and whether it stays. `head` is the start of its payload. */
function judgeJpegSegment(marker: number, head: Buffer): { keep: true } | { keep: false; what: string } {
  const id = (s: string) => head.subarray(0, s.length).toString('latin1') === s;
  if (marker === COM) return { keep: false, what: 'comment' };
  if (marker === 0xe0) return id('JFIF\0') ? { keep: true } : { keep: false, what: id('JFXX\0') ? 'JFIF thumbnail (JFXX)' : 'APP0' };
  if (marker === 0xe1) return { keep: false, what: id('Exif\0') ? 'EXIF' : id('http://ns.adobe.com/') ? 'XMP' : 'APP1' };
  if (marker === 0xe2) return id('ICC_PROFILE\0') ? { keep: true } : { keep: false, what: id('MPF\0') ? 'MPF (APP2)' : 'APP2' };
  if (marker === 0xed) return { keep: false, what: 'IPTC (APP13)' };
  if (marker === 0xee && id('Adobe')) return { keep: true };
  return { keep: false, what: `APP${marker - 0xe0}` };
}

async function planJpeg(src: ByteSource): Promise<StripPlan | undefined> {
  const p = new Plan();
  let orientation: number | undefined;
  let exifHolds: string[] = [];
  p.keep(0, 2); // SOI
  let pos = 2;
  let afterJfif = -1;
  let inScan = false;
  let keptFrom = pos;
  for (;;) {
    if (inScan) {
      const m = await nextMarker(src, pos);
      if (m === undefined) {
        p.keep(keptFrom, src.size); // truncated: no EOI; send what there is
        break;
      }
      pos = m.at;
      if (m.marker === EOI) {
        p.keep(keptFrom, pos + 2);
        p.drop('data after the end of the image', src.size - (pos + 2));
        break;
      }
    }
    const hdr = await src.read(pos, 4);
    if (hdr.length < 2 || hdr[0] !== 0xff) {
      // Not a marker where one must be: a damaged header. Send the rest untouched rather than guess.
      p.keep(keptFrom, src.size);
      break;
    }
    const marker = hdr[1]!;
    if (marker === 0xff) {
      pos += 1; // a fill byte before the marker (T.81 B.1.1.2)
      continue;
    }
    if (marker === EOI) {
      p.keep(keptFrom, pos + 2);
      p.drop('data after the end of the image', src.size - (pos + 2));
      break;
    }
    if (standalone(marker)) {
      pos += 2;
      continue;
    }
    if (hdr.length < 4) {
      p.keep(keptFrom, src.size);
      break;
    }
    const end = pos + 2 + hdr.readUInt16BE(2);
    if (isApp(marker) || marker === COM) {
      const payload = await src.read(pos + 4, marker === 0xe1 ? end - pos - 4 : 32);
      const verdict = judgeJpegSegment(marker, payload);
      if (verdict.keep) {
        if (marker === 0xe0 && pos === 2) afterJfif = end;
      } else {
        p.keep(keptFrom, pos);
        keptFrom = end;
        let what = verdict.what;
        if (what === 'EXIF') {
          const info = readTiffIfd0(payload.subarray(EXIF_ID.length));
          orientation ??= info.orientation;
          exifHolds = [...new Set([...exifHolds, ...info.holds])];
          what = 'EXIF';
        }
        p.drop(what, end - pos);
      }
    }
    if (marker === SOS) inScan = true;
    pos = end;
    if (pos > src.size) {
      p.keep(keptFrom, src.size);
      break;
    }
  }
  if (p.removed.has('EXIF')) {
    // Re-key the EXIF entry with what it held, keeping insertion order.
    const entries = [...p.removed].map(([k, v]): [string, number] => [k === 'EXIF' ? exifLabel(exifHolds) : k, v]);
    p.removed = new Map(entries);
  }
  if (orientation !== undefined) insertAfter(p, afterJfif > 0 ? afterJfif : 2, jpegExifSegment(orientation));
  return p.done(orientation);
}

function jpegExifSegment(orientation: number): Buffer {
  const payload = Buffer.concat([EXIF_ID, minimalTiff(orientation)]);
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xffe1, 0);
  seg.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([seg, payload]);
}

/** Puts `bytes` at original offset `at` (which must fall inside or at the end of a kept range). */
function insertAfter(p: Plan, at: number, bytes: Buffer): void {
  const out: Piece[] = [];
  let placed = false;
  for (const piece of p.pieces) {
    if (!placed && !Buffer.isBuffer(piece) && piece.from <= at && at <= piece.to) {
      if (at > piece.from) out.push({ from: piece.from, to: at });
      out.push(bytes);
      if (piece.to > at) out.push({ from: at, to: piece.to });
      placed = true;
    } else out.push(piece);
  }
  if (!placed) out.splice(1, 0, bytes);
  p.pieces = out;
}

/**
 * The next marker at or after `pos` inside entropy-coded data: 0xFF followed by anything but 0x00
 * (a stuffed byte), RST0-7 or another 0xFF (fill). Read in windows; undefined at the end of file.
 */
async function nextMarker(src: ByteSource, pos: number): Promise<{ at: number; marker: number } | undefined> {
  let at = pos;
  while (at < src.size) {
    const win = await src.read(at, WINDOW);
    if (win.length === 0) return undefined;
    let i = win.indexOf(0xff);
    while (i !== -1) {
      const next = i + 1 < win.length ? win[i + 1]! : (await src.read(at + i + 1, 1))[0];
      if (next === undefined) return undefined;
      if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return { at: at + i, marker: next };
      i = win.indexOf(0xff, i + 1);
    }
    at += win.length;
  }
  return undefined;
}

// ---- PNG ----------------------------------------------------------------------------------------

const PNG_DROP: Record<string, string> = { tEXt: 'PNG text (tEXt)', zTXt: 'PNG text (zTXt)', iTXt: 'PNG text (iTXt)', eXIf: 'EXIF', tIME: 'PNG time (tIME)' };

async function planPng(src: ByteSource): Promise<StripPlan | undefined> {
  const p = new Plan();
  let pos = 8;
  let keptFrom = 0;
  let orientation: number | undefined;
  let exifHolds: string[] = [];
  let firstIdat = -1;
  let ended = false;
  while (pos + 12 <= src.size) {
    const hdr = await src.read(pos, 8);
    const len = hdr.readUInt32BE(0);
    const type = hdr.toString('latin1', 4, 8);
    const end = pos + 12 + len;
    if (end > src.size) break;
    const what = PNG_DROP[type];
    if (what) {
      p.keep(keptFrom, pos);
      keptFrom = end;
      if (type === 'eXIf') {
        const info = readTiffIfd0(await src.read(pos + 8, len));
        orientation ??= info.orientation;
        exifHolds = [...new Set([...exifHolds, ...info.holds])];
      }
      p.drop(what, end - pos);
    }
    if (type === 'IDAT' && firstIdat < 0) firstIdat = pos;
    pos = end;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  // Past IEND nothing is picture; a file cut short before it is sent as it is.
  p.keep(keptFrom, ended ? pos : src.size);
  if (ended) p.drop('data after the end of the image', src.size - pos);
  if (p.removed.has('EXIF')) p.removed = new Map([...p.removed].map(([k, v]): [string, number] => [k === 'EXIF' ? exifLabel(exifHolds) : k, v]));
  // eXIf must precede IDAT (PNG 3rd edition 11.3.6.1).
  if (orientation !== undefined) insertAfter(p, firstIdat > 0 ? firstIdat : 8 + 25, pngExifChunk(orientation));
  return p.done(orientation);
}

function pngExifChunk(orientation: number): Buffer {
  const data = minimalTiff(orientation);
  const typeAndData = Buffer.concat([Buffer.from('eXIf', 'latin1'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  typeAndData.copy(out, 4);
  out.writeUInt32BE(crc32(typeAndData) >>> 0, 8 + data.length);
  return out;
}
