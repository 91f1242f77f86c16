/**
 * Hand-made geolocate answers and the provenance records built from them, shared by the export
 * and report tests. One of them is hostile: every server string tries markup, XML, CSV formulas
 * and terminal escapes.
 */
import { buildRecord, type ProvenanceRecord } from '../../src/evidence/records.js';
import { corroborate } from '../../src/evidence/corroborate.js';
import type { CaseGeometry } from '../../src/output/export/case-geometry.js';
import { circleRing } from '../../src/output/export/geometry.js';

export const HOSTILE = `<script>alert(1)</script>"'&]]><!-- =cmd|'/C calc'!A0 \u001b[31mred\u202e`;

export const PARIS_SHA = '868735296a0bd351a2afca9abc7ee9683183a56d097dc3fc87607e1bb724618a';
export const HOSTILE_SHA = 'ab'.repeat(32);

export function forensicBody(over: Record<string, unknown> = {}) {
  return {
    success: true,
    analysis_id: 'an_paris_1',
    location: { latitude: 48.8584, longitude: 2.2945, country: 'France', city: 'Paris', neighborhood: 'Gros-Caillou', address: 'Champ de Mars, 5 Av. Anatole France' },
    confidence: 0.87,
    reasoning: 'Wrought-iron lattice tower; Haussmann facades; French street signage.',
    thinking: 'Tower silhouette first, then signage.',
    visual_clues: [{ label: 'lattice tower', detail: '' }],
    model: 'orca-1.5',
    depth: 3,
    timing_ms: 8123,
    scope_consistent: true,
    forensic: {
      precision_tier: 'site_level',
      verification_status: 'partially_verified',
      supports: ['iron lattice tower', 'blue street plates'],
      contradictions: [] as string[],
      candidates: [
        { lat: 48.8584, lng: 2.2945, label: 'Eiffel Tower, Paris', confidence: 87, supports: ['tower'], contradictions: [] },
        { lat: 36.1125, lng: -115.1728, label: 'Paris Las Vegas replica', confidence: 9, supports: ['tower shape'], contradictions: ['signage in French'] },
        { lat: 35.6586, lng: 139.7454, label: 'Tokyo Tower', confidence: 4, supports: [], contradictions: ['colour'] },
      ],
    },
    calibration: {},
    ...over,
  };
}

export function surfaceBody() {
  return {
    success: true,
    analysis_id: null,
    location: { latitude: -33.8568, longitude: 151.2153, country: 'Australia', city: 'Sydney', neighborhood: '', address: '' },
    confidence: 0.41,
    reasoning: 'Harbour, sail-shaped roof.',
    model: 'orca-1.5',
    depth: 1,
    timing_ms: 900,
  };
}

export function hostileBody() {
  const b = forensicBody({ analysis_id: HOSTILE, reasoning: HOSTILE, thinking: HOSTILE });
  b.location = { ...b.location, country: HOSTILE, city: `=HYPERLINK("http://evil")`, neighborhood: '+1', address: '@SUM(A1)' };
  b.forensic.supports = [HOSTILE];
  b.forensic.contradictions = [HOSTILE];
  b.forensic.candidates = [{ lat: 10, lng: 20, label: HOSTILE, confidence: 50, supports: [HOSTILE], contradictions: [HOSTILE] }];
  return b;
}

function record(path: string, sha256: string, body: Record<string, unknown>, request: Record<string, unknown>, exifGps?: { lat: number; lng: number }): ProvenanceRecord {
  const b = body as { location: { latitude: number; longitude: number }; depth: number; forensic?: { precision_tier?: string } };
  const exif = corroborate({ lat: b.location.latitude, lng: b.location.longitude, precisionTier: b.forensic?.precision_tier, depth: b.depth }, exifGps ? { gps: exifGps, make: 'Apple', errors: [] } : undefined);
  return buildRecord({
    input: { path, sha256, size: 995, mime: 'image/jpeg' },
    request: { image_b64: 'QUJD', depth: b.depth, ...request },
    response: {
      data: body,
      raw: JSON.stringify(body),
      status: 200,
      headers: { 'x-request-id': 'req_1', 'ratelimit-remaining': '29', 'x-ratelimit-limit': '30', 'content-type': 'application/json' },
      replayed: false,
      requestId: 'req_1',
      idempotencyKey: `6f1c0c1e-idem-${sha256.slice(0, 8)}`,
      attempts: 1,
      elapsedMs: 8200,
    },
    baseUrl: 'http://127.0.0.1:4010',
    cliVersion: '0.1.0-test',
    exif,
    now: Date.UTC(2025, 4, 14, 16, 32, 7, 123),
  });
}

export function parisRecord(): ProvenanceRecord {
  return record('fixtures/images/paris.jpg', PARIS_SHA, forensicBody(), { scope: { name: 'Paris', lat: 48.8566, lng: 2.3522, radius_km: 15 } }, { lat: 48.85837, lng: 2.294481 });
}

export function sydneyRecord(): ProvenanceRecord {
  return record('photos/sydney.jpg', 'cd'.repeat(32), surfaceBody(), {});
}

export function hostileRecord(): ProvenanceRecord {
  return record(`evil${HOSTILE}.jpg`, HOSTILE_SHA, hostileBody(), { scope: { name: HOSTILE, lat: 10, lng: 20 } }, { lat: 11, lng: 21 });
}

/**
 * A case's investigation as the exports draw it (output/export/case-geometry.ts), by hand: a
 * conclusion circle, a place ruled out as a circle, one as two polygons (one with a hole), one as a
 * bare point, and two notes' points, one of them hostile.
 */
export function caseGeometryFixture(simulated = false): CaseGeometry {
  const by = { at: '2026-01-02T03:04:05.000Z', by: 'ana@desk' };
  const square = (x: number, y: number, d: number): Array<[number, number]> => [[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]];
  return {
    simulated,
    conclusion: { ...by, entry: 9, lat: 48.8584, lng: 2.2945, within_m: 400, confidence: 'probable', because: 'tower and quay line up', superseded: [7], ring: circleRing(48.8584, 2.2945, 0.4) },
    ruled_out: [
      { ...by, entry: 5, because: 'no quay', place: 'Saint-Denis', within_km: 3, polygons: [[circleRing(48.936, 2.357, 3)]] },
      { ...by, entry: 6, because: 'wrong river bank', area: 'banks.geojson', polygons: [[square(2.2, 48.7, 0.1), square(2.22, 48.72, 0.02).reverse()], [square(2.4, 48.7, 0.05)]] },
      { ...by, entry: 8, because: 'seen from there', place: 'Montmartre', polygons: [], point: [2.3431, 48.8867] },
    ],
    notes: [
      { ...by, entry: 3, kind: 'observation', text: 'Red cranes on the quay.', target: 'r1', lat: 48.8584, lng: 2.2945 },
      { ...by, entry: 4, kind: 'hypothesis', text: HOSTILE, target: 'r1.cand2', lat: 36.1125, lng: -115.1728 },
    ],
    results: [{ ref: 'r1', lat: 48.8584, lng: 2.2945, place: 'Paris', input: 'paris.jpg' }],
  };
}
