/**
 * One locate run as data, for every front end: `geo locate` prints it (handler.ts), `geo mcp`
 * returns it to an agent. Both go through the batch engine with its journal and the provenance
 * store, so a rerun of the same work never pays twice whoever asks; what differs is only how the
 * answer is shown and who consents to the plan (a prompt or --yes here, the guards in geo mcp).
 */
import { resolve } from 'node:path';
import type { Consent } from '../../batch/consent.js';
import { type BatchResult, runBatch } from '../../batch/run.js';
import type { BatchEvent } from '../../batch/types.js';
import type { BatchClient } from '../../batch/worker.js';
import type { Ctx } from '../../context.js';
import { Evidence } from '../../batch/evidence.js';
import type { LocateSettings } from './options.js';
import { clientForPlan } from '../../batch/keyless.js';

export { type LocateSettings, parseLocate } from './options.js';
export type { Evidence } from '../../batch/evidence.js';

export interface LocateRun {
  settings: LocateSettings;
  client: BatchClient;
  evidence: Evidence;
  account?: string;
}

/**
 * The client and the evidence engine of a run, before anything is read or sent. The account is
 * settled here, so a key that cannot be read (a locked keyring) stops the run before its first input.
 */
export async function startLocate(ctx: Ctx, s: LocateSettings): Promise<LocateRun> {
  const client = clientForPlan(() => ctx.client(), () => ctx.resolved().baseUrl.value, s.dryRun);
  const account = await ctx.account();
  const evidence = new Evidence(ctx, { store: s.store && !s.dryRun });
  return { settings: s, client, evidence, ...(account !== undefined ? { account } : {}) };
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
        deps.onEvent?.(e);
      },
      exif: run.evidence.exif,
      // Stored results are reused even with --no-store, which only keeps new answers out of history.
      ...(run.account !== undefined ? { account: run.account } : {}), store: ctx.store(), version: ctx.version, stopSending: ctx.outputClosed, origin: ctx.serviceId(),
      ...deps.consent,
      ...(deps.tickMs !== undefined ? { tickMs: deps.tickMs } : {}),
    },
    { ...run.settings.batch, ...(run.settings.store ? {} : { listed: false }) },
    );
  } finally {
    release();
  }
}
