/**
 * One locate run as data, for every front end: `geo locate` prints it (handler.ts), `geo mcp`
 * returns it to an agent. Both go through the batch engine with its journal and the provenance
 * store, so a rerun of the same work never pays twice whoever asks; what differs is only how the
 * answer is shown and who consents to the plan (a prompt or --yes here, the guards in geo mcp).
 *
 * A scene (a video's frames, or photos --together) is the same run with its frames as
 * in-memory image jobs, then one consensus (media/consensus.ts): runScene.
 */
import { resolve } from 'node:path';
import type { Consent } from '../../batch/consent.js';
import { type BatchResult, runBatch } from '../../batch/run.js';
import type { BatchEvent } from '../../batch/types.js';
import type { BatchClient } from '../../batch/worker.js';
import type { Ctx } from '../../context.js';
import { Evidence } from '../../batch/evidence.js';
import { type CaseCustody, openCaseCustody } from '../../batch/case-custody.js';
import { caseSigner } from '../../batch/case-sign.js';
import { sanitizeInline } from '../../output/sanitize.js';
import type { LocateSettings } from './options.js';
import { clientForPlan } from '../../batch/keyless.js';
import type { RecordOrigin } from '../../evidence/record-types.js';
import type { Frames } from '../../media/frames.js';
import type { ClipInfo } from '../../media/probe.js';
import type { SceneJson } from '../../media/scene.js';
import { prepareVideo, setScene, videoScene } from '../../media/video.js';
import type { SceneSettings } from './scene-options.js';

export { type LocateSettings, parseLocate } from './options.js';
export type { Evidence } from '../../batch/evidence.js';
export { type SceneSettings, sceneOf } from './scene-options.js';

export interface LocateRun {
  settings: LocateSettings;
  client: BatchClient;
  evidence: Evidence;
  account?: string;
  /** Keep every record for the end (a table, an export, a report); false when each is printed and let go. */
  keep: boolean;
  /** --case: links each answered result to the case and appends its custody entries. */
  custody?: CaseCustody;
}

/**
 * The client and the evidence engine of a run, before anything is read or sent. The account is
 * settled here, so a key that cannot be read (a locked keyring) stops the run before its first input.
 */
export async function startLocate(ctx: Ctx, s: LocateSettings, opts: { keep?: boolean } = {}): Promise<LocateRun> {
  const client = clientForPlan(() => ctx.client(), () => ctx.resolved().baseUrl.value, s.dryRun);
  const account = await ctx.account();
  const keep = opts.keep !== false;
  const evidence = new Evidence(ctx, { store: s.store && !s.dryRun, keep });
  const custody = s.caseRef !== undefined ? await caseCustody(ctx, s.caseRef, evidence) : undefined;
  return { settings: s, client, evidence, keep, ...(account !== undefined ? { account } : {}), ...(custody ? { custody } : {}) };
}

/** --case: found before anything is sent (batch/case-custody.ts). */
async function caseCustody(ctx: Ctx, ref: string, evidence: Evidence): Promise<CaseCustody> {
  const say = (l: string) => ctx.io.stderr.write(`${sanitizeInline(l)}\n`);
  const signer = await caseSigner(ctx, say);
  return openCaseCustody({ store: await ctx.storeApi(), version: ctx.version, actor: await signer.actor(), now: ctx.now, cwd: resolve('.'), stdinSize: () => evidence.stdinSize, onCleanup: ctx.onCleanup, say, sign: (id) => signer.auto(id) }, ref);
}

export interface LocateDeps {
  /** Every batch event, after the evidence engine saw it. */
  onEvent?: (e: BatchEvent) => void;
  consent: Consent;
  /** A 'progress' event every this many ms (a terminal's live line). */
  tickMs?: number;
  /** Default ctx.signal. */
  signal?: AbortSignal;
}

/**
 * Runs the batch; every answer is in the store when it returns. A closed stdout (`| head -1`) stops
 * new requests and lets those in flight arrive and be stored (stopSending) instead of exiting.
 */
export async function runLocate(ctx: Ctx, run: LocateRun, deps: LocateDeps): Promise<BatchResult> {
  const release = ctx.keepRunningOnClosedOutput();
  try {
    return await runBatch(
    {
      client: run.client, env: ctx.env, now: ctx.now, sleep: ctx.sleep, signal: deps.signal ?? ctx.signal, stdin: ctx.io.stdin,
      // Relative names are the user's, from where geo was started (path.resolve reads it).
      cwd: resolve('.'),
      onEvent: (e) => {
        run.evidence.onEvent(e);
        run.custody?.onEvent(e);
        deps.onEvent?.(e);
      },
      exif: run.evidence.exif,
      // Stored results are reused even with --no-store, which only keeps new answers out of history.
      ...(run.account !== undefined ? { account: run.account } : {}), store: await ctx.storeApi(), version: ctx.version, stopSending: ctx.outputClosed, origin: ctx.serviceId(),
      ...(run.custody ? { caseId: run.custody.kase.id } : {}),
      ...(ctx.frugalMemory ? { frugalMemory: ctx.frugalMemory } : {}),
      ...deps.consent,
      ...(deps.tickMs !== undefined ? { tickMs: deps.tickMs } : {}),
    },
    { ...run.settings.batch, ...(run.settings.store ? {} : { listed: false }), ...(run.keep ? {} : { keepRecords: false }) },
    );
  } finally {
    release();
  }
}

export interface SceneResult {
  batch: BatchResult;
  scene: SceneJson;
  /** The video's frames (bytes included: the report and the KMZ show them). */
  frames?: Frames;
  clip?: ClipInfo;
}

export interface SceneDeps extends LocateDeps {
  /** Lines for stderr: what the clip is, which frames were chosen. */
  note?: (line: string) => void;
}

export async function runScene(ctx: Ctx, run: LocateRun, scene: SceneSettings, deps: SceneDeps): Promise<SceneResult> {
  const batchOf = (extra: Partial<LocateRun['settings']['batch']>) => ({ ...run, settings: { ...run.settings, batch: { ...run.settings.batch, ...extra } } });
  const src = scene.source;
  if (src.kind === 'set') {
    let set: string | undefined;
    const onEvent = (e: BatchEvent) => {
      if (e.type === 'finished' && e.origin && 'set' in e.origin) set = (e.origin as Extract<RecordOrigin, { set: unknown }>).set.id;
      deps.onEvent?.(e);
    };
    const batch = await runLocate(ctx, batchOf({ together: true }), { ...deps, onEvent });
    return { batch, scene: setScene(set ?? 'set', batch.records, batch.plan.depth, scene.agreeKm) };
  }
  const video = await prepareVideo(ctx.env, src, { signal: deps.signal ?? ctx.signal, ...(deps.note ? { note: deps.note } : {}), ...(ctx.children ? { host: ctx.children } : {}) });
  const batch = await runLocate(ctx, batchOf({ inputs: [src.input], frames: video.inputs }), deps);
  return { batch, frames: video.frames, clip: video.clip, scene: videoScene(video, batch.records, batch.plan.depth, scene.agreeKm) };
}
