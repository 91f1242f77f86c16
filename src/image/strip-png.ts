/**
 * The PNG planner of metadata removal (strip.ts), after the PNG specification (3rd edition).
 * Kept, byte for byte, are only the chunks that draw the image and give its colour:
 * IHDR, PLTE, IDAT, IEND and tRNS, gAMA, cHRM, sRGB, iCCP, sBIT, pHYs, and the colour chunks of the
 * 3rd edition (cICP, mDCV, cLLI: code points and HDR display levels, fixed-size numbers that say
 * nothing of who or where; without them an HDR image is drawn with the wrong colours). Everything else goes: the
 * text and time chunks (tEXt, zTXt, iTXt, tIME), eXIf (its orientation carried over as a minimal
 * eXIf), a C2PA manifest (caBX, which can carry GPS), private chunks and any chunk geo does not
 * know, whatever its safe-to-copy bit says, and anything after IEND. An allow-list, because a
 * deny-list let every chunk nobody listed (custom ones, caBX) reach the server. An animated PNG
 * goes out as its default image (its IDAT), without the animation chunks.
 */
import { crc32 } from 'node:zlib';
import { type ByteSource, Plan, type StripPlan, TRAILER } from './strip-plan.js';
import { minimalTiff, readTiffIfd0 } from './tiff.js';

/** The chunks that go out: the picture and its colour. */
const KEEP = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT', 'pHYs', 'cICP', 'mDCV', 'cLLI']);
const NAMED: Record<string, string> = { tEXt: 'PNG text (tEXt)', zTXt: 'PNG text (zTXt)', iTXt: 'PNG text (iTXt)', tIME: 'PNG time (tIME)', caBX: 'C2PA manifest (caBX)' };

/** What a removed chunk was, for people; its type is four bytes of the file, shown safely. */
function label(type: Buffer): string {
  const name = type.toString('latin1');
  if (NAMED[name]) return NAMED[name];
  const shown = /^[A-Za-z]{4}$/.test(name) ? name : `0x${type.toString('hex')}`;
  // Bit 5 of the second byte (a lower-case letter) marks a private chunk (PNG 3rd edition 5.4).
  return (type[1]! & 0x20) !== 0 ? `PNG private chunk (${shown})` : `PNG chunk (${shown})`;
}
/** The signature (8 bytes) and the IHDR chunk (12 + 13) that always open a PNG. */
const AFTER_IHDR = 8 + 25;

export async function planPng(src: ByteSource): Promise<StripPlan> {
  const p = new Plan();
  let pos = 8;
  let keptFrom = 0;
  let firstIdat = -1;
  let ended = false;
  while (pos + 12 <= src.size) {
    const hdr = await src.read(pos, 8);
    const len = hdr.readUInt32BE(0);
    const type = hdr.toString('latin1', 4, 8);
    const end = pos + 12 + len;
    if (end > src.size) break;
    if (!KEEP.has(type)) {
      // The label is taken before the next read: the source may reuse its buffer (strip.ts).
      const what = type === 'eXIf' ? undefined : label(Buffer.from(hdr.subarray(4, 8)));
      p.keep(keptFrom, pos);
      keptFrom = end;
      if (what === undefined) p.dropExif(end - pos, readTiffIfd0(await src.read(pos + 8, len)));
      else p.drop(what, end - pos);
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
  if (ended) p.drop(TRAILER, src.size - pos);
  // eXIf must precede IDAT (PNG 3rd edition 11.3.6.1).
  if (p.orientation !== undefined) p.insert(firstIdat > 0 ? firstIdat : AFTER_IHDR, exifChunk(p.orientation));
  return p.done();
}

function exifChunk(orientation: number): Buffer {
  const data = minimalTiff(orientation);
  const typeAndData = Buffer.concat([Buffer.from('eXIf', 'latin1'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  typeAndData.copy(out, 4);
  out.writeUInt32BE(crc32(typeAndData) >>> 0, 8 + data.length);
  return out;
}
