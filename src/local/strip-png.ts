/**
 * The PNG planner of metadata removal (strip.ts), after the PNG specification (3rd edition, with
 * eXIf): removed are the tEXt, zTXt, iTXt, eXIf and tIME chunks and anything after IEND; every
 * other chunk, IDAT included, is kept byte for byte.
 */
import { crc32 } from 'node:zlib';
import { type ByteSource, Plan, type StripPlan, TRAILER } from './strip-plan.js';
import { minimalTiff, readTiffIfd0 } from './tiff.js';

const DROP: Record<string, string> = { tEXt: 'PNG text (tEXt)', zTXt: 'PNG text (zTXt)', iTXt: 'PNG text (iTXt)', tIME: 'PNG time (tIME)' };
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
    if (type === 'eXIf' || DROP[type]) {
      p.keep(keptFrom, pos);
      keptFrom = end;
      if (type === 'eXIf') p.dropExif(end - pos, readTiffIfd0(await src.read(pos + 8, len)));
      else p.drop(DROP[type]!, end - pos);
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
