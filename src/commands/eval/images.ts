/**
 * Which images eval sends: the inputs expanded as locate expands them (files, folders, --from-file,
 * sample:NAME), each given its truth, from --truth FILE when given, else its own EXIF GPS (read
 * here; never sent). Images without a truth are set aside before the plan: listed, never sent.
 */
import { stat } from 'node:fs/promises';
import { expandInputs } from '../../batch/inputs.js';
import { UsageError } from '../../errors.js';
import { readFileHead } from '../../files/read.js';
import { expandSamples } from '../../files/samples.js';
import { checkNamedVideo, videoKindOf } from '../../media/sniff.js';
import { SNIFF_BYTES, describeNonImage, sniffKind } from '../../image/sniff.js';
import { type Truth, type TruthPoint, exifTruth } from '../../eval/truth.js';

export interface EvalImage {
  /** As the user named it (a folder walk names it under the folder). */
  input: string;
  /** Absolute: what the batch is given, so the journal and the records name it one way. */
  path: string;
  truth: TruthPoint;
}

export interface Selected {
  images: EvalImage[];
  /** Videos named on the command line: each one scene, its truth from --truth. */
  videos: EvalImage[];
  /** Inputs without a truth, with why (one line each on stderr). */
  untruthed: Array<{ input: string; why: string }>;
  /** Files found in a folder that are no image geo can send (empty, not an image): listed, never sent. */
  unusable: Array<{ input: string; why: string }>;
}

/**
 * Why a file found by walking a folder cannot be sent, judged from its size and first bytes (as
 * locate skips such files with a record instead of stopping the folder), or undefined.
 */
export async function unusableReason(path: string): Promise<string | undefined> {
  if ((await stat(path)).size === 0) return 'empty (0 bytes)';
  const head = await readFileHead(path, SNIFF_BYTES);
  // WebP, HEIC & co. are converted and large files refused (or downscaled) by the engine, as locate does.
  if (sniffKind(head) === 'unknown') return `not an image (${describeNonImage(head)})`;
  return undefined;
}

/** The truth of one local image: the file's when --truth is given, else its EXIF GPS. */
export async function truthFor(path: string, truth: Truth | undefined): Promise<{ point?: TruthPoint; why: string }> {
  if (truth) {
    const hit = truth.lookup(path);
    return hit ? { point: { lat: hit.lat, lng: hit.lng }, why: '' } : { why: 'not in the --truth file' };
  }
  const point = await exifTruth(path);
  return point ? { point, why: '' } : { why: 'no EXIF GPS (or a 0,0 placeholder); give --truth FILE' };
}

export async function selectImages(args: string[], opts: { fromFile?: string; cwd: string; truth?: Truth }): Promise<Selected> {
  const expanded = await expandInputs(expandSamples(args), { cwd: opts.cwd, ...(opts.fromFile !== undefined ? { fromFile: opts.fromFile } : {}) });
  const images: EvalImage[] = [];
  const videos: EvalImage[] = [];
  const untruthed: Selected['untruthed'] = [];
  const unusable: Selected['unusable'] = expanded.skipped.map((s) => ({ input: s.path, why: s.reason }));
  for (const e of expanded.entries) {
    if (e.kind !== 'path') throw new UsageError(`${e.input}: eval needs local image files (their truth is matched by path or read from their EXIF)`, 'download the image first, or evaluate a folder of photos');
    // A file named on the command line that cannot be sent is a usage error later (exit 2, as in
    // locate); one found in a folder is set aside so it does not stop the evaluation of the rest.
    if (!e.walked && (await videoKindOf(e.path))) {
      // A video carries no EXIF GPS geo reads: its truth is a row of the truth file.
      const hit = opts.truth?.lookup(e.path);
      if (hit) videos.push({ input: e.input, path: e.path, truth: { lat: hit.lat, lng: hit.lng } });
      else untruthed.push({ input: e.input, why: opts.truth ? 'not in the --truth file' : 'a video\'s true position comes from --truth FILE' });
      continue;
    }
    // Named like a video but not one (nor an image): said as a video, exit 2.
    if (!e.walked) await checkNamedVideo(e.input, e.path);
    const why = e.walked ? await unusableReason(e.path) : undefined;
    if (why !== undefined) {
      unusable.push({ input: e.input, why });
      continue;
    }
    const t = await truthFor(e.path, opts.truth);
    if (t.point) images.push({ input: e.input, path: e.path, truth: t.point });
    else untruthed.push({ input: e.input, why: t.why });
  }
  return { images, videos, untruthed, unusable };
}
