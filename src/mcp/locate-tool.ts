/**
 * The `locate` tool: the CLI's own locate run (parseLocate, then the batch engine with its claims
 * and results in the store; locate/run.ts), so an agent that retries never pays twice. The guards
 * stand in for consent: the plan's cost (reused answers cost 0) must fit --max-credits-per-call and
 * what is left of --max-credits, or it is refused before anything is sent.
 */
import { resolve } from 'node:path';
import type { GeolocateResponse } from '../api/schemas.js';
import { expandInputs } from '../batch/inputs.js';
import type { StoredAt } from '../batch/evidence.js';
import type { BatchEvent, BatchRecord } from '../batch/types.js';
import { UsageError } from '../errors.js';
import { isResultBody } from '../evidence/records.js';
import { reusedSimilarLine } from '../evidence/copy-events.js';
import { mapLinks } from '../output/maps.js';
import { type LocateRun, type LocateSettings, type SceneSettings, parseLocate, runLocate, runScene, sceneOf, startLocate } from '../commands/locate/run.js';
import { RefusedError } from './guards.js';
import { LOCATE, parseArgs } from './inputs.js';
import type { ToolCtx, ToolResult } from './tool.js';

type Finished = Extract<BatchEvent, { type: 'finished' }>;

/** How each answer came: sent now (paid or replayed free), or from an earlier run (free). */
function answeredBy(f: Finished | undefined): string {
  if (!f) return 'not_sent';
  if (f.reused) return 'stored_result';
  if (f.copyOf?.reused) return 'reused_similar';
  if (f.fromOthers) return 'other_process';
  if (f.fromJournal) return 'earlier_run';
  return f.replayed ? 'replay' : 'service';
}

function line(r: BatchRecord, stored: StoredAt | undefined): string {
  if (!r.ok) return `${r.input}: ${r.error?.message ?? 'failed'} (${r.error?.code ?? 'error'})`;
  if (!isResultBody(r.result)) return `${r.input}: accepted, no coordinates yet`;
  if (r.reused_similar) return `${r.input}: ${reusedSimilarLine(r.reused_similar)}${stored ? `; stored as ${stored.ref} (geo history show ${stored.ref})` : ''}`;
  const b = r.result as GeolocateResponse;
  const l = b.location;
  const place = [l.neighborhood, l.city, l.country].filter((v) => typeof v === 'string' && v !== '').join(', ');
  const check = r.exif as { verdict?: string; independent?: boolean } | null;
  // Whether agreement means anything: the service either never saw the GPS, or was sent it.
  const witness = check?.independent === true ? ' (independent: the GPS was not sent)' : check?.independent === false ? ' (NOT independent: the GPS was sent)' : '';
  const exif = check?.verdict ? `${check.verdict}${witness}` : undefined;
  return `${r.input}: ${place || 'a place'} (${l.latitude}, ${l.longitude}), confidence ${b.confidence}${exif ? `, EXIF ${exif}` : ''}${stored ? `; stored as ${stored.ref} (geo history show ${stored.ref})` : ''}`;
}

export async function locateTool(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  const a = parseArgs(LOCATE(), raw);
  const named = await t.dirs.inputs(a.inputs);
  // A folder is walked the way locate will walk it, and every file found is checked too: a link
  // inside an allowed folder may lead out of it.
  const cwd = resolve('.');
  const found = await expandInputs(named, { cwd });
  for (const e of found.entries) if (e.kind === 'path') await t.dirs.readable(e.path);
  const sc = a.scope;
  const opts: Record<string, unknown> = {
    ...(a.depth !== undefined ? { depth: String(a.depth) } : {}),
    ...(a.effort !== undefined ? { effort: a.effort } : {}),
    ...(sc ? { scope: sc.name } : {}),
    ...(sc?.lat !== undefined || sc?.lng !== undefined ? { center: `${sc?.lat ?? ''},${sc?.lng ?? ''}` } : {}),
    ...(sc?.radius_km !== undefined ? { radius: String(sc.radius_km) } : {}),
    ...(sc?.captured_at !== undefined ? { capturedAt: sc.captured_at } : {}),
    ...(a.batch_id !== undefined ? { batchId: a.batch_id } : {}),
    ...(a.downscale ? { downscale: true } : {}),
    ...(a.service_fetch ? { serviceFetch: true } : {}),
    ...(a.keep_original ? { keepOriginal: true } : {}),
    ...(a.reuse_similar ? { reuseSimilar: true } : {}),
    ...(a.case !== undefined ? { case: a.case } : {}),
  };
  const sceneOpts = { ...opts, ...(a.together ? { together: true } : {}), ...(a.every !== undefined ? { every: String(a.every) } : {}), ...(a.max_frames !== undefined ? { maxFrames: String(a.max_frames) } : {}), ...(a.agree_km !== undefined ? { agreeKm: String(a.agree_km) } : {}) };
  const scene = await sceneOf(named, sceneOpts, async () => undefined); // the MCP tool takes no --resume
  if (scene) return sceneTool(t, scene, await parseLocate(t.ctx, scene.inputs, opts));
  const s = await parseLocate(t.ctx, named, opts);
  if (s.scopeNote !== undefined) t.log(s.scopeNote);
  return t.budget.run(async (limit, charge) => {
    s.batch = { ...s.batch, maxCredits: limit.maxCredits, budgetName: limit.name, yes: false };
    const run = await startLocate(t.ctx, s);
    const how = new Map<BatchRecord, Finished>();
    let result;
    try {
      result = await runLocate(t.ctx, run, {
        onEvent: (e) => {
          if (e.type === 'finished') how.set(e.record, e);
          else if (e.type === 'notice') t.log(e.message);
        },
        // The guards are the consent (see geo mcp --help): a plan within them needs no prompt.
        consent: { noPrompt: 'geo mcp asks no one: the plan must fit its credit guards' },
        signal: t.signal,
      });
    } catch (err) {
      // The batch engine refuses a plan above the budget in the guard's own words.
      if (err instanceof UsageError && err.message.includes(limit.name.what)) throw new RefusedError('over_budget', err.message, err.hint);
      throw err;
    }
    const { plan, summary, records } = result;
    // In flight at a cancel: may have been charged, so counted.
    const spent = summary.creditsSpent + summary.inFlight * plan.costPerImage;
    charge(spent);
    const left = t.budget.left;
    const results = records.map((r) => {
      const f = how.get(r);
      const stored = run.evidence.files.get(r);
      const body = r.ok && isResultBody(r.result) ? (r.result as GeolocateResponse) : undefined;
      return {
        input: r.input, ok: r.ok, sha256: r.sha256,
        ...(r.ok ? { result: r.result } : { error: r.error }),
        exif: r.exif,
        ...(r.reused_similar ? { reused_similar: r.reused_similar } : {}),
        stored_result: stored ? { id: stored.id, ref: stored.ref } : null,
        map_links: body ? mapLinks(body.location.latitude, body.location.longitude) : [],
        answered_by: answeredBy(f),
      };
    });
    const stopped = summary.stopped ? `; stopped: ${summary.stopped.reason}` : '';
    const kase = await caseOutcome(run, t.log);
    const text = [
      ...records.map((r) => line(r, run.evidence.files.get(r))),
      `credits: ${spent} spent by this call (plan up to ${plan.credits}; ${plan.fromJournal + plan.fromResults} answered free from earlier runs)${left !== undefined ? `, ${left} left of --max-credits` : ''}${stopped}`,
      ...(kase ? [kase.text] : []),
    ].join('\n');
    const data = {
      results,
      credits: { spent, planned: plan.credits, depth: plan.depth, per_image: plan.costPerImage, ...(left !== undefined ? { left_this_run: left } : {}) },
      ...(summary.stopped ? { stopped: summary.stopped.reason } : {}),
      ...(kase ? { case: kase.data } : {}),
    };
    // One failure with nothing to show is the call's failure, with its own hint.
    const first = records.length === 1 && !records[0]!.ok ? how.get(records[0]!)?.cause : undefined;
    if (first !== undefined) throw first;
    return { text, data, isError: records.every((r) => !r.ok) || kase?.failed === true };
  });
}

/** --case's outcome for the agent: which case, how many results were linked, and any custody entry that could not be appended. */
async function caseOutcome(run: LocateRun, log: (l: string) => void): Promise<{ text: string; data: Record<string, unknown>; failed: boolean } | undefined> {
  const c = run.custody;
  if (!c) return undefined;
  const error = await c.close(log);
  const failures = await c.done();
  const text = `case ${c.kase.id} (${c.kase.name}): ${c.linked} result${c.linked === 1 ? '' : 's'} linked${error ? `; ${error.message}` : ''}`;
  return { text, data: { id: c.kase.id, name: c.kase.name, linked: c.linked, custody_failures: failures }, failed: error !== undefined };
}

/**
 * A video (or photos together): the same guards, then the scene (media/scene.ts's object: the
 * consensus, every cluster, each frame's answer) as the structured result, the consensus as text.
 */
async function sceneTool(t: ToolCtx, scene: SceneSettings, s: LocateSettings): Promise<ToolResult> {
  return t.budget.run(async (limit, charge) => {
    s.batch = { ...s.batch, maxCredits: limit.maxCredits, budgetName: limit.name, yes: false };
    const run = await startLocate(t.ctx, s);
    let res;
    try {
      res = await runScene(t.ctx, run, scene, {
        onEvent: (e) => e.type === 'notice' && t.log(e.message),
        consent: { noPrompt: 'geo mcp asks no one: the plan must fit its credit guards' },
        signal: t.signal, note: t.log,
      });
    } catch (err) {
      if (err instanceof UsageError && err.message.includes(limit.name.what)) throw new RefusedError('over_budget', err.message, err.hint);
      throw err;
    }
    const { plan, summary } = res.batch;
    const spent = summary.creditsSpent + summary.inFlight * plan.costPerImage;
    charge(spent);
    const c = res.scene.consensus;
    const unit = res.scene.kind === 'video' ? 'frames' : 'photos';
    const text = [
      c ? `${res.scene.input}: consensus ${c.place || 'a place'} (${c.lat}, ${c.lng}); ${c.agree} of ${c.of} ${unit} agree, spread ${c.spread_km} km` : `${res.scene.input}: no consensus (no answer)`,
      ...res.scene.clusters.slice(1).map((k) => `also #${k.rank}: ${k.place || 'a place'} (${k.lat}, ${k.lng}); ${k.agree} of ${k.of} ${unit}`),
      `credits: ${spent} spent by this call (plan up to ${plan.credits}; ${plan.fromJournal + plan.fromResults} answered free from earlier runs)`,
    ].join('\n');
    const kase = await caseOutcome(run, t.log);
    const data = { scene: res.scene, map_links: c ? mapLinks(c.lat, c.lng) : [], credits: { spent, planned: plan.credits, depth: plan.depth, per_image: plan.costPerImage }, ...(kase ? { case: kase.data } : {}) };
    return { text: kase ? `${text}\n${kase.text}` : text, data, isError: c === null || kase?.failed === true };
  });
}
