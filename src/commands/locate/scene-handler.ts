/**
 * `geo locate clip.mp4` and `geo locate a.jpg b.jpg --together`: the frames (photos) go
 * through the batch engine like any images, with its live line, notes and summary (many.ts); what
 * is printed at the end is the scene: its consensus, its clusters and its frames (output/views/scene.ts),
 * or the scene object (--json), or the exports. --format ndjson prints one line per frame as it
 * finishes, with its origin (`video` or `set`).
 */
import { consentDeps } from '../../batch/consent.js';
import type { BatchPlan } from '../../batch/types.js';
import type { Ctx } from '../../context.js';
import { DEFAULT_FRAME_OPTIONS } from '../../media/frames.js';
import { formatOutput, viewOpts } from '../../output/render.js';
import { sanitizeJsonText } from '../../output/sanitize.js';
import { planLine } from '../../output/views/batch.js';
import { sceneView } from '../../output/views/scene.js';
import { collectPreviews, writeDryRun } from './dry-run.js';
import { EXPORT_FORMATS, chooseFormat } from './exports.js';
import { sceneExport, writeSceneReport } from './scene-exports.js';
import { ManyOutput } from './many.js';
import { note, resumeCommand } from './notes.js';
import { type SceneResult, parseLocate, runScene, startLocate } from './run.js';
import { DEFAULT_AGREE_KM, type SceneSettings } from './scene-options.js';

/** The scene flags a rerun needs to choose the same frames (only those that differ from the defaults). */
function sceneFlags(scene: SceneSettings): string[] {
  const src = scene.source;
  const words = src.kind === 'set' ? ['--together'] : [];
  if (src.kind === 'video') {
    const d = DEFAULT_FRAME_OPTIONS;
    if (src.frames.everyS !== d.everyS) words.push('--every', String(src.frames.everyS));
    if (src.frames.scene !== d.scene) words.push('--scene', String(src.frames.scene));
    if (src.frames.maxFrames !== d.maxFrames) words.push('--max-frames', String(src.frames.maxFrames));
  }
  if (scene.agreeKm !== DEFAULT_AGREE_KM) words.push('--agree-km', String(scene.agreeKm));
  return words;
}

/** --dry-run: the plan, the frames that would be sent (time, why, sha256) and those dropped, each request. */
async function dryRun(ctx: Ctx, res: SceneResult, format: string, maxCredits: number | undefined): Promise<void> {
  const view = await viewOpts(ctx);
  const frames = res.scene.frames.map((f) => ({ index: f.index, input: f.input, ...(f.t_s !== undefined ? { t_s: f.t_s, why: f.why } : {}) }));
  if (format === 'json' || format === 'ndjson') {
    // A clip's frames are few (--max-frames): its requests fit in the one object.
    const requests = await collectPreviews(res.batch.previews);
    ctx.io.stdout.write(await formatOutput({ data: { ...res.batch.plan, requests, frames, dropped: res.scene.dropped, sent: false }, human: () => '' }, 'json', view));
    return;
  }
  const lines = res.scene.kind === 'video'
    ? [`frames that would be sent (${frames.length}):`, ...res.scene.frames.map((f) => `  #${f.index}  ${(f.t_s ?? 0).toFixed(3)} s  ${f.why ?? ''}`), ...res.scene.dropped.map((d) => `  -   ${d.t_s.toFixed(3)} s  not sent: ${d.why === 'duplicate' ? `near-duplicate of #${d.of ?? '?'}` : 'over --max-frames'}`), '']
    : [];
  const noun = res.scene.kind === 'video' ? 'frame' : 'photo';
  ctx.io.stdout.write(lines.join('\n'));
  await writeDryRun(ctx.io.stdout, res.batch.plan, res.batch.previews, { single: false, format: 'table', view, noun, ...(maxCredits !== undefined ? { maxCredits } : {}) });
}

export async function locateScene(ctx: Ctx, scene: SceneSettings, opts: Record<string, unknown>): Promise<void> {
  const s = await parseLocate(ctx, scene.inputs, opts);
  const format = chooseFormat(ctx, 'table', s.dryRun);
  const warn = (l: string) => note(ctx, l);
  const noun = scene.source.kind === 'video' ? 'frame' : 'photo';
  const run = await startLocate(ctx, s);
  if (s.scopeNote !== undefined) warn(s.scopeNote);
  const resume = (journal: string | undefined) => (journal ? resumeCommand(ctx, journal, s.batch, sceneFlags(scene)) : undefined);
  const out = new ManyOutput(ctx, {
    format, sandbox: () => run.client.servedBySandbox === true, evidence: run.evidence, resume, jsonAtEnd: true,
    lineOf: (e) => ({ ...e.record, ...(e.origin ?? {}) }),
  });
  let res: SceneResult;
  try {
    res = await runScene(ctx, run, scene, {
      onEvent: (e) => {
        if (e.type === 'plan' && !s.dryRun && e.plan.toSend > 0) note(ctx, `plan: ${planLine(e.plan as BatchPlan, { balance: false, noun })}`);
        out.onEvent(e);
      },
      consent: consentDeps(ctx),
      note: (l) => out.note(l),
      ...(ctx.animate ? { tickMs: 1000 } : {}),
    });
  } finally {
    await out.stop();
  }
  if (s.dryRun) {
    await dryRun(ctx, res, format, s.batch.maxCredits);
    return;
  }
  const records = run.evidence.recordsFor(res.batch.records);
  try {
    if (format === 'table') ctx.io.stdout.write(sceneView(res.scene, await viewOpts(ctx)) + '\n');
    else if (format === 'json') ctx.io.stdout.write(sanitizeJsonText(JSON.stringify(res.scene, null, 2)) + '\n');
    else if ((EXPORT_FORMATS as readonly string[]).includes(format)) {
      const text = await sceneExport(ctx, format, res, records, warn);
      if (text !== undefined) {
        ctx.io.stdout.write(text);
        run.custody?.fileWritten('export', format, '-', text);
      }
    }
    out.close(res.batch);
  } finally {
    const html = s.report !== undefined ? await writeSceneReport(ctx, s.report, res, records, warn, s.fileMode) : undefined;
    if (html !== undefined) run.custody?.fileWritten('report', 'html', s.report!, html);
  }
  const failed = await run.custody?.close(warn);
  if (failed) throw failed;
}
