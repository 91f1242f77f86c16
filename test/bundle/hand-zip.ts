/**
 * ZIPs written by hand, byte by byte (APPNOTE 4.3: local header + data per member, central
 * directory, end record), as an attacker would: members stored (method 0), each with the unix
 * mode and the local header fields it is given, and extra bytes wherever asked (a second local
 * header hidden between members, or before them), which no central-directory entry points to.
 */
import { crc32 } from 'node:zlib';

export interface HandMember {
  name: string;
  data: Buffer;
  /** The unix mode put in the external attributes (made by 3 = UNIX); 0o100644 by default. */
  mode?: number;
  /** Overrides written into the local header only (what a streaming extractor would believe). */
  local?: LocalFields;
  /** The size the central directory declares (default: the data's). */
  declared?: number;
  /** Bytes written right after this member's data, covered by no central-directory entry. */
  after?: Buffer;
}

export interface LocalFields {
  compressed?: number;
  size?: number;
  crc?: number;
}

/** One stored member's local header and data, as a streaming extractor reads them. */
export function localRecord(name: string, data: Buffer, o: LocalFields = {}): Buffer {
  const n = Buffer.from(name, 'utf8');
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(0x0800, 6);
  h.writeUInt16LE(0, 8);
  h.writeUInt32LE(o.crc ?? crc32(data), 14);
  h.writeUInt32LE(o.compressed ?? data.length, 18);
  h.writeUInt32LE(o.size ?? data.length, 22);
  h.writeUInt16LE(n.length, 26);
  return Buffer.concat([h, n, data]);
}

export function handZip(members: readonly HandMember[], o: { prefix?: Buffer } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const push = (b: Buffer) => (parts.push(b), (offset += b.length));
  if (o.prefix) push(o.prefix);
  for (const m of members) {
    const at = offset;
    push(localRecord(m.name, m.data, m.local));
    if (m.after) push(m.after);
    const n = Buffer.from(m.name, 'utf8');
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE((3 << 8) | 20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x0800, 8);
    c.writeUInt16LE(0, 10);
    c.writeUInt32LE(crc32(m.data), 16);
    c.writeUInt32LE(m.data.length, 20);
    c.writeUInt32LE(m.declared ?? m.data.length, 24);
    c.writeUInt16LE(n.length, 28);
    c.writeUInt32LE(((m.mode ?? 0o100644) << 16) >>> 0, 38);
    c.writeUInt32LE(at, 42);
    central.push(c, n);
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}
