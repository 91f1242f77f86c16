/**
 * The values of image/metadata.ts as `exiftool -j -n` prints them. exifr reads the tags; these
 * turn its values into exiftool's: per block, what exiftool's ValueConv does (which -n keeps: it
 * drops only PrintConv), and per value, how its JSON writer prints numbers, lists and bytes.
 * exiftool's tag reference (exiftool.org/TagNames) is the source for each conversion.
 */
import { degrees } from './exif.js';

export type Block = Record<string, unknown>;

/**
 * GPSLatitude/GPSLongitude as exiftool -j -n prints them: its Composite tags, signed decimal
 * degrees (the hemisphere from the Ref tag), in place of the raw [deg, min, sec]; GPSAltitude signed
 * (below sea level when GPSAltitudeRef is 1); GPSTimeStamp as "HH:MM:SS". exifr's own derived
 * `latitude`/`longitude` are dropped (exiftool has no such tags).
 */
function gpsComposites(g: Block): Block {
  const { latitude: _lat, longitude: _lng, ...out } = g;
  const lat = degrees(g.GPSLatitude, g.GPSLatitudeRef, 'S');
  const lng = degrees(g.GPSLongitude, g.GPSLongitudeRef, 'W');
  if (lat !== undefined) out.GPSLatitude = lat;
  if (lng !== undefined) out.GPSLongitude = lng;
  const ref = exiftoolValue(g.GPSAltitudeRef);
  if (typeof g.GPSAltitude === 'number' && ref === 1) out.GPSAltitude = -g.GPSAltitude;
  // The destination point, unsigned as exiftool's GPS:GPSDestLatitude (there is no Composite for it).
  for (const k of ['GPSDestLatitude', 'GPSDestLongitude'] as const) {
    const d = degrees(g[k], undefined, 'S');
    if (d !== undefined) out[k] = d;
  }
  const t = g.GPSTimeStamp;
  if (Array.isArray(t) && t.length === 3 && t.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    const [h, m, s] = t as number[];
    const sec = Number.isInteger(s) ? String(s).padStart(2, '0') : String(Math.round(s! * 1e6) / 1e6).replace(/^(\d)\./, '0$1.');
    out.GPSTimeStamp = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${sec}`;
  }
  return out;
}

/** APEX values as exiftool's ValueConv gives them (-n keeps ValueConv): seconds and f-numbers. */
function exifApex(b: Block): Block {
  const out = { ...b };
  if (typeof b.ShutterSpeedValue === 'number') out.ShutterSpeedValue = 2 ** -b.ShutterSpeedValue;
  for (const k of ['ApertureValue', 'MaxApertureValue'] as const) if (typeof b[k] === 'number') out[k] = 2 ** ((b[k] as number) / 2);
  return out;
}

/** exifr's IPTC names where exiftool's differ (exiftool.org/TagNames/IPTC.html). */
const IPTC_NAMES: Record<string, string> = {
  Byline: 'By-line', BylineTitle: 'By-lineTitle', Sublocation: 'Sub-location', State: 'Province-State', CountryCode: 'Country-PrimaryLocationCode',
  Country: 'Country-PrimaryLocationName', Caption: 'Caption-Abstract', Writer: 'Writer-Editor', LocalCaption: 'LocalCaption',
};
// eslint-disable-next-line no-control-regex
const BINARY_INT = /^[\u0000-\u001f]{1,4}$/;

/**
 * IPTC as exiftool prints it: names as above, binary numbers (ApplicationRecordVersion) as numbers,
 * dates "YYYY:MM:DD" and times "HH:MM:SS+HH:MM" (IIM writes CCYYMMDD and HHMMSS+HHMM).
 */
function iptcTags(b: Block): Block {
  const out: Block = {};
  for (const [k, v] of Object.entries(b)) {
    let x = v;
    if (typeof v === 'string' && BINARY_INT.test(v)) x = [...v].reduce((n, c) => n * 256 + c.charCodeAt(0), 0);
    else if (typeof v === 'string' && /^\d{8}$/.test(v) && /Date/.test(k)) x = `${v.slice(0, 4)}:${v.slice(4, 6)}:${v.slice(6)}`;
    else if (typeof v === 'string' && /Time/.test(k)) {
      const t = /^(\d\d)(\d\d)(\d\d)([+-]\d\d)?(\d\d)?$/.exec(v);
      if (t) x = `${t[1]}:${t[2]}:${t[3]}${t[4] ? `${t[4]}:${t[5] ?? '00'}` : ''}`;
    }
    out[IPTC_NAMES[k] ?? k] = x;
  }
  return out;
}

/** JFIFVersion 0x0102 -> "1 2", as exiftool prints its two bytes. */
function jfifTags(b: Block): Block {
  return typeof b.JFIFVersion === 'number' ? { ...b, JFIFVersion: `${b.JFIFVersion >> 8} ${b.JFIFVersion & 0xff}` } : b;
}

/** exifr block -> its conversions to exiftool's values. */
export const VALUE_CONV: Record<string, (b: Block) => Block> = { gps: gpsComposites, exif: exifApex, iptc: iptcTags, jfif: jfifTags };

const XMP_DATE = /^(\d{4})-(\d\d)(?:-(\d\d)(?:T(\d\d:\d\d(?::\d\d(?:\.\d+)?)?)(Z|[+-]\d\d:\d\d)?)?)?$/;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** XML character references in XMP text (exifr leaves "Tyne &amp; Wear" as written; exiftool decodes it). */
const unescapeXml = (t: string): string =>
  t.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (all, e: string) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? all;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });

/**
 * XMP as exiftool prints it: property names capitalised (dc:creator -> Creator), character
 * references decoded, dates "YYYY:MM:DD HH:MM:SS+HH:MM" (XMP writes ISO 8601).
 */
export function xmpTags(b: Block): Block {
  const text = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(text);
    if (typeof v !== 'string') return v;
    const m = XMP_DATE.exec(v);
    return m ? `${m[1]}:${m[2]}${m[3] ? `:${m[3]}` : ''}${m[4] ? ` ${m[4]}${m[5] ?? ''}` : ''}` : unescapeXml(v);
  };
  return Object.fromEntries(Object.entries(b).map(([k, v]) => [k.charAt(0).toUpperCase() + k.slice(1), text(v)]));
}

const BINARY_AT = 64;

/** One value as `exiftool -j -n` prints it (see the module comment); undefined drops the tag. */
export function exiftoolValue(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v.replace(/\0+$/, '');
  if (typeof v === 'number') return Number.isFinite(v) ? v : Number.isNaN(v) ? 'undef' : 'inf';
  if (typeof v === 'boolean') return v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.toISOString().slice(0, 19).replace(/-/g, ':').replace('T', ' ');
  if (v instanceof Uint8Array) return bytesValue(v);
  if (ArrayBuffer.isView(v)) return numberList(Array.from(v as unknown as ArrayLike<number>));
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'number')) return numberList(v as number[]);
    return v.map((x) => exiftoolValue(x) ?? null);
  }
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    // An XMP language alternative ({ lang: 'x-default', value }): exiftool prints the default's value.
    if (typeof o.lang === 'string' && Object.keys(o).every((k) => k === 'lang' || k === 'value')) return exiftoolValue(o.value ?? '');
    return Object.fromEntries(Object.entries(o).flatMap(([k, x]) => {
      const y = exiftoolValue(x);
      return y === undefined ? [] : [[k, y]];
    }));
  }
  return undefined;
}

/** "4.25 4.25 1.8 1.8": exiftool prints each number of a list to 10 significant digits. */
function numberList(ns: number[]): string {
  return ns.map((n) => (Number.isFinite(n) ? String(Number(n.toPrecision(10))) : Number.isNaN(n) ? 'undef' : 'inf')).join(' ');
}

/**
 * EXIF "undefined" bytes: a version written as ASCII digits ("0232"), one byte as a number
 * (GPSAltitudeRef 0), a few bytes space-separated ("1 2 3 0"), anything long as exiftool's note.
 */
function bytesValue(b: Uint8Array): unknown {
  if (b.length > BINARY_AT) return `(Binary data ${b.length} bytes, use -b option to extract)`;
  let end = b.length;
  while (end > 0 && b[end - 1] === 0) end--;
  const text = b.subarray(0, end);
  if (text.length >= 2 && text.every((c) => c >= 0x20 && c < 0x7f)) return Buffer.from(text).toString('latin1');
  if (b.length === 1) return b[0];
  return Array.from(b).join(' ');
}

