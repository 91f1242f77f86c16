/**
 * runLocate: one input (a file, `-` for stdin, or an https URL sent as image_url) to one outcome:
 * a dry-run preview, a 200 result or a 202 acceptance. Every local check runs before the image is
 * read and before anything is sent, so a usage error never costs a credit.
 */
import type { ApiResponse, AsyncAccepted, RetryInfo } from '../../api/client.js';
import { DEPTH_COST, type GeolocateResponse } from '../../api/schemas.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { loadImage } from '../../local/image.js';
import { buildPreview, type RequestPreview } from './preview.js';
import { type LocateFlags, type LocatePlan, planLocate } from './request.js';

export interface LocateOptions {
  input: string;
  flags: LocateFlags;
  dryRun?: boolean;
}

export interface LocateHooks {
  /** Called once the request is about to go out (after every local check passed). */
  onSend?(plan: LocatePlan): void | Promise<void>;
  onRetry?(info: RetryInfo): void;
}

export interface InputInfo {
  source: string;
  kind: 'file' | 'stdin' | 'url';
  sha256?: string;
  size?: number;
  /** The image bytes, for EXIF in ndjson lines (files and stdin only). */
  bytes?: Buffer;
}

interface Base {
  plan: LocatePlan;
  input: InputInfo;
}
export type LocateOutcome =
  | (Base & { kind: 'preview'; preview: RequestPreview })
  | (Base & { kind: 'result'; response: ApiResponse<GeolocateResponse> })
  | (Base & { kind: 'accepted'; response: ApiResponse<AsyncAccepted> });

/** Anything with a scheme is a URL; the contract check then insists on https. */
export function isUrlInput(input: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(input);
}

export async function runLocate(ctx: Ctx, opts: LocateOptions, hooks: LocateHooks = {}): Promise<LocateOutcome> {
  const url = isUrlInput(opts.input);
  const plan = planLocate(opts.flags, url ? opts.input : undefined, ctx.config.getDefault('depth'));
  const cost = DEPTH_COST[plan.depth];
  if (plan.maxCredits !== undefined && cost > plan.maxCredits) {
    throw new UsageError(`depth ${plan.depth} costs ${cost} credits, above --max-credits ${plan.maxCredits}; nothing was sent`, 'lower --depth or raise --max-credits');
  }
  const image = url ? undefined : await loadImage(opts.input, ctx.io.stdin);
  const input: InputInfo = image
    ? { source: opts.input, kind: opts.input === '-' ? 'stdin' : 'file', sha256: image.sha256, size: image.size, ...(image.bytes ? { bytes: image.bytes } : {}) }
    : { source: opts.input, kind: 'url' };
  if (opts.dryRun) return { kind: 'preview', plan, input, preview: buildPreview(ctx, plan, image?.b64) };

  const client = ctx.client();
  await hooks.onSend?.(plan);
  const response = await client.geolocate(plan.request, {
    ...(plan.idempotencyKey !== undefined ? { idempotencyKey: plan.idempotencyKey } : {}),
    ...(image ? { image: image.b64 } : {}),
    ...(hooks.onRetry ? { onRetry: hooks.onRetry } : {}),
  });
  if (response.status === 202) return { kind: 'accepted', plan, input, response: response as ApiResponse<AsyncAccepted> };
  return { kind: 'result', plan, input, response: response as ApiResponse<GeolocateResponse> };
}
