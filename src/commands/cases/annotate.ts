/**
 * `geo cases annotate <case> [result...] [--out DIR]`: a working copy of each result's original
 * with its clues' boxes drawn (image/annotate.ts), never the original itself: the original is read
 * only, and only when it still hashes to the sha256 the custody log has for it. Each copy is kept
 * in the store (kept_files) and logged as working_copy_made: what it was made from, how, its own
 * sha256 and the boxes in pixels. The same original and answer make the same bytes, so annotating
 * again appends nothing. Every result named is found before anything is drawn or appended.
 */
import { signedLines } from './investigation-append.js';
import { join } from 'node:path';
import { caseLog } from '../../batch/case-custody.js';
import { type HeadSignature, caseSigner } from '../../batch/case-sign.js';
import { vouchedOrRefuse } from '../../batch/case-results.js';
import type { Ctx } from '../../context.js';
import { ConfigError, PartialFailureError, UsageError } from '../../errors.js';
import type { VouchedResult } from '../../evidence/case-vouch.js';
import { type CaseItem, caseItems, findResult, resultRef } from '../../evidence/clue-ids.js';
import { sha256Hex } from '../../evidence/custody.js';
import type { InvestigationEvents, ResultRef } from '../../evidence/investigation-events.js';
import { investigationOf } from '../../evidence/investigation.js';
import { type FileMode, writeOwnFile } from '../../files/own-file.js';
import { checkWritableFile, ensureOwnDir } from '../../files/safe.js';
import { boxDrawer } from '../../image/annotate.js';
import { vouchedImage } from '../../image/vouched-image.js';
import { fileMode } from '../../flags.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { findCase } from '../../store/find.js';
import type { Handler } from '../types.js';

type Copy = InvestigationEvents['working_copy_made']['copy'];

export interface MadeCopy extends Copy {
  /** The result whose clues were drawn (its ref: r1, r2…). */
  result: NonNullable<Copy['result']>;
  /** The working_copy_made entry: appended now, or made before with the same bytes (appended false). */
  entry: number;
  appended: boolean;
  /** With --out: the file written. */
  file?: string;
}

export interface Annotated {
  case: { id: string; name: string };
  copies: MadeCopy[];
  /** Results whose original could not be drawn on, one line each. */
  skipped: string[];
  signed?: HeadSignature;
}

export interface AnnotateOptions {
  out?: string;
  /** JPEG instead of PNG (--jpeg). */
  jpeg?: boolean;
  mode?: FileMode;
}

type Pick_ = { r: VouchedResult; ref: ResultRef; boxes: CaseItem[] };

/** The results to draw on: those named (each must exist and have a clue with a box), or every one that has one. */
function choose(results: readonly VouchedResult[], items: readonly CaseItem[], ids: readonly string[], caseId: string): Pick_[] {
  const boxed = (ref: string) => items.filter((i) => i.kind === 'clue' && i.box && i.result.ref === ref);
  const hint = 'only visual clues with image coordinates (bbox) can be drawn: answers at --depth 2 or 3 carry clues, and some of them have one';
  if (ids.length === 0) {
    const all = results.map((r, i) => ({ r, ref: resultRef(r, i + 1), boxes: boxed(`r${i + 1}`) })).filter((p) => p.boxes.length > 0);
    if (all.length === 0) throw new UsageError(`case ${caseId} has no clue with image coordinates: no working copy to make`, hint);
    return all;
  }
  const out = new Map<string, Pick_>();
  for (const id of ids) {
    const ref = findResult(results, id);
    if (!ref) throw new UsageError(`${JSON.stringify(id)} names no result of case ${caseId}`, `name one as ${results.length > 1 ? `r1…r${results.length}` : 'r1'}, by its analysis id or a sha256 prefix (6+ hex digits): geo cases show ${caseId} lists them`);
    const boxes = boxed(ref.ref);
    if (boxes.length === 0) throw new UsageError(`${ref.ref} of case ${caseId} has no clue with image coordinates: no working copy to make`, hint);
    out.set(ref.ref, { r: results[Number(ref.ref.slice(1)) - 1]!, ref, boxes });
  }
  return [...out.values()];
}

/** The original's bytes, as the log vouches for them, or why there are none. */
async function original(p: Pick_): Promise<{ bytes: Uint8Array; path: string } | string> {
  const { r } = p;
  const ref = p.ref.ref;
  if (r.record.video) return `${ref}: made from a frame of the video ${r.record.video.path}, and geo keeps no frame to draw on`;
  if (r.input.path === null) return `${ref}: the custody log names no file for its input (linked by an earlier geo)`;
  const v = await vouchedImage({ path: r.input.path, sha256: r.input.sha256 });
  return 'imageBytes' in v ? { bytes: v.imageBytes, path: r.input.path } : `${ref}: ${v.missingImage.replace(/^left out: /, '')}`;
}

export async function runAnnotate(ctx: Pick<Ctx, 'storeApi' | 'now' | 'version' | 'config' | 'vault'>, caseRef: string, ids: readonly string[], opts: AnnotateOptions = {}, say: (line: string) => void = () => undefined): Promise<Annotated> {
  const store = await ctx.storeApi();
  const c = await findCase(store, caseRef);
  // The boxes come from the raw answers the log vouches for: a case that does not verify is refused.
  const ev = await vouchedOrRefuse(store, c, 'no working copy is made');
  const results = ev.vouch.results;
  const picks = choose(results, caseItems(results), ids, c.id);
  const drawer = await boxDrawer();
  if (!drawer) throw new ConfigError('geo cases annotate draws with sharp, which is not installed', 'reinstall geo (npm install -g geo-cli): sharp is one of its dependencies');
  const originals = results.flatMap((r) => (r.input.path ? [r.input.path] : []));
  const fileOf = (ref: string) => join(opts.out!, `${ref}-annotated.${opts.jpeg ? 'jpg' : 'png'}`);

  const made: Array<{ p: Pick_; copy: Copy; bytes: Buffer }> = [];
  const skipped: string[] = [];
  for (const p of picks) {
    const o = await original(p);
    if (typeof o === 'string') {
      skipped.push(o);
      continue;
    }
    const boxes = p.boxes.map((i) => ({ id: i.id, ...i.box! }));
    let drawn;
    try {
      drawn = await drawer.draw(o.bytes, boxes, opts.jpeg ? 'jpeg' : 'png');
    } catch (err) {
      skipped.push(`${p.ref.ref}: ${o.path} cannot be drawn on (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    if (opts.out !== undefined) checkWritableFile(fileOf(p.ref.ref), 'the working copy', { inputs: () => originals });
    const copy: Copy = {
      of: { sha256: p.r.input.sha256, input_path: o.path }, result: p.ref,
      sha256: sha256Hex(drawn.bytes), size: drawn.bytes.length, media_type: drawn.media_type,
      method: `geo ${ctx.version} cases annotate: boxes of visual_clues drawn with ${drawer.name}`,
      boxes: drawn.boxes.map((b) => ({ clue: b.id, x: b.x, y: b.y, width: b.width, height: b.height })),
    };
    made.push({ p, copy, bytes: drawn.bytes });
  }
  if (made.length === 0) {
    if (skipped.length === 1) throw new UsageError(`${skipped[0]!}: no working copy made`, 'a working copy is made from the original the case was located with: put that file back at its path');
    skipped.forEach(say);
    throw new UsageError(`no working copy made: none of the ${skipped.length} originals could be drawn on (each is said above)`, 'a working copy is made from the original the case was located with: put those files back at their paths');
  }

  // The folder is made once there is something to put in it.
  if (opts.out !== undefined) ensureOwnDir(opts.out);
  const signer = await caseSigner(ctx, say);
  const log = caseLog(store, await signer.actor(), ctx.now);
  const before = investigationOf(ev.entries).working_copies;
  const out: Annotated = { case: { id: c.id, name: ev.vouch.case.name }, copies: [], skipped };
  for (const { p, copy, bytes } of made) {
    // Kept before it is logged: an entry never names bytes the store does not hold.
    await store.kept.put(bytes, copy.media_type);
    const same = before.find((w) => w.sha256 === copy.sha256 && w.of.sha256 === copy.of.sha256);
    const entry = same ? same.entry : (await log.append(c.id, { event: 'working_copy_made', data: { copy } })).seq;
    // Made before: the copy as that entry logged it (an earlier geo says so in its method).
    const row: MadeCopy = { ...copy, ...(same ? { method: same.method } : {}), result: copy.result!, entry, appended: !same };
    if (opts.out !== undefined) {
      await writeOwnFile(fileOf(p.ref.ref), 'the working copy', bytes, { inputs: () => originals, ...(opts.mode ? { mode: opts.mode } : {}) });
      row.file = fileOf(p.ref.ref);
    }
    out.copies.push(row);
  }
  if (out.copies.some((x) => x.appended)) {
    const signed = await signer.auto(c.id);
    if (signed) out.signed = signed;
  }
  return out;
}

export const annotate: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx, ['table', 'json']);
  const say = (line: string) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`);
  const mode = fileMode(opts.fileMode);
  const out = typeof opts.out === 'string' ? opts.out : undefined;
  const res = await runAnnotate(ctx, args[0] as string, (args[1] as string[] | undefined) ?? [], { ...(out !== undefined ? { out } : {}), ...(mode ? { mode } : {}), jpeg: Boolean(opts.jpeg) }, say);
  const human = () => [
    ...res.copies.map((x) => [
      `${x.appended ? 'made' : 'already made'} a working copy of ${x.result.ref} (${sanitizeInline(x.of.input_path)}): ${x.boxes.length} box${x.boxes.length === 1 ? '' : 'es'} (${x.boxes.map((b) => sanitizeInline(b.clue)).join(', ')}), entry ${x.entry}`,
      `  sha256    ${x.sha256}  (${x.media_type}, ${x.size} bytes; the original ${x.of.sha256.slice(0, 12)}… is unchanged)`,
      ...(x.file ? [`  written   ${sanitizeInline(x.file)}`] : []),
    ].join('\n')),
    ...signedLines(res.signed),
  ].join('\n');
  await render(ctx, { data: res, human }, ['table', 'json']);
  if (res.skipped.length) {
    res.skipped.forEach((l) => say(`no working copy: ${l}`));
    throw new PartialFailureError(res.skipped.length, res.skipped.length + res.copies.length);
  }
};
