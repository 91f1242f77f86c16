/**
 * Response shapes of api-spec.md: presence rules per depth, the two confidence scales, open
 * objects that pass unknown fields through (parse, never strip), both error forms, rate-limit headers.
 */
import { describe, expect, it } from 'vitest';
import {
  AnalysesListSchema, ApiErrorBodySchema, CaseListSchema, CaseSchema, CreditsSchema, ERROR_CODES, ErrorBodySchema,
  GeolocateResponseSchema, ProblemBodySchema, RateLimitHeadersSchema, UsageSchema,
} from '../../src/api/schemas.js';

const location = { latitude: 48.85837, longitude: 2.294481, country: 'France', city: 'Paris', neighborhood: 'Gros-Caillou', address: 'Champ de Mars' };
const forensic = {
  precision_tier: 'site_level', verification_status: 'partially_verified', supports: ['iron lattice'], contradictions: [],
  candidates: [{ lat: 48.86, lng: 2.29, label: 'Trocadéro', confidence: 12.5, supports: [], contradictions: ['angle'] }],
};
/** A valid body for each depth, exactly as the spec's presence table requires. */
function body(depth: 1 | 2 | 3, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    success: true, analysis_id: 'an_1', location, confidence: 0.82, reasoning: 'tower', model: 'orca-1.5', depth, timing_ms: 9000,
    ...(depth >= 2 ? { thinking: 'step 1', visual_clues: [{ label: 'tower', detail: '' }] } : {}),
    ...(depth === 3 ? { forensic, calibration: { abstain_below: 0.3 } } : {}),
    ...extra,
  };
}
const ok = (b: unknown) => GeolocateResponseSchema.safeParse(b).success;
const without = (o: Record<string, unknown>, k: string) => Object.fromEntries(Object.entries(o).filter(([key]) => key !== k));

describe('geolocate response presence rules', () => {
  it.each([1, 2, 3] as const)('a complete depth %d body parses', (d) => expect(ok(body(d))).toBe(true));
  it('thinking and visual_clues appear from depth 2 only', () => {
    expect(ok(body(1, { thinking: 'x' }))).toBe(false);
    expect(ok(body(1, { visual_clues: [] }))).toBe(false);
    for (const d of [2, 3] as const) {
      expect(ok(without(body(d), 'thinking'))).toBe(false);
      expect(ok(without(body(d), 'visual_clues'))).toBe(false);
    }
  });
  it('forensic and calibration appear at depth 3 only', () => {
    for (const d of [1, 2] as const) {
      expect(ok(body(d, { forensic }))).toBe(false);
      expect(ok(body(d, { calibration: {} }))).toBe(false);
    }
    expect(ok(without(body(3), 'forensic'))).toBe(false);
    expect(ok(without(body(3), 'calibration'))).toBe(false);
    expect(ok(body(3, { forensic: without(forensic, 'candidates') }))).toBe(true);
  });
  it('every always-present field is required; analysis_id may be null', () => {
    for (const k of ['success', 'analysis_id', 'location', 'confidence', 'reasoning', 'model', 'depth', 'timing_ms']) expect(ok(without(body(1), k)), k).toBe(false);
    expect(ok(body(1, { analysis_id: null }))).toBe(true);
    expect(ok(body(1, { success: false }))).toBe(false);
    expect(ok(body(1, { timing_ms: 12.5 }))).toBe(false);
  });
  it('echoes (effort, batch_id, scope_consistent) are optional', () => {
    expect(ok(body(2, { effort: 'low', batch_id: 'b1', scope_consistent: false }))).toBe(true);
  });
});

describe('two confidence scales', () => {
  it('top-level confidence is 0-1', () => {
    for (const c of [0, 0.5, 1]) expect(ok(body(1, { confidence: c }))).toBe(true);
    for (const c of [-0.01, 1.01, 82]) expect(ok(body(1, { confidence: c }))).toBe(false);
  });
  it('candidate confidence is 0-100', () => {
    const withCandidate = (confidence: number) => body(3, { forensic: { ...forensic, candidates: [{ ...forensic.candidates[0], confidence }] } });
    for (const c of [0, 0.5, 12.5, 100]) expect(ok(withCandidate(c))).toBe(true);
    for (const c of [-1, 100.5]) expect(ok(withCandidate(c))).toBe(false);
  });
});

describe('visual clues with and without coordinates', () => {
  it('both parse, and the optional geometry is kept as received', () => {
    const clues = [{ label: 'sign', detail: '' }, { label: 'tower', detail: 'lattice', x: 0.4, y: 0.2, bbox: [1, 2, 3, 4], contour: [[0, 0], [1, 1]] }];
    const r = GeolocateResponseSchema.parse(body(2, { visual_clues: clues }));
    expect(r.visual_clues).toEqual(clues);
  });
  it('a clue needs label and detail', () => {
    expect(ok(body(2, { visual_clues: [{ label: 'x' }] }))).toBe(false);
  });
});

describe('unknown fields pass through (parse, do not strip)', () => {
  it('at every level of the geolocate response', () => {
    const input = body(3, {
      request_id: 'req_9',
      location: { ...location, maps: { google: 'https://maps.google.com/?q=1,2' } },
      forensic: { ...forensic, notes: 'n', candidates: [{ ...forensic.candidates[0], source: 'x' }] },
      calibration: { publish: 'abstain', thresholds: [0.3] },
    });
    expect(GeolocateResponseSchema.parse(input)).toEqual(input);
  });
  it('credits, usage, analyses, cases', () => {
    const credits = { success: true, data: { balance: 10, api_balance: 5, total_available: 15, total_purchased: null, total_used: null, currency: 'credits' }, meta: 1 };
    expect(CreditsSchema.parse(credits)).toEqual(credits);
    expect(CreditsSchema.safeParse({ success: true, data: { ...credits.data, balance: '10' } }).success).toBe(false);
    const usage = { success: true, data: { meter: { used: 3 }, overage_mode: 'block', anything: [1] } };
    expect(UsageSchema.parse(usage)).toEqual(usage);
    const analyses = { success: true, data: [{ id: 'a1', city: 'paris', whatever: { deep: true } }, {}] };
    expect(AnalysesListSchema.parse(analyses)).toEqual(analyses);
    expect(AnalysesListSchema.safeParse({ success: true, data: {} }).success).toBe(false);
    const kase = { id: 'c1', name: 'Case', description: '', createdAt: '2026-01-01T00:00:00Z', updatedAt: 'yesterday', teamId: 't1' };
    expect(CaseSchema.parse(kase)).toEqual(kase);
    expect(CaseSchema.safeParse(without(kase, 'updatedAt')).success).toBe(false);
    expect(CaseListSchema.parse({ success: true, data: [kase] }).data[0]).toEqual(kase);
  });
});

describe('error bodies: ApiError and the problem-only form', () => {
  const problem = { type: 'https://oceanir.ai/problems/effort', title: 'Effort exceeds depth', status: 422, detail: 'effort high is above depth 1' };
  const apiError = { success: false, error: 'Unprocessable', code: 'effort_exceeds_depth', message: 'effort too high', docs: 'https://oceanir.ai/docs/errors', ...problem, max_effort: 'low' };
  it('the full ApiError form parses and keeps extras (max_effort, unknown fields)', () => {
    const input = { ...apiError, hint: 'lower effort', details: { field: 'effort' }, instance: '/req/1', trace: 'x' };
    expect(ApiErrorBodySchema.parse(input)).toEqual(input);
    expect(ErrorBodySchema.parse(input)).toEqual(input);
  });
  it('the problem-only form parses with and without its optional code/docs/instance', () => {
    expect(ProblemBodySchema.parse(problem)).toEqual(problem);
    const full = { ...problem, code: 'rate_limited', docs: 'https://d', instance: '/i', retry_after: 12 };
    expect(ErrorBodySchema.parse(full)).toEqual(full);
    expect(ApiErrorBodySchema.safeParse(problem).success).toBe(false);
  });
  it('extras have their spec types: retry_after, max_depth, retryable', () => {
    expect(ErrorBodySchema.safeParse({ ...problem, status: 403, max_depth: 1 }).success).toBe(true);
    expect(ErrorBodySchema.safeParse({ ...problem, status: 504, retryable: true }).success).toBe(true);
    expect(ErrorBodySchema.safeParse({ ...problem, retryable: 'yes' }).success).toBe(false);
  });
  it('a body with neither form is rejected', () => {
    for (const k of ['type', 'title', 'status', 'detail']) expect(ErrorBodySchema.safeParse(without(problem, k)).success, k).toBe(false);
    expect(ErrorBodySchema.safeParse({ success: false, error: 'x' }).success).toBe(false);
  });
  it('ERROR_CODES lists every code the spec names', () => {
    const spec = ['not_found', 'method_not_allowed', 'unauthorized', 'forbidden', 'payment_required', 'rate_limited', 'invalid_request', 'invalid_image_b64', 'server_error',
      'prepaid_credits_exhausted', 'depth_not_permitted', 'idempotency_in_progress', 'invalid_effort', 'effort_exceeds_depth', 'content_blocked', 'invalid_scope',
      'webhook_required_for_async', 'analysis_failed', 'analysis_timeout'];
    expect([...ERROR_CODES].sort()).toEqual(spec.sort());
  });
});

describe('rate-limit headers (on every response; Retry-After on 429)', () => {
  const headers = {
    ratelimit: '"default";r=29;t=60', 'ratelimit-policy': '"default";q=30;w=60', 'ratelimit-limit': '30', 'ratelimit-remaining': '29', 'ratelimit-reset': '1767225660',
    'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '29', 'x-ratelimit-reset': '1767225660',
  };
  it('the full set parses, with or without Retry-After, keeping other headers', () => {
    const input = { ...headers, 'content-type': 'application/json', 'idempotent-replayed': 'true' };
    expect(RateLimitHeadersSchema.parse(input)).toEqual(input);
    expect(RateLimitHeadersSchema.safeParse({ ...headers, 'retry-after': '12' }).success).toBe(true);
  });
  it('each header is required and numeric ones must be digits', () => {
    for (const k of Object.keys(headers)) expect(RateLimitHeadersSchema.safeParse(without(headers, k)).success, k).toBe(false);
    expect(RateLimitHeadersSchema.safeParse({ ...headers, 'ratelimit-remaining': '-1' }).success).toBe(false);
    expect(RateLimitHeadersSchema.safeParse({ ...headers, 'x-ratelimit-reset': '0x10' }).success).toBe(false);
    expect(RateLimitHeadersSchema.safeParse({ ...headers, 'retry-after': 'soon' }).success).toBe(false);
  });
});
