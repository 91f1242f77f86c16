/**
 * Every image geo pays for gets its perceptual hash (PDQ, image/pdq.ts) in the store beside its
 * sha256, so that its copies (re-encoded, resized, stripped) are found later: `geo history
 * --like`, `geo inspect`'s "seen before". A job's original is hashed right before its upload
 * (keepPerceptual); results stored before geo hashed images get theirs the first time a command
 * needs them (hashStoredImages), read from their file when it is still there with the same
 * sha256. A result whose file is gone, moved or changed stays without one.
 *
 * The hash is of the original as read: the bytes the sha256 names. It is checked after the
 * decode, so a file that changed meanwhile gives no hash rather than another image's.
 */
import { sha256Hex } from '../evidence/custody.js';
import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { sha256File } from '../files/read.js';
import { readImage } from '../image/local-image.js';
import { NoDecoderError, type Pdq, pdqOf } from '../image/pdq.js';
import { type SpinnerCtx, startSpinner } from '../output/spinner.js';
import type { StoreApi } from '../store/index.js';
import type { Job } from './sources.js';

/** The PDQ hash of `src` (held bytes or a file) when its bytes are those of `sha256`; else undefined. */
export async function pdqIfSame(src: string | Uint8Array, sha256: string): Promise<Pdq | undefined> {
  if (typeof src !== 'string') return sha256Hex(src) === sha256 ? pdqOf(src) : undefined;
  if (!(await stat(src).then((s) => s.isFile(), () => false))) return undefined;
  const p = await pdqOf(src);
  return (await sha256File(src)) === sha256 ? p : undefined;
}

/**
 * The PDQ hash of an image named on the command line (a file, or `-` for stdin's bytes), with its
 * sha256; one line and exit 2 when it is not an image or cannot be decoded. An image whose hash
 * the store already holds (the same bytes, located before) is not decoded again: loading the
 * decoder is most of a look-up's time.
 */
export async function inputPdq(source: string, stdin: NodeJS.ReadableStream, store: () => Promise<StoreApi>): Promise<{ sha256: string; pdq: Pdq }> {
  const img = await readImage(source, stdin);
  const known = await (await store()).perceptual.get(img.sha256);
  if (known) return { sha256: img.sha256, pdq: { hash: known.pdq, quality: known.quality } };
  try {
    return { sha256: img.sha256, pdq: await pdqOf(img.bytes ?? img.source) };
  } catch (err) {
    throw new UsageError(`${source}: its pixels cannot be read for a perceptual hash (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`, 'check that it opens as an image; a JPEG or PNG works');
  }
}

/** The original a job's upload is made from: its held bytes or its file; none for a URL (the service fetches it). */
export function originalOf(job: Job): string | Uint8Array | undefined {
  const s = job.source;
  if (s.kind === 'url') return undefined;
  if (s.kind === 'downscale') return s.path;
  return s.image.bytes ?? s.image.source;
}

/**
 * Stores a job's hash unless its image has one already, and gives the hash its image has: `known`
 * when the plan made it (similar.ts hashes every input once, before the plan), else made now.
 * `why`: a line for the user when it could not be (the job goes on regardless).
 */
export async function keepPerceptual(store: StoreApi, job: Job, known?: Pdq): Promise<{ hash?: Pdq; why?: string }> {
  const src = originalOf(job);
  if (job.sha256 === null || src === undefined) return {};
  try {
    // A second put of one image changes nothing: with the plan's hash, no look-up first.
    const had = known ? undefined : await store.perceptual.get(job.sha256);
    if (had) return { hash: { hash: had.pdq, quality: had.quality } };
    const p = known ?? (await pdqIfSame(src, job.sha256));
    if (p) await store.perceptual.put(job.sha256, { pdq: p.hash, quality: p.quality });
    return p ? { hash: p } : {};
  } catch (err) {
    // Without sharp no image gets one; the job is not the place to say so each time.
    if (err instanceof NoDecoderError) return known ? { hash: known } : {};
    return { ...(known ? { hash: known } : {}), why: `${job.inputs[0]}: no perceptual hash (its copies will not be found): ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}` };
  }
}

const PAGE = 500;
/** Results past the mark that are all hashed already are marked as looked at once there are this many (one write, not one per look-up). */
const MARK_AFTER = 1000;

/**
 * Gives stored results whose image has no hash theirs, from their files, on first use; a
 * spinner says how far it is on a terminal, and a line what came of it. Writes nothing when there
 * is nothing to do.
 */
export async function hashStoredImages(ctx: SpinnerCtx, store: StoreApi): Promise<{ hashed: number; without: number }> {
  const p = store.perceptual;
  let page = await p.afterMark(PAGE);
  if (page.length === 0) return { hashed: 0, without: 0 };
  const total = await p.unhashedCount();
  const spinner = total > 0 ? await startSpinner(ctx, `hashing ${total} stored image${total === 1 ? '' : 's'} to find their copies`) : undefined;
  let hashed = 0;
  let without = 0;
  let looked = 0;
  let last = 0;
  try {
    while (page.length > 0) {
      // Images of this page already tried (a page is read after the hashes of the one before are in).
      const done = new Set<string>();
      for (const r of page) {
        last = r.id;
        looked++;
        if (r.hashed || done.has(r.sha256)) continue;
        done.add(r.sha256);
        const h = await pdqIfSame(r.input_path, r.sha256).catch((err: unknown) => {
          // Without sharp nothing can be hashed: stop here, marking nothing (the mark is written below), for a run with it.
          if (err instanceof NoDecoderError) throw err;
          return undefined;
        });
        if (h) {
          await p.put(r.sha256, { pdq: h.hash, quality: h.quality });
          hashed++;
        } else without++;
        spinner?.update(`hashing stored images to find their copies: ${hashed + without} of ${total}`);
      }
      if (page.length < PAGE) break;
      page = await p.afterMark(PAGE, last);
    }
    if (hashed + without > 0 || looked >= MARK_AFTER) await p.scanned(last);
    if (hashed + without > 0) spinner?.note(`${hashed} stored image${hashed === 1 ? '' : 's'} hashed to find copies${without ? `; ${without} whose file is gone or changed stay without` : ''}`);
  } catch (err) {
    if (!(err instanceof NoDecoderError)) throw err;
  } finally {
    spinner?.stop();
  }
  return { hashed, without };
}
