/**
 * Glue for `geo locate`: the sandbox banner and spinner on stderr, the result on stdout in the
 * chosen format, warnings after it, and exit 8 below --min-confidence (after printing, so the
 * analyst still sees what was found).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { RetryInfo } from '../../api/client.js';
import { DEPTH_LATENCY, isLoopbackHost } from '../../api/schemas.js';
import type { Handler } from '../../cli.js';
import type { Ctx } from '../../context.js';
import { BelowConfidenceError, UsageError } from '../../errors.js';
import { costOf } from '../../output/errors.js';
import { formatOutput, resolveFormat, viewOpts } from '../../output/render.js';
import { type Spinner, startSpinner } from '../../output/spinner.js';
import { locateView } from '../../output/views/locate.js';
import { acceptedView, dryRunView } from '../../output/views/locate-dry-run.js';
import type { LocateFlags } from './request.js';
import { type InputInfo, type LocateOutcome, isUrlInput, runLocate } from './run.js';

const FLAG_NAMES = ['depth', 'effort', 'scope', 'center', 'radius', 'capturedAt', 'batchId', 'async', 'model', 'idempotencyKey', 'maxCredits', 'minConfidence'] as const;

function note(ctx: Ctx, line: string): void {
  if (!ctx.globals.quiet) ctx.io.stderr.write(line + '\n');
}

/** DESIGN.md: sandbox results are simulated; say so wherever the base URL is loopback. */
function sandboxBanner(ctx: Ctx): void {
  try {
    if (isLoopbackHost(new URL(ctx.resolved().baseUrl.value).hostname)) note(ctx, 'sandbox: results are simulated, no credits are spent');
  } catch {
    // an unparsable base URL is reported by the client with its own hint
  }
}

function label(input: string): string {
  if (input === '-') return 'stdin';
  if (isUrlInput(input)) return input.length > 48 ? input.slice(0, 47) + '…' : input;
  return basename(input);
}

function retryLine(i: RetryInfo): string {
  const wait = `${Math.max(1, Math.round(i.delayMs / 1000))} s`;
  switch (i.reason) {
    case 'rate_limited':
      return `rate limited (429); retrying in ${wait}`;
    case 'in_progress':
      return `the same request is still running on the server (409); checking again in ${wait}`;
    case 'timeout':
      return `no answer in time; retrying in ${wait} with the same Idempotency-Key, so it is never charged twice`;
    default:
      return `${i.status ? `the service answered ${i.status}` : `connection problem (${i.reason})`}; retrying in ${wait} with the same Idempotency-Key`;
  }
}

async function ndjsonLine(input: InputInfo, result: unknown): Promise<Record<string, unknown>> {
  let exif: unknown = null;
  // Files are streamed to the API, not held, so EXIF reads them again (only for ndjson lines).
  const bytes = input.bytes ?? (input.kind === 'file' ? await readFile(input.source).catch(() => undefined) : undefined);
  if (bytes) {
    const { readExif } = await import('../../local/exif.js');
    exif = await readExif(bytes).catch(() => null);
  }
  return { input: input.source, sha256: input.sha256 ?? null, ok: true, result, exif };
}

export const locate: Handler = async (ctx, args, opts) => {
  const inputs = (args[0] as string[] | undefined) ?? [];
  if (inputs.length !== 1) {
    throw new UsageError(`locate takes one input for now, got ${inputs.length}`, 'several files and folders arrive with batches in the next release; run geo locate once per image');
  }
  const input = inputs[0]!;
  const format = resolveFormat(ctx);
  const flags = Object.fromEntries(FLAG_NAMES.filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]])) as LocateFlags;

  let spinner: Spinner | undefined;
  let outcome: LocateOutcome;
  try {
    outcome = await runLocate(ctx, { input, flags, dryRun: Boolean(opts.dryRun) }, {
      onSend: async (plan) => {
        sandboxBanner(ctx);
        spinner = await startSpinner(ctx, `locating ${label(input)} · ${costOf(plan.depth)} · usually ${DEPTH_LATENCY[plan.depth]}`);
      },
      onRetry: (info) => spinner?.note(retryLine(info)),
    });
  } finally {
    spinner?.stop();
  }

  const view = viewOpts(ctx);
  const write = (s: string) => ctx.io.stdout.write(s);
  if (outcome.kind === 'preview') {
    const p = outcome.preview;
    return void write(formatOutput({ data: p, human: (v) => dryRunView(p, v) }, format, view));
  }
  const res = outcome.response;
  if (outcome.kind === 'accepted') {
    return void write(formatOutput({ raw: res.raw, data: res.data, human: (v) => acceptedView(res.data as Record<string, unknown>, v) }, format, view));
  }
  const data = outcome.response.data;
  const line = format === 'ndjson' ? await ndjsonLine(outcome.input, data) : undefined;
  const meta = { input, replayed: res.replayed, elapsedMs: res.elapsedMs, attempts: res.attempts, ...(res.requestId ? { requestId: res.requestId } : {}) };
  write(formatOutput({ raw: res.raw, data, records: () => [line ?? data], human: (v) => locateView(data, meta, v) }, format, view));

  if (res.replayed && format !== 'table') note(ctx, 'replayed: the stored response for this Idempotency-Key, no credits charged');
  if (data.scope_consistent === false) note(ctx, 'warning: the image contradicts the --scope; the result is the unscoped estimate (scope_consistent: false)');
  const min = outcome.plan.minConfidence;
  if (min !== undefined && data.confidence < min) throw new BelowConfidenceError(data.confidence, min);
};
