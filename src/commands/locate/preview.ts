/**
 * `--dry-run`: the exact request geo would send, minus the secret and the image bytes, with its
 * cost. Built from the same plan and body code as the real call, so the preview cannot drift.
 */
import { jsonBody, streamedImageBody, type ImageB64Source } from '../../api/body.js';
import { normalizeBaseUrl } from '../../api/client.js';
import { routes } from '../../api/routes.js';
import { DEPTH_COST, DEPTH_LATENCY, type Depth } from '../../api/schemas.js';
import type { Ctx } from '../../context.js';
import type { LocatePlan } from './request.js';

export interface RequestPreview {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  cost: { depth: Depth; credits: number; usually: string; max_credits?: number };
  sent: false;
}

export function buildPreview(ctx: Pick<Ctx, 'resolved' | 'version'>, plan: LocatePlan, image: ImageB64Source | undefined): RequestPreview {
  const resolved = ctx.resolved();
  const body = image ? streamedImageBody(plan.request, image) : jsonBody(plan.request);
  return {
    method: 'POST',
    url: normalizeBaseUrl(resolved.baseUrl.value) + routes.geolocate.path,
    headers: {
      authorization: resolved.key ? 'Bearer [REDACTED]' : '(no API key configured)',
      'content-type': 'application/json',
      'content-length': String(body.length),
      'idempotency-key': plan.idempotencyKey ?? '(a new random UUID for each run)',
      'user-agent': `geo-cli/${ctx.version}`,
    },
    // image_b64 goes first on the wire (the client streams it ahead of the other fields).
    body: image ? { image_b64: `<${image.length} base64 chars>`, ...plan.request } : { ...plan.request },
    cost: {
      depth: plan.depth,
      credits: DEPTH_COST[plan.depth],
      usually: DEPTH_LATENCY[plan.depth],
      ...(plan.maxCredits !== undefined ? { max_credits: plan.maxCredits } : {}),
    },
    sent: false,
  };
}
