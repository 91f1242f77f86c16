/**
 * `geo inspect`: what the file itself says, offline and free. Nothing here talks to the API; the
 * place name comes from the offline geocoder, and `api` only says whether `geo locate` would send
 * the file as it is.
 */
import { readFile } from 'node:fs/promises';
import type { Ctx } from '../../context.js';
import { MAX_IMAGE_BYTES } from '../../api/schemas.js';
import { CONVERTIBLE_KINDS } from '../../batch/convert.js';
import { UsageError } from '../../errors.js';
import { readDimensions } from '../../image/dimensions.js';
import { pdqOf } from '../../image/pdq.js';
import type { Perceptual } from '../../store/index.js';
import { unreadableReason } from '../../image/readable.js';
import { type ExifSummary, readExif } from '../../image/exif.js';
import { readFileHead } from '../../files/read.js';
import { type Place, formatPlace, reverseGeocode } from '../../places/geocode.js';
import { type ImageKind, readImage, unsendableReason } from '../../image/local-image.js';
import { type SentImage, outgoingImage } from '../../image/without-metadata.js';
import { type SunCheck, sunWitness } from '../../evidence/sun-witness.js';
import { type C2paRecord, type MetadataRecord, readEmbedded } from '../../image/embedded.js';

export interface InspectOk {
  input: string;
  ok: true;
  sha256: string;
  size: number;
  type: ImageKind;
  mime: string;
  width?: number;
  height?: number;
  exif: ExifSummary;
  /** Offline place of the EXIF GPS point; absent without GPS or for a suspect 0,0. */
  place?: Place & { text: string };
  /** The sun at the photo's own GPS point and EXIF capture time (or why not); absent without a GPS point. */
  sun?: SunCheck;
  /** Would `geo locate` send this file as it is? */
  /** accepted: geo locate sends it; warning: why the service may still refuse it. */
  api: { accepted: boolean; reason?: string; warning?: string };
  /** What `geo locate` would upload (JPEG and PNG): the metadata it removes first. */
  upload?: SentImage;
  /** Every tag the file carries, as `exiftool -j -n` prints them (image/metadata.ts); what geo locate keeps in the store before stripping. */
  metadata: MetadataRecord;
  /** Its C2PA content credentials: {"present": false}, or the active manifest's summary and validation (image/c2pa.ts). */
  c2pa: C2paRecord;
  /** Its perceptual hash (PDQ, image/pdq.ts), by which copies of it are found; absent when its pixels cannot be decoded. */
  perceptual?: Perceptual;
  /** Stored results whose image is a near-duplicate of this one, nearest first (seen.ts); absent when the store was not asked. */
  seen_before?: SeenBefore[];
}

/** A stored result of a near-duplicate: how far (bits of 256), when, of which file, and where it was placed. */
export interface SeenBefore {
  distance: number;
  stored_at: string;
  input: string;
  sha256: string;
  analysis_id: string | null;
  city: string;
  country: string;
  latitude: number | null;
  longitude: number | null;
  sandbox: boolean;
}

export interface InspectOptions {
  /** --c2pa-trust FILE's PEM: signers chaining to these certificates count as trusted. */
  trustAnchors?: string;
}

export interface InspectFailed {
  input: string;
  ok: false;
  error: { message: string; hint?: string };
}

export type InspectRecord = InspectOk | InspectFailed;

/**
 * A pipe is held in memory; beyond this it is not an image anyone would inspect. Its first bytes
 * are judged before more is read (image/local-image.ts), so a device or a pipe of something else is
 * refused at once: `geo inspect /dev/zero` read 256 MiB before it said no.
 */
const MAX_PIPE_BYTES = 64 * 1024 * 1024;
/** Files up to this size are read whole for EXIF; larger ones only HEAD_BYTES from the start. */
const MAX_READ_BYTES = 64 * 1024 * 1024;
const HEAD_BYTES = 16 * 1024 * 1024;


export async function inspectOne(input: string, ctx: Pick<Ctx, 'io'>, opts: InspectOptions = {}): Promise<InspectRecord> {
  try {
    const img = await readImage(input, ctx.io.stdin, { maxBytes: MAX_PIPE_BYTES });
    // EXIF can sit at the end of the file (HEIC exif-at-eof), so the whole file is read, unless
    // it is huge: then only its start, which holds the EXIF of JPEG, PNG and TIFF anyway.
    const whole = img.bytes ?? img.size <= MAX_READ_BYTES;
    const bytes = img.bytes ?? (whole ? await readFile(input) : await readFileHead(input, HEAD_BYTES));
    const partial = whole ? undefined : `only the first ${HEAD_BYTES / 1024 / 1024} MB were read (file over ${MAX_READ_BYTES / 1024 / 1024} MB)`;
    const { metadata, c2pa } = await readEmbedded(bytes, img.kind, { ...(opts.trustAnchors ? { trustAnchors: opts.trustAnchors } : {}), ...(partial ? { partial } : {}) });
    const rec: InspectOk = { input, ok: true, sha256: img.sha256, size: img.size, type: img.kind, mime: img.mime, exif: await readExif(bytes), api: { accepted: true }, metadata, c2pa };
    if (partial) rec.exif.errors.push(partial.replace('were read', 'were read for EXIF'));
    const dims = readDimensions(bytes, img.kind);
    if (dims) Object.assign(rec, dims);
    const p = await pdqOf(img.bytes ?? (whole ? bytes : input)).catch(() => undefined);
    if (p) rec.perceptual = { pdq: p.hash, quality: p.quality };
    const gps = rec.exif.gps;
    if (gps && !gps.suspect) {
      const place = reverseGeocode(gps.lat, gps.lng);
      if (place) rec.place = { ...place, text: formatPlace(place) };
      rec.sun = sunWitness(rec.exif, gps, 'photo GPS', rec.place?.text);
    }
    const refused = unsendableReason(img.kind, img.size);
    const damaged = refused || dims ? undefined : await unreadableReason(whole ? { ...img, bytes } : img, bytes);
    // WebP, HEIC & co.: what geo locate does about it is said too.
    if (refused) rec.api = { accepted: false, reason: img.size <= MAX_IMAGE_BYTES && CONVERTIBLE_KINDS.has(img.kind) ? `${refused.message}; geo locate converts it to JPEG` : refused.message };
    // A file the local decoder cannot read at all is refused by geo locate, as it says here.
    else if (damaged) rec.api = { accepted: false, reason: `${damaged}: geo locate refuses it` };
    // One it reads in part is sent all the same (the service's verdict), but not called accepted.
    else if (!dims) rec.api.warning = 'no image size can be read (damaged or cut short): geo locate sends it, and the service may refuse it';
    // The file is already in memory (read whole for EXIF): plan and hash from it, not from disk again.
    else rec.upload = (await outgoingImage(whole && !img.bytes ? { ...img, bytes } : img, false, { hashNow: true })).sent;
    return rec;
  } catch (e) {
    if (e instanceof UsageError) return { input, ok: false, error: { message: e.message, ...(e.hint ? { hint: e.hint } : {}) } };
    throw e;
  }
}

export async function runInspect(ctx: Pick<Ctx, 'io'>, inputs: string[], opts: InspectOptions = {}): Promise<InspectRecord[]> {
  if (inputs.filter((i) => i === '-').length > 1) throw new UsageError('stdin (-) can be given only once');
  // Reading a terminal would wait for bytes that never come.
  if (inputs.includes('-') && ctx.io.stdinIsTTY) throw new UsageError('- reads image bytes from stdin, but stdin is a terminal', 'pipe an image in: geo inspect - < photo.jpg');
  const out: InspectRecord[] = [];
  // One at a time: files are read whole, and order must follow the arguments.
  for (const input of inputs) out.push(await inspectOne(input, ctx, opts));
  return out;
}
