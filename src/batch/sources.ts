/**
 * Turns expanded inputs into jobs: each local image is hashed (sha256), identical images collapse
 * into one job whose answer every duplicate shares, and each job knows how its upload body is
 * made (as is, converted to JPEG, or downscaled). The body itself is produced only when the job is
 * sent (prepareUpload), so a batch of hundreds never holds hundreds of converted images.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { type ImageB64Source, InputChangedError } from '../api/body.js';
import { UsageError } from '../errors.js';
import { MAX_IMAGE_BYTES } from '../api/schemas.js';
import { DIMENSIONS_HEAD_BYTES } from '../image/dimensions.js';
import { readFileHead, sha256File } from '../files/read.js';
import { type HashCache, type LocalImage, fileImage, imageFromBytes, readImage, sniffKind } from '../image/local-image.js';
import type { ImageKind } from '../image/sniff.js';
import { DAMAGED_HINT, unreadableReason } from '../image/readable.js';
import { type SentImage, outgoingImage } from '../image/without-metadata.js';
import type { FetchedFrom, RecordOrigin } from '../evidence/record-types.js';
import type { FrameInput } from '../media/video.js';
import { CONVERTIBLE_KINDS, checkDecodable, downscaleToFit, fitsLimit, toJpeg, tooLargeError } from './convert.js';
import type { InputEntry } from './inputs.js';
import type { FetchedFiles } from './url-inputs.js';

// A frame is media's (media/video.ts); the batch's files name it from here as they name every job source.
export type { FrameInput };

export type UploadSource =
  | { kind: 'url'; url: string }
  | { kind: 'image'; image: LocalImage }
  | { kind: 'convert'; from: string; image: LocalImage; path?: string }
  | { kind: 'downscale'; path: string; bytes: number; from: ImageKind };

/** One request: a unique image (or URL) and every input that named it. */
export interface Job {
  /** sha256 of the bytes, or `url:<url>`: the unit the journal and dedupe work on. */
  id: string;
  sha256: string | null;
  inputs: string[];
  source: UploadSource;
  /** Paths of the inputs, for hooks that read the file again (EXIF). */
  paths: Array<string | undefined>;
  /** A video's frame or a photo of a set: carried to the 'finished' event and the provenance record. */
  origin?: RecordOrigin;
  /** Per input (as `paths`), the web fetch that gave its bytes: URLs geo fetched itself (url-inputs.ts). */
  fetched?: Array<FetchedFrom | undefined>;
}

/**
 * The common job, an image file named by one input, as one object: a batch holds every job through
 * its plan, and the general shape is six objects and two arrays a job (100,000 inputs).
 * Its arrays and source are made when read; a second input naming the same image makes it a plain
 * Job (loadJobs), so nothing ever pushes onto the arrays made here.
 */
class FileJob implements Job {
  origin?: RecordOrigin;
  constructor(
    readonly id: string,
    readonly input: string,
    readonly path: string,
    private readonly size: number,
    private readonly kind: ImageKind,
  ) {}

  get sha256(): string {
    return this.id;
  }

  get inputs(): string[] {
    return [this.input];
  }

  get paths(): Array<string | undefined> {
    return [this.path];
  }

  get source(): UploadSource {
    return { kind: 'image', image: fileImage(this.path, this.size, this.id, this.kind) };
  }

  /** This job with one more input naming its image. */
  withInput(input: string, path: string | undefined): Job {
    return { id: this.id, sha256: this.id, inputs: [this.input, input], source: this.source, paths: [this.path, path], ...(this.origin ? { origin: this.origin } : {}) };
  }
}

/** A job for what loadOne read: one object for a file streamed from disk, the general shape otherwise. */
function jobOf(input: string, one: Loaded): Job {
  const s = one.source;
  if (s.kind === 'image' && !s.image.bytes && one.path !== undefined && s.image.source === one.path) return new FileJob(one.id, input, one.path, s.image.size, s.image.kind);
  return { id: one.id, sha256: one.sha256, inputs: [input], source: s, paths: [one.path], ...(one.fetched ? { fetched: [one.fetched] } : {}) };
}

/** Notes which fetch gave the job's newest input (none for a file): the list stays as long as the inputs. */
function noteFetched(j: Job, f: FetchedFrom | undefined): Job {
  if (!f && !j.fetched) return j;
  const list = j.fetched ?? [];
  while (list.length < j.inputs.length - 1) list.push(undefined);
  list.push(f);
  j.fetched = list;
  return j;
}

/** Jobs for frames, in their order; identical frames (same bytes) share one job, as duplicates do. */
export function frameJobs(frames: readonly FrameInput[]): { jobs: Job[]; order: string[]; skipped: never[] } {
  const jobs = new Map<string, Job>();
  const order: string[] = [];
  for (const f of frames) {
    const image = imageFromBytes(f.input, f.bytes);
    order.push(image.sha256);
    const j = jobs.get(image.sha256);
    if (j) {
      j.inputs.push(f.input);
      j.paths.push(undefined);
    } else jobs.set(image.sha256, { id: image.sha256, sha256: image.sha256, inputs: [f.input], source: { kind: 'image', image }, paths: [undefined], origin: f.origin });
  }
  return { jobs: [...jobs.values()], order, skipped: [] };
}

/** `--together`: the photos of a batch are one set; its id comes from their bytes, not their names. */
export function markSet(jobs: readonly Job[]): void {
  const id = `set-${createHash('sha256').update([...jobs].map((j) => j.id).sort().join('\n')).digest('hex').slice(0, 16)}`;
  jobs.forEach((j, index) => (j.origin = { set: { id, index, size: jobs.length } }));
}

export interface LoadOptions {
  stdin: Readable;
  downscale?: boolean;
  /** Hashes of files read before (the store's cache): a hit is not read again. */
  hashes?: HashCache;
  /** Where URL inputs are fetched to; absent (--service-fetch): the service fetches them (image_url). */
  fetch?: FetchedFiles;
}

type Loaded = { id: string; sha256: string | null; source: UploadSource; path?: string; fetched?: FetchedFrom };

/** Oversized files are caught from their size alone, before a single image byte is read whole. */
async function loadOne(e: InputEntry, opts: LoadOptions): Promise<Loaded> {
  const maxBytes = opts.downscale ? 20 * MAX_IMAGE_BYTES : MAX_IMAGE_BYTES;
  if (e.kind === 'url') {
    if (!opts.fetch) return { id: `url:${e.url}`, sha256: null, source: { kind: 'url', url: e.url } };
    // The photo's bytes, as a file of the run's own: from here on they go the way a file's go.
    const got = await opts.fetch.fetch(e.url, maxBytes);
    return { ...(await sourceOf(e.input, got.image, undefined, got.image.source)), fetched: got.fetched };
  }
  let known: Stats | undefined;
  if (e.kind === 'path') {
    const s = (known = await stat(e.path));
    if (!fitsLimit(s.size)) {
      if (!opts.downscale) throw tooLargeError(e.input, s.size);
      const head = await readFileHead(e.path, DIMENSIONS_HEAD_BYTES);
      const kind = sniffKind(head);
      if (kind === 'unknown') throw new UsageError(`${e.input}: not an image geo can read (unknown format)`);
      checkDecodable(e.input, head, kind);
      const sha = await sha256File(e.path);
      return { id: sha, sha256: sha, source: { kind: 'downscale', path: e.path, bytes: s.size, from: kind }, path: e.path };
    }
  }
  // readImage, not loadImage: WebP & co. are converted here rather than refused. Files are streamed
  // from disk when sent, so hundreds of inputs never sit in memory; stdin (read once) is held.
  const image = await readImage(e.kind === 'stdin' ? '-' : e.path, opts.stdin, { maxBytes, ...(known ? { stat: known } : {}), ...(opts.hashes ? { hashes: opts.hashes } : {}) });
  const path = e.kind === 'path' ? e.path : undefined;
  return sourceOf(e.input, image, path, path);
}

/**
 * How an image read whole or hashed is sent: as it is, converted, or (past the limit) downscaled.
 * `path`: the input's own file; `at`: where a conversion reads it (a fetched photo's private copy).
 */
async function sourceOf(input: string, image: LocalImage, path: string | undefined, at: string | undefined): Promise<Loaded> {
  const convert = CONVERTIBLE_KINDS.has(image.kind);
  // Converting or downscaling (stdin past the limit) decodes every pixel: the header's claim is
  // checked first, so a decompression bomb costs a header read.
  if (convert || !fitsLimit(image.size)) checkDecodable(input, image.bytes ?? (await readFileHead(image.source, DIMENSIONS_HEAD_BYTES)), image.kind);
  if (convert) return { id: image.sha256, sha256: image.sha256, source: { kind: 'convert', from: image.kind, image, ...(at ? { path: at } : {}) }, ...(path ? { path } : {}) };
  if (image.kind !== 'jpeg' && image.kind !== 'png') throw new UsageError(`${input}: not an image geo can read (${image.kind})`, 'give JPEG or PNG (WebP, AVIF, TIFF, GIF and HEIC/HEIF are converted)');
  return { id: image.sha256, sha256: image.sha256, source: { kind: 'image', image }, ...(path ? { path } : {}) };
}

/**
 * Jobs in the order their first input appears. A local problem with an input the user named is a
 * UsageError (nothing sent); a file found by walking a folder (empty, not an image, …) is skipped
 * with its reason instead, so one broken file does not stop a folder of hundreds.
 */
export async function loadJobs(
  entries: InputEntry[],
  opts: LoadOptions,
): Promise<{ jobs: Job[]; order: string[]; skipped: Array<{ path: string; reason: string }> }> {
  // Hash a few files at once (disk and hashing overlap), assembled in input order as they finish:
  // the entry and what a lane loaded are let go once they are a job, so 100,000 inputs are not
  // held twice. The caller's `entries` are emptied as they go.
  const loaded: Array<Loaded | null | undefined> = new Array(entries.length);
  // By entry index, so the skipped come out in input order however the lanes finish.
  const skippedAt: Array<{ path: string; reason: string } | undefined> = new Array(entries.length);
  const jobs = new Map<string, Job>();
  const order: string[] = [];
  let assembled = 0;
  const assemble = () => {
    for (; assembled < entries.length && loaded[assembled] !== undefined; assembled++) {
      const one = loaded[assembled];
      const input = entries[assembled]!.input;
      loaded[assembled] = null;
      // Started long ago (lanes take entries in order): the entry itself is not needed again.
      (entries as Array<InputEntry | undefined>)[assembled] = undefined;
      if (!one) continue;
      order.push(one.id);
      const j = jobs.get(one.id);
      if (j instanceof FileJob) jobs.set(one.id, noteFetched(j.withInput(input, one.path), one.fetched));
      else if (j) {
        j.inputs.push(input);
        j.paths.push(one.path);
        noteFetched(j, one.fetched);
      } else jobs.set(one.id, jobOf(input, one));
    }
  };
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < entries.length; i = next++) {
      const e = entries[i]!;
      try {
        loaded[i] = await loadOne(e, opts);
      } catch (err) {
        if (!(e.kind === 'path' && e.walked && err instanceof UsageError)) throw err;
        const reason = err.message.replace(e.path, '').replace(/^[:\s]+/, '') || err.message;
        skippedAt[i] = { path: e.input, reason: err.hint ? `${reason} (${err.hint})` : reason };
        loaded[i] = null;
      }
      assemble();
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, entries.length) }, lane));
  return { jobs: [...jobs.values()], order, skipped: skippedAt.filter((s) => s !== undefined) };
}

/** True when sending this job needs sharp. */
export function needsSharp(j: Job): boolean {
  return j.source.kind === 'convert' || j.source.kind === 'downscale' || (j.source.kind === 'image' && !fitsLimit(j.source.image.size));
}

export interface Upload {
  image_url?: string;
  image?: ImageB64Source;
  /** A line for the user: what was done to the image before upload. */
  notice?: string;
  /** The bytes that went out (absent for URLs, which the service fetches itself). */
  sent?: SentImage;
  /** Fills sent.sha256 when the upload did not stream to the end (without-metadata.ts). */
  settle?: () => Promise<void>;
}

export interface UploadOptions {
  /** --keep-metadata: send the file as it is (by default metadata is removed first). */
  keepMetadata?: boolean;
}

async function bytesOf(image: LocalImage): Promise<Buffer> {
  if (image.bytes) return Buffer.from(image.bytes);
  // Decode the base64 stream loadImage prepared: works for stdin as well as files.
  const parts: Buffer[] = [];
  for await (const c of image.b64.stream()) parts.push(Buffer.from(c));
  return Buffer.from(Buffer.concat(parts).toString('latin1'), 'base64');
}

/**
 * Produces the body of one job, right before it is sent. Same input, same bytes (resume relies on
 * it): metadata removal is deterministic, and conversions are too (sharp, same settings).
 */
export async function prepareUpload(j: Job, opts: UploadOptions = {}): Promise<Upload> {
  const s = j.source;
  const name = j.inputs[0]!;
  const keep = Boolean(opts.keepMetadata);
  if (s.kind === 'url') return { image_url: s.url };
  if (s.kind === 'image') {
    // Stdin beyond the limit (files were caught by size above) can only go out downscaled.
    if (!fitsLimit(s.image.size)) return { ...(await outgoing(name, await downscaleToFit(name, await bytesOf(s.image), s.image.kind, keep), keep)), notice: `${name}: downscaled to fit the 20 MB limit` };
    // A file no decoder can read is refused here, so in a batch it fails alone, without a request.
    const damaged = await unreadableReason(s.image);
    if (damaged) throw new UsageError(`${name}: ${damaged}; nothing was sent`, DAMAGED_HINT);
    const out = await outgoingImage(s.image, keep);
    return { image: out.b64, sent: out.sent, settle: out.settle };
  }
  const jpeg = s.kind === 'convert' ? await toJpeg(name, s.path ?? (await bytesOf(s.image)), s.image.kind, keep) : await downscaleToFit(name, s.path, s.from, keep);
  // sharp read the file itself: it must still be the one hashed, or the record's
  // sha256 would name bytes that were not analysed. The JPEG is then held, the same on every attempt.
  if (s.path !== undefined && (await sha256File(s.path)) !== j.sha256) throw new InputChangedError(name);
  if (!fitsLimit(jpeg.length)) throw tooLargeError(name, jpeg.length);
  const notice = s.kind === 'convert' ? `${name}: converted ${s.from.toUpperCase()} to JPEG for upload` : `${name}: downscaled to ${(jpeg.length / 1e6).toFixed(1)} MB JPEG to fit the 20 MB limit`;
  return { ...(await outgoing(name, jpeg, keep)), notice };
}

/** A conversion's JPEG goes out like a file would: without its metadata unless kept. */
async function outgoing(name: string, jpeg: Buffer, keep: boolean): Promise<Pick<Upload, 'image' | 'sent' | 'settle'>> {
  const out = await outgoingImage(imageFromBytes(name, jpeg), keep);
  return { image: out.b64, sent: out.sent, settle: out.settle };
}
