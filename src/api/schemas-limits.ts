/**
 * The constants ../shared/api-spec.md fixes ("Limits", "Versioning"): the model, depths and
 * efforts with their costs, and the size limits of a request.
 */

export const MODEL = 'orca-1.5';
export const DEPTHS = [1, 2, 3] as const;
export type Depth = (typeof DEPTHS)[number];
export const EFFORTS = ['instant', 'low', 'medium', 'high'] as const;
export type Effort = (typeof EFFORTS)[number];

/** Rule 2 of the request: effort may only lower reasoning inside a depth. */
export const NORMAL_EFFORT: Record<Depth, Effort> = { 1: 'low', 2: 'medium', 3: 'high' };
export const DEPTH_COST: Record<Depth, number> = { 1: 1, 2: 2, 3: 10 };
/** "Latency guidance": the statements differ, so the CLI quotes the widest honest range. */
export const DEPTH_LATENCY: Record<Depth, string> = { 1: '10-24 s', 2: '6-48 s', 3: '70-150 s' };
export const DEPTH_NAME: Record<Depth, string> = { 1: 'Surface', 2: 'Standard', 3: 'Forensic' };

export const LIMITS = {
  /** "image_b64 max 20 MB": read as 20,000,000 base64 characters, so raw images up to 15,000,000 bytes. */
  imageB64MaxChars: 20_000_000,
  /** The whole body may add this much JSON around the image. */
  bodyMaxBytes: 20_000_000 + 64 * 1024,
  idempotencyKeyMaxChars: 256,
  listLimit: { min: 1, max: 200, default: 50 },
  radiusKm: { min: 1, max: 500, default: 60 },
  recommendedTimeoutS: 180,
} as const;
export const MAX_IMAGE_BYTES = (LIMITS.imageB64MaxChars / 4) * 3;
