/**
 * Each tool's arguments as a zod schema, built from the contract's own rules (api/schemas.ts:
 * depths, efforts, the scope's ranges, list limits), so the JSON Schema an agent sees and the
 * check its arguments meet are the ones the CLI and the service apply. A bad argument is refused
 * with the service's error code (invalid_request, invalid_effort, invalid_scope) before anything
 * is read or sent, exactly as a bad flag is.
 */
import * as z from 'zod/mini';
import { toJSONSchema } from 'zod/v4/core';
import { RequestValidationError } from '../api/errors.js';
import { EFFORTS, LIMITS } from '../api/schemas.js';
import { EXPORT_FORMATS } from '../output/export/index.js';

const text = (description: string) => z.string().check(z.describe(description));
const nonEmpty = (description: string) => z.string().check(z.trim(), z.minLength(1), z.describe(description));
const listLimit = () => z.optional(z.int().check(z.gte(LIMITS.listLimit.min), z.lte(LIMITS.listLimit.max), z.describe(`at most this many, ${LIMITS.listLimit.min}-${LIMITS.listLimit.max} (default ${LIMITS.listLimit.default})`)));

export const LOCATE = () =>
  z.strictObject({
    inputs: z.array(text('a JPEG/PNG file (WebP, AVIF, TIFF, GIF are converted), a folder of images, an https URL, sample:paris|tokyo|sydney|newyork|nogps|all (photos shipped with geo), or one video (mp4, mov, webm, mkv, avi: its frames are located and agreed into one consensus; needs ffmpeg)')).check(z.minLength(1)),
    depth: z.optional(z.int().check(z.gte(1), z.lte(3), z.describe('1 Surface (region, 1 credit), 2 Standard (block, 2 credits), 3 Forensic (street, 10 credits); default 1'))),
    effort: z.optional(z.enum(EFFORTS).check(z.describe("at most the depth's normal level: 1 low, 2 medium, 3 high"))),
    scope: z.optional(
      z.strictObject({
        name: nonEmpty('the city to search within, e.g. "Paris" or "Paris, FR"; never raises confidence'),
        lat: z.optional(z.number().check(z.gte(-90), z.lte(90), z.describe('centre latitude; without lat and lng the centre comes from the offline GeoNames index'))),
        lng: z.optional(z.number().check(z.gte(-180), z.lte(180), z.describe('centre longitude'))),
        radius_km: z.optional(z.number().check(z.gte(LIMITS.radiusKm.min), z.lte(LIMITS.radiusKm.max), z.describe(`scope radius, default ${LIMITS.radiusKm.default} km`))),
        captured_at: z.optional(text('when the photo was taken, beginning YYYY-MM-DD')),
      }),
    ),
    batch_id: z.optional(nonEmpty('a console batch bound to this key')),
    downscale: z.optional(z.boolean().check(z.describe('fit images above the 20 MB limit under it as JPEG instead of refusing them'))),
    service_fetch: z.optional(z.boolean().check(z.describe('send https URLs for the service to fetch (image_url) instead of geo fetching them: then no sha256 of what was located, no EXIF check, no metadata removed'))),
    keep_original: z.optional(z.boolean().check(z.describe('keep each photo as read (a file, or one geo fetched from a URL) in the store, so a case bundle --with-originals carries it'))),
    reuse_similar: z.optional(z.boolean().check(z.describe("an image that looks like a photo this account located before (a re-encoded or resized copy) takes that answer instead of paying; its result says reused_similar: it is not the service's answer for these bytes"))),
    together: z.optional(z.boolean().check(z.describe('the images are photos of one scene: one consensus with its spread, as for a video'))),
    every: z.optional(z.number().check(z.gt(0), z.lte(3600), z.describe('video: at least one frame every this many seconds (default 10)'))),
    max_frames: z.optional(z.int().check(z.gte(1), z.lte(100), z.describe('video: frames sent at most, spread over the clip (default 12); each costs the depth\'s credits'))),
    agree_km: z.optional(z.number().check(z.gt(0), z.lte(20_000), z.describe('answers this close (great-circle) agree (default 25)'))),
    case: z.optional(nonEmpty('a local case (its id or name, from geo cases create): each result is linked to it and logged in its custody log; an unknown case is refused before anything is sent')),
  });

export const CHECK_CLAIM = () =>
  z.strictObject({
    images: z.optional(z.array(text('a JPEG/PNG file or a folder of images said to have been taken at `at`, or sample:paris|tokyo|sydney|newyork|nogps (photos shipped with geo)')).check(z.minLength(1))),
    at: z.optional(nonEmpty('where the images are said to have been taken: a place ("Kharkiv, UA", "Paris, Texas") or "LAT,LNG"; with claims_file, for rows without their own')),
    claims_file: z.optional(nonEmpty('a claims file instead: CSV with a header naming image,at (within, captured_at optional), or NDJSON of those fields; image paths relative to the file')),
    within: z.optional(z.number().check(z.gt(0), z.lte(20_040), z.describe('the claim\'s tolerance in km (default: a place\'s extent from the offline index, a point 1 km)'))),
    captured_at: z.optional(text('when they are said to have been taken, beginning YYYY-MM-DD (sent in the scope with scoped)')),
    depth: z.optional(z.int().check(z.gte(1), z.lte(3), z.describe('1 (1 credit an image), 2 (2) or 3 (10, lists the candidates a contradiction must rule out); default 1'))),
    scoped: z.optional(z.boolean().check(z.describe('also send each image with the claim as its scope (one more request each): scope_consistent false names the hard evidence against the claim'))),
    case: z.optional(nonEmpty('a local case: each answer is linked to it and each check logged as a claim_checked custody entry')),
  });

export const INSPECT = () => z.strictObject({ files: z.array(text('an image file, or sample:NAME')).check(z.minLength(1)) });
export const NONE = () => z.strictObject({});
export const ANALYSES = () => z.strictObject({ search: z.optional(text('search neighborhood, city or filename')), city: z.optional(nonEmpty('only this city (a slug, e.g. paris)')), limit: listLimit() });
export const CASES_LIST = () => z.strictObject({ team: z.optional(nonEmpty('only the cases of this team')), limit: listLimit() });
export const CASES_CREATE = () => z.strictObject({ name: nonEmpty('case name'), description: z.optional(text('what the case is about')), team: z.optional(nonEmpty('team that owns the case')) });
export const CASE_NOTE = () =>
  z.strictObject({
    case: nonEmpty('a local case: its id (geo\'s or the service\'s) or its name'),
    kind: z.enum(['observation', 'hypothesis']).check(z.describe('observation (what is seen) or hypothesis (what is supposed); an agent never concludes, rules out, judges a clue or reviews')),
    text: nonEmpty('the note, in words'),
    results: z.optional(z.array(nonEmpty('a result it points at: r2 (the case\'s order), an analysis id or a sha256 prefix'))),
    clues: z.optional(z.array(nonEmpty('a clue it points at, by the id case_summary gives it: r2.clue3, r1.cand1'))),
  });
export const CASE_SUMMARY = () => z.strictObject({ case: nonEmpty('a local case: its id (geo\'s or the service\'s) or its name') });
export const HISTORY = () =>
  z.strictObject({
    ref: z.optional(nonEmpty('one stored result in full: an image file, a sha256 prefix (6+ hex digits) or an analysis id; without it, the list')),
    search: z.optional(text('only results whose input path, place or analysis id contains this')),
    limit: z.optional(z.int().check(z.gte(1), z.describe('at most this many (default 50)'))),
  });
export const EXPORT = (canWrite: boolean) =>
  z.strictObject({
    results: z.optional(z.array(text('a sha256 (or 6+ hex digits), an analysis id, an image file (its stored results), or a .ndjson/.json results file'))),
    all: z.optional(z.boolean().check(z.describe('every stored result (latest per image unless history)'))),
    history: z.optional(z.boolean().check(z.describe('every stored run of each selected image, not only the latest'))),
    include_sandbox: z.optional(z.boolean().check(z.describe('with all: include answers of a geo sandbox (simulated, never evidence; marked sandbox)'))),
    format: z.enum(EXPORT_FORMATS).check(z.describe('geojson, kml, kmz (a zip: needs out), csv, json, ndjson or html (a self-contained report)')),
    ...(canWrite ? { out: z.optional(nonEmpty('write the file here (inside the allowed folders) instead of returning its text')) } : {}),
  });

/** The JSON Schema an MCP client is shown (tools/list); `$schema` left out, as clients expect a bare object schema. */
export function jsonSchema(schema: z.ZodMiniType): { type: 'object'; [k: string]: unknown } {
  const { $schema: _dialect, ...rest } = toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

/** The service's code for a bad field (api-spec.md "Error cases"); the rest is invalid_request. */
function codeOf(field: string): 'invalid_request' | 'invalid_effort' | 'invalid_scope' {
  return field === 'effort' ? 'invalid_effort' : field === 'scope' ? 'invalid_scope' : 'invalid_request';
}

/** Checks a call's arguments; the first problem is thrown as the service would name it. */
export function parseArgs<T>(schema: z.ZodMiniType<T>, args: unknown): T {
  const r = schema.safeParse(args ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue?.path.map(String) ?? [];
  const field = path[0] ?? 'arguments';
  throw new RequestValidationError(codeOf(field), `${path.length ? path.join('.') : 'arguments'}: ${issue?.message ?? 'invalid'}`, undefined, field);
}
