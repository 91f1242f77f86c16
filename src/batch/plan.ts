/**
 * Cost before spending: unique images × DEPTH_COST[depth] against GET /credits'
 * total_available, the --max-credits refusal, the confirm-threshold decision (returned as data:
 * only the command knows whether it may prompt) and --dry-run's request previews.
 */
import { createHash } from 'node:crypto';
import { SECRET_MASK } from '../api/mask.js';
import { routes } from '../api/routes.js';
import { DEPTH_COST } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { LIKE_DISTANCE } from '../image/pdq.js';
import { b64Length, fitsLimit } from './convert.js';
import { type SentImage, outgoingImage } from '../image/without-metadata.js';
import { type Job, type UploadOptions, needsSharp } from './sources.js';
import type { BatchParams, BatchPlan } from './types.js';

export const DEFAULT_CONFIRM_THRESHOLD = 20;

export interface RequestPreview {
  inputs: string[];
  sha256: string | null;
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** What of the image would go out: its sha256 and the metadata removed (local images only). */
  image?: SentImage;
}

export interface PlanInput {
  jobs: Job[];
  inputs: number;
  skipped?: BatchPlan['skipped'];
  params: BatchParams;
  journal?: string;
  batch?: string;
  /** Jobs the store answers, by how: an earlier run of this batch, or a stored result. */
  held?: ReadonlyMap<string, 'journal' | 'results'>;
  /** Jobs another live geo process is sending. */
  elsewhere?: ReadonlySet<string>;
  /** Jobs whose only stored record was damaged. */
  damaged?: ReadonlySet<string>;
  /** Jobs that look like photos located before (similar.ts), and whether --reuse-similar takes their answers. */
  similar?: ReadonlySet<string>;
  reuseSimilar?: boolean;
  available?: number;
  confirmThreshold?: number;
  maxCredits?: number;
  budgetName?: BudgetName;
}

/**
 * Who set the budget, for the refusal: `geo locate --max-credits N` by default; `geo mcp` names its
 * own guards (--max-credits-per-call, what is left of its --max-credits).
 */
export interface BudgetName {
  /** "--max-credits 5" */
  what: string;
  /** "raise --max-credits" */
  raise: string;
}

/** --max-credits refuses a larger plan before anything, even the free balance read, is sent. */
export function checkMaxCredits(pending: number, depth: BatchParams['depth'], maxCredits: number | undefined, name?: BudgetName): void {
  const cost = DEPTH_COST[depth];
  const credits = pending * cost;
  if (maxCredits === undefined || credits <= maxCredits) return;
  throw new UsageError(
    `the plan needs up to ${credits} credits (${pending} image${pending === 1 ? '' : 's'} × ${cost} at depth ${depth}), above ${name?.what ?? `--max-credits ${maxCredits}`}; nothing was sent`,
    `${name?.raise ?? 'raise --max-credits'}, lower --depth, or give fewer inputs`,
  );
}

export function buildPlan(p: PlanInput): BatchPlan {
  const fromJournal = p.jobs.filter((j) => p.held?.get(j.id) === 'journal').length;
  const reused = (j: Job) => p.reuseSimilar === true && p.similar?.has(j.id) === true;
  const pending = p.jobs.filter((j) => !p.held?.has(j.id) && !reused(j));
  const damaged = pending.filter((j) => p.damaged?.has(j.id)).length;
  const cost = DEPTH_COST[p.params.depth];
  const credits = pending.length * cost;
  const threshold = p.confirmThreshold ?? DEFAULT_CONFIRM_THRESHOLD;
  checkMaxCredits(pending.length, p.params.depth, p.maxCredits, p.budgetName);
  const insufficient = p.available !== undefined && credits > p.available;
  return {
    inputs: p.inputs,
    skipped: p.skipped ?? [],
    unique: p.jobs.length,
    fromJournal,
    fromResults: p.jobs.filter((j) => p.held?.get(j.id) === 'results').length,
    inFlightElsewhere: pending.filter((j) => p.elsewhere?.has(j.id)).length,
    damaged,
    toSend: pending.length,
    depth: p.params.depth,
    costPerImage: cost,
    credits,
    ...(p.available !== undefined ? { available: p.available } : {}),
    insufficient,
    confirmThreshold: threshold,
    // An image whose only record was damaged may have been paid for: sending it again is asked for.
    needsConfirm: credits > threshold || insufficient || damaged > 0,
    conversions: pending.filter(needsSharp).length,
    similar: p.similar?.size ?? 0,
    similarWithin: LIKE_DISTANCE,
    reuseSimilar: p.reuseSimilar === true,
    ...(p.journal ? { journal: p.journal } : {}),
    ...(p.batch ? { batch: p.batch } : {}),
    request: requestParams(p.params),
  };
}

/**
 * The requests a run would send, key redacted and image elided (they are what --dry-run prints).
 * Local images are prepared as for sending (metadata removal included: it is local and free), so
 * the preview says what would leave the machine; conversions are described, not run. One at a
 * time, as the output asks for them: a dry run of 100,000 images never holds 100,000 previews.
 */
export async function* previewRequests(jobs: Job[], params: BatchParams, baseUrl: string, openKeys: ReadonlyMap<string, string>, opts: UploadOptions): AsyncGenerator<RequestPreview> {
  for (const j of jobs) {
    const s = j.source;
    const sent = s.kind === 'image' && fitsLimit(s.image.size) ? (await outgoingImage(s.image, Boolean(opts.keepMetadata), { hashNow: true })).sent : undefined;
    const image =
      s.kind === 'url' ? { image_url: s.url }
        : s.kind === 'image' ? { image_b64: `<${b64Length(sent?.size ?? s.image.size)} base64 characters elided>` }
          : s.kind === 'convert' ? { image_b64: `<${s.from.toUpperCase()} converted to JPEG when sent; elided>` }
            : { image_b64: `<downscaled to fit 20 MB when sent (from ${b64Length(s.bytes)} characters); elided>` };
    yield {
      inputs: j.inputs,
      sha256: j.sha256,
      method: 'POST' as const,
      url: baseUrl + routes.geolocate.path,
      headers: {
        authorization: `Bearer ${SECRET_MASK}`,
        'content-type': 'application/json',
        'idempotency-key': openKeys.get(j.id) ?? '<new key, claimed in the store before sending>',
      },
      body: { ...image, ...requestParams(params) },
      ...(sent ? { image: sent } : {}),
    };
  }
}

/** Request fields besides the image, in a stable order (the journal hash depends on it). */
export function requestParams(p: BatchParams): Record<string, unknown> {
  const out: Record<string, unknown> = { depth: p.depth };
  if (p.effort !== undefined) out.effort = p.effort;
  if (p.scope !== undefined) out.scope = p.scope;
  if (p.batch_id !== undefined) out.batch_id = p.batch_id;
  if (p.model !== undefined) out.model = p.model;
  // Only when set, so journals written before async existed keep their hash.
  if (p.async) out.async = true;
  return out;
}

/**
 * A batch's id: a hash over what makes two runs "the same command": the inputs as named (paths made
 * absolute), how they are sent (metadata removed or kept), the request fields, the service's base
 * URL and the account fingerprint. Not the images themselves: after adding a photo to a folder,
 * rerunning is the same batch and sends only the new one. (The same hash named the default journal
 * file before the store, so an older journal imports under its own id.)
 */
export function batchId(inputs: { args: string[]; fromFile?: string; metadata?: string }, params: BatchParams, baseUrl: string, account?: string): string {
  return createHash('sha256').update(JSON.stringify({ ...inputs, params: requestParams(params), baseUrl, ...(account !== undefined ? { account } : {}) })).digest('hex').slice(0, 24);
}
