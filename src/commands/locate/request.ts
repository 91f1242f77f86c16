/**
 * Flags -> GeolocateRequest, strictly. Values commander hands over as strings are parsed here so a
 * bad value fails the way the server would fail it (same code, exit 2, nothing sent): "2.5" or
 * "0x10" for --depth is invalid_request, an unreadable --center is invalid_scope. The full rule
 * set then runs through checkGeolocateRequest, the one the client and the sandbox share.
 */
import { RequestValidationError } from '../../api/errors.js';
import { type Depth, type GeolocateRequest, IdempotencyKeySchema, LIMITS, checkGeolocateRequest } from '../../api/schemas.js';
import { UsageError } from '../../errors.js';
import { CoordinatesProblem, readCoordinates } from '../../places/coordinates.js';
import { centreOf } from './scope-name.js';

export interface LocateFlags {
  depth?: string;
  effort?: string;
  scope?: string;
  center?: string;
  radius?: string;
  capturedAt?: string;
  batchId?: string;
  async?: boolean;
  model?: string;
  idempotencyKey?: string;
  maxCredits?: string;
  minConfidence?: string;
}

export interface LocatePlan {
  /** The request without its image (image_url for URLs; image_b64 is streamed later). */
  request: GeolocateRequest;
  depth: Depth;
  idempotencyKey?: string;
  maxCredits?: number;
  minConfidence?: number;
  /** "--scope Paris: Paris, Île-de-France, FR (48.85341, 2.3488)" when the centre came from the index. */
  scopeNote?: string;
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;

function parseDepth(v: string, from: string): number {
  // The flag's own words for any value but 1-3 (`--depth 5` said "Too big: expected
  // number to be <=3", the validator's).
  if (!/^[123]$/.test(v.trim())) throw new RequestValidationError('invalid_request', `--depth must be 1, 2 or 3, got "${v}"${from}`, undefined, 'depth');
  return Number(v.trim());
}

function centerPoint(center: string): { lat: number; lng: number } {
  let point;
  try {
    point = readCoordinates(center);
  } catch (err) {
    if (!(err instanceof CoordinatesProblem)) throw err;
    throw new RequestValidationError('invalid_scope', `--center ${err.message}`, undefined, 'scope');
  }
  if (!point) throw new RequestValidationError('invalid_scope', `--center must be LAT,LNG in decimal degrees, got "${center}"`, undefined, 'scope');
  return point;
}

function scopeOf(f: LocateFlags, note: (line: string) => void): GeolocateRequest['scope'] | undefined {
  const parts = [f.center && '--center', f.radius && '--radius', f.capturedAt && '--captured-at'].filter(Boolean);
  if (f.scope === undefined) {
    if (parts.length) throw new RequestValidationError('invalid_scope', `${parts.join(', ')} belong${parts.length === 1 ? 's' : ''} to a scope: add --scope CITY`, undefined, 'scope');
    return undefined;
  }
  // Without --center the offline index gives the centre (and the note saying which place it chose).
  const center = f.center ?? centreOf(f.scope, note);
  const point = centerPoint(center);
  const scope: NonNullable<GeolocateRequest['scope']> = { name: f.scope, ...point };
  if (f.radius !== undefined) {
    if (!NUMBER.test(f.radius.trim())) throw new RequestValidationError('invalid_scope', `--radius must be a number of km (1-500), got "${f.radius}"`, undefined, 'scope');
    scope.radius_km = Number(f.radius.trim());
  }
  if (f.capturedAt !== undefined) scope.captured_at = f.capturedAt;
  return scope;
}

function parseMaxCredits(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--max-credits must be a whole number of credits, got "${v}"`, 'depth costs: 1, 2 or 10 credits');
  return Number(v);
}

function parseMinConfidence(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(v) ? Number(v) : Number.NaN;
  if (!(n >= 0 && n <= 1)) throw new UsageError(`--min-confidence must be a number from 0 to 1, got "${v}"`, 'for example --min-confidence 0.6');
  return n;
}

/**
 * Builds and checks the request. `input` is the image_url for URLs, undefined for files and stdin
 * (their image_b64 is streamed by the client). `defaultDepth` is `geo config set depth`.
 */
export function planLocate(f: LocateFlags, imageUrl: string | undefined, defaultDepth?: string): LocatePlan {
  const depth = f.depth !== undefined ? parseDepth(f.depth, '') : defaultDepth !== undefined ? parseDepth(defaultDepth, ' (from `geo config set depth`)') : undefined;
  let scopeNote: string | undefined;
  const scope = scopeOf(f, (line) => (scopeNote = line));
  const request: GeolocateRequest = {
    ...(imageUrl !== undefined ? { image_url: imageUrl } : {}),
    ...(f.model !== undefined ? { model: f.model as GeolocateRequest['model'] } : {}),
    ...(depth !== undefined ? { depth } : {}),
    ...(f.effort !== undefined ? { effort: f.effort as GeolocateRequest['effort'] } : {}),
    ...(f.batchId !== undefined ? { batch_id: f.batchId } : {}),
    ...(scope ? { scope } : {}),
    ...(f.async ? { async: true } : {}),
  };
  // A stand-in image so the other rules are checked in the server's order before anything is read.
  const checked = checkGeolocateRequest(imageUrl !== undefined ? request : { ...request, image_b64: 'AAAA' });
  if (!checked.ok) {
    const p = checked.problem;
    throw new RequestValidationError(p.code, p.message, p.max_effort, p.field);
  }
  if (f.idempotencyKey !== undefined && !IdempotencyKeySchema.safeParse(f.idempotencyKey).success) {
    throw new RequestValidationError('invalid_request', `--idempotency-key must be 1 to ${LIMITS.idempotencyKeyMaxChars} characters`, undefined, 'idempotency_key');
  }
  const minConfidence = parseMinConfidence(f.minConfidence);
  if (minConfidence !== undefined && f.async) throw new UsageError('--min-confidence needs the result, which --async does not wait for', 'drop one of --async and --min-confidence');
  const maxCredits = parseMaxCredits(f.maxCredits);
  return {
    request,
    depth: (depth ?? 1) as Depth,
    ...(f.idempotencyKey !== undefined ? { idempotencyKey: f.idempotencyKey } : {}),
    ...(maxCredits !== undefined ? { maxCredits } : {}),
    ...(minConfidence !== undefined ? { minConfidence } : {}),
    ...(scopeNote !== undefined ? { scopeNote } : {}),
  };
}
