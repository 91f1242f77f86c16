/**
 * A minimal ZIP writer for KMZ (PKWARE APPNOTE 6.3.x: local headers, central directory, end of
 * central directory; no ZIP64, no encryption). node:zlib does the work: deflateRawSync for text,
 * crc32 (Node >= 20.15) for the checksums. Already-compressed images are stored, not deflated.
 * Names are written as UTF-8 (general purpose flag bit 11). Times are the DOS fields, in UTC.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
  /** Deflate (text) or store (JPEG, PNG: deflating them gains nothing). */
  compress: boolean;
}

const UTF8_NAMES = 0x0800;
const VERSION = 20; // 2.0: deflate
const LIMIT = 0xffffffff;

function dosTime(d: Date): { time: number; date: number } {
  const year = Math.min(Math.max(d.getUTCFullYear(), 1980), 2107);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** The archive's bytes; `modified` is every entry's time (ctx.now(), so tests are reproducible). */
export function writeZip(entries: readonly ZipEntry[], modified: Date): Buffer {
  if (entries.length > 0xffff) throw new Error('zip: more than 65535 entries needs ZIP64');
  const { time, date } = dosTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const body = e.compress ? deflateRawSync(e.data, { level: 9 }) : Buffer.from(e.data);
    const crc = crc32(e.data);
    if (e.data.length > LIMIT || body.length > LIMIT || offset > LIMIT) throw new Error('zip: an entry above 4 GiB needs ZIP64');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(e.compress ? 8 : 0, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(VERSION, 4);
    central.writeUInt16LE(VERSION, 6);
    central.writeUInt16LE(UTF8_NAMES, 8);
    central.writeUInt16LE(e.compress ? 8 : 0, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    // extra length, comment length, disk number, internal and external attributes: all 0
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  if (offset > LIMIT) throw new Error('zip: an archive above 4 GiB needs ZIP64');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
