/**
 * Everything an original says about itself, read before geo strips it for the upload (
 * item 4): kept in the store and the case's custody log, never sent.
 *
 * The JSON is shaped like `exiftool -j -n` output for one file, so an analyst can set the two side
 * by side: one flat object, tag names as exiftool prints them without -G ("Make", "DateTimeOriginal",
 * "GPSLatitude"), values as -n prints them: numbers unconverted (Orientation 1, not "Horizontal"),
 * dates exactly as written ("2024:05:14 18:32:07"), lists of numbers space-separated ("4.25 4.25 1.8
 * 1.8"), lists of words as JSON arrays (IPTC Keywords), GPSLatitude/GPSLongitude/GPSAltitude signed
 * decimals (exiftool's Composite tags, which -j prints in place of the raw EXIF ones).
 * What exiftool adds that is not in the file is left out: its File and System tags (FileName, FileSize,
 * FileModifyDate, MIMEType...), the other Composite tags (GPSPosition, ImageSize, Megapixels...),
 * and SourceFile. Maker notes are not decoded (exifr reads them as bytes). A tag that two blocks
 * both carry keeps exiftool's plain name for the first (EXIF before IPTC before XMP before ICC) and
 * its exiftool -G1 name for the other ("XMP-exif:GPSLatitude", "IFD1:XResolution"), so nothing
 * read is dropped silently. Binary values longer than 64 bytes read as exiftool prints them:
 * "(Binary data N bytes, use -b option to extract)". ICC profile tags are kept as exifr reads them
 * (exiftool decodes some of them further: its matrices and curves), under the same names.
 *
 * Bounded: at most MAX_METADATA_JSON_BYTES of JSON; past that, tags are left out and `truncated`
 * says how many and which.
 */
import { exifr } from './exif.js';
import { heifExifTiff } from './heif-boxes.js';
import { type Block, VALUE_CONV, exiftoolValue, xmpTags } from './metadata-values.js';

export const METADATA_FORMAT = 'exiftool -j -n';
/** The most JSON kept per original (its tags' JSON text, UTF-8). */
export const MAX_METADATA_JSON_BYTES = 256 * 1024;

export interface MetadataRecord {
  /** Whose output the keys and values follow (see above). */
  format: typeof METADATA_FORMAT;
  tags: Record<string, unknown>;
  /** The tags' JSON passed the cap: its full size, how many tags were left out, the first of them. */
  truncated?: { bytes: number; omitted: number; first_omitted: string[] };
  /** What exifr could not read (a damaged block); the rest is still there. */
  errors?: string[];
}

// exifr keeps every options object it is given (image/exif.ts OPTIONS): these two are made once.
// TIFF blocks and XMP are read apart: exifr names XMP namespaces as top-level keys, and XMP's
// "exif" and "tiff" namespaces would land on the EXIF blocks of the same name.
const TIFF_BLOCKS = {
  chunked: false, tiff: true, ifd0: true, exif: true, gps: true, interop: true, ifd1: true, icc: true, jfif: true, ihdr: true,
  xmp: false, iptc: false, makerNote: false, userComment: true, multiSegment: true,
  mergeOutput: false, reviveValues: false, translateValues: false, translateKeys: true, sanitize: true, silentErrors: true,
} as const;
const XMP_IPTC = {
  chunked: false, tiff: false, icc: false, jfif: false, ihdr: false, xmp: true, iptc: true, multiSegment: true,
  mergeOutput: false, reviveValues: false, translateValues: false, translateKeys: true, sanitize: true, silentErrors: true,
} as const;

/** exifr's block -> exiftool's -G1 group, in the order of precedence for a tag two blocks carry. */
const GROUPS: ReadonlyArray<[block: string, group: string]> = [
  ['ifd0', 'IFD0'], ['exif', 'ExifIFD'], ['gps', 'GPS'], ['interop', 'InteropIFD'], ['ifd1', 'IFD1'], ['jfif', 'JFIF'], ['ihdr', 'PNG'], ['iptc', 'IPTC'],
];
/** exifr's XMP namespace prefixes are exiftool's group suffixes (XMP-dc, XMP-photoshop). */
const NOT_XMP = new Set(['iptc', 'errors']);
const ICC_GROUP = 'ICC_Profile';

export async function readMetadata(bytes: Uint8Array): Promise<MetadataRecord> {
  const lib = await exifr();
  const errors: string[] = [];
  const read = async (opts: Record<string, unknown>, from: Uint8Array = bytes): Promise<Record<string, unknown>> => {
    try {
      const out = ((await lib.parse(from, opts)) ?? {}) as Record<string, unknown>;
      for (const e of (out.errors as unknown[] | undefined) ?? []) errors.push(e instanceof Error ? e.message : String(e));
      return out;
    } catch (e) {
      errors.push(e instanceof Error ? e.message : String(e));
      return {};
    }
  };
  const tiff = await read(TIFF_BLOCKS);
  // exifr misses the Exif item of a HEIF written by libheif (heif-boxes.ts): its TIFF block is read
  // apart, in place of what failed; the ICC profile still comes from the HEIF's own colr box.
  const item = !tiff.ifd0 && !tiff.exif && !tiff.gps ? heifExifTiff(bytes) : undefined;
  if (item) {
    errors.length = 0;
    const { icc } = tiff;
    Object.assign(tiff, await read(TIFF_BLOCKS, item), icc ? { icc } : {});
  }
  const xmpIptc = await read(XMP_IPTC);

  const blocks: Array<[group: string, block: Block]> = [];
  for (const [name, group] of GROUPS) {
    const b = (name === 'iptc' ? xmpIptc : tiff)[name];
    if (isBlock(b)) blocks.push([group, (VALUE_CONV[name] ?? ((x: Block) => x))(b)]);
  }
  for (const [ns, b] of Object.entries(xmpIptc)) if (!NOT_XMP.has(ns) && isBlock(b)) blocks.push([`XMP-${ns}`, xmpTags(b)]);
  if (isBlock(tiff.icc)) blocks.push([ICC_GROUP, tiff.icc]);

  // A Map, then own properties: a tag the file names "__proto__" is a tag like any other.
  const tags = new Map<string, unknown>();
  for (const [group, block] of blocks) {
    for (const [tag, raw] of Object.entries(block)) {
      // exifr keeps a blank text tag (Copyright of four spaces) as undefined; exiftool prints "".
      const v = raw === undefined ? '' : exiftoolValue(raw);
      if (v !== undefined) tags.set(tags.has(tag) ? `${group}:${tag}` : tag, v);
    }
  }
  return { format: METADATA_FORMAT, ...capped(Object.fromEntries(tags)), ...(errors.length ? { errors: [...new Set(errors)] } : {}) };
}

const isBlock = (v: unknown): v is Block => typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);

/** The tags, or as many as fit the cap in their order, with what was left out. */
function capped(tags: Record<string, unknown>): Pick<MetadataRecord, 'tags' | 'truncated'> {
  const full = Buffer.byteLength(JSON.stringify(tags));
  if (full <= MAX_METADATA_JSON_BYTES) return { tags };
  const kept: Array<[string, unknown]> = [];
  const omitted: string[] = [];
  let size = 2; // {}
  for (const [k, v] of Object.entries(tags)) {
    const add = Buffer.byteLength(JSON.stringify(k)) + 1 + Buffer.byteLength(JSON.stringify(v)) + 1;
    if (size + add > MAX_METADATA_JSON_BYTES) omitted.push(k);
    else {
      kept.push([k, v]);
      size += add;
    }
  }
  return { tags: Object.fromEntries(kept), truncated: { bytes: full, omitted: omitted.length, first_omitted: omitted.slice(0, 20) } };
}
