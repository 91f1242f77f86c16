/**
 * URL inputs of a run. By default geo fetches each photo itself (evidence/web-fetch.ts, every
 * redirect recorded) and its bytes become a file in the run's own private folder, so from there on
 * they go the way a file's bytes go: sniffed, checked against the pixel limit, converted, their
 * metadata read and stripped, hashed, reused by sha256, and streamed from disk when sent (a list of
 * a thousand URLs never holds a thousand photos in memory). The folder is removed when the run ends.
 *
 * With --service-fetch the URL goes to the service as image_url, as it did before geo fetched:
 * geo then never has the bytes, and the notice below says what is lost with them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchPhoto } from '../evidence/web-fetch.js';
import type { FetchedFrom } from '../evidence/record-types.js';
import { type LocalImage, fileImage, sniffKind } from '../image/local-image.js';
import { DIMENSIONS_HEAD_BYTES } from '../image/dimensions.js';
import { SNIFF_BYTES } from '../image/sniff.js';
import { CancelledError } from '../errors.js';
import { checkDecodable } from './convert.js';

/** What --service-fetch gives up, said once on stderr when a run sends a URL as image_url. */
export function serviceFetchNotice(urls: number): string {
  return `--service-fetch: the service fetches ${urls === 1 ? 'the URL' : `${urls} URLs`} itself, so geo records no sha256 of what was located, no EXIF witness, no metadata stripping and no perceptual hash`;
}

export interface FetchedImage {
  /** The bytes as a file of the run's private folder (image.source is its path). */
  image: LocalImage;
  fetched: FetchedFrom;
}

/** The photos a run fetched, each once, as files of a folder only this user can read. */
export class FetchedFiles {
  private dir: Promise<string> | undefined;
  /** Removed: a fetch still under way when the run was refused (another input failed) writes nothing. */
  private removed = false;
  constructor(private readonly o: { now: () => number; signal?: AbortSignal; downscale?: boolean }) {}

  async fetch(url: string, maxBytes: number): Promise<FetchedImage> {
    const tooLargeHint = this.o.downscale ? 'give a smaller image' : 'add --downscale to fit it under the limit as JPEG, or give a smaller image';
    const got = await fetchPhoto(url, { maxBytes, tooLargeHint, now: this.o.now, ...(this.o.signal ? { signal: this.o.signal } : {}) });
    const kind = sniffKind(got.bytes.subarray(0, SNIFF_BYTES));
    // A host is no one's own disk: whatever its type, a header claiming more pixels than geo decodes
    // is refused now, before any decoder (a conversion, a perceptual hash) meets it.
    checkDecodable(url, got.bytes.subarray(0, DIMENSIONS_HEAD_BYTES), kind);
    if (this.removed) throw new CancelledError(`${url}: the run ended while it was fetched; nothing was sent`);
    // mkdtemp makes the folder 0700; each file is named by its sha256, so the same bytes are one file.
    this.dir ??= mkdtemp(join(tmpdir(), 'geo-fetched-'));
    const path = join(await this.dir, got.fetched.sha256);
    await writeFile(path, got.bytes, { mode: 0o600, flag: 'w' });
    return { image: fileImage(path, got.bytes.length, got.fetched.sha256, kind), fetched: got.fetched };
  }

  /** Removes the folder and what is in it (nothing when nothing was fetched). */
  async remove(): Promise<void> {
    const dir = this.dir;
    this.removed = true;
    const path = dir ? await dir.catch(() => undefined) : undefined;
    if (path) await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A generator that removes the run's fetched files once it is read to its end (or given up). */
export async function* removingAfter<T>(items: AsyncIterable<T>, files: FetchedFiles | undefined): AsyncGenerator<T> {
  try {
    yield* items;
  } finally {
    await files?.remove();
  }
}
