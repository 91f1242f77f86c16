/**
 * The rule table of src/claims/rules.ts, rule by rule, on evidence built by hand (the command
 * tests drive the same rules end to end); the thresholds it names; the hard evidence named from an
 * overriding answer; a place's default tolerance; claims files read row by row.
 */
import { describe, expect, it } from 'vitest';
import { settleAt } from '../../src/claims/at.js';
import { parseClaimsText } from '../../src/claims/file.js';
import { hardEvidenceOf } from '../../src/claims/hard-evidence.js';
import { AGREE_MIN_CONFIDENCE, CONTRADICT_MIN_CONFIDENCE, farMarginKm, judge, resolutionKm } from '../../src/claims/rules.js';
import type { ClaimEvidence } from '../../src/claims/types.js';
import { placeExtent } from '../../src/places/extent.js';

/** Evidence for a 20 km claim at depth 1 (R 100 km, M 200 km), the estimate D km away. */
function ev(D: number, confidence: number, more: Partial<ClaimEvidence> = {}): ClaimEvidence {
  return {
    toleranceKm: 20, depth: 1, estimate: { lat: 0, lng: 0, confidence, distanceKm: D, place: 'X' }, precisionTier: null, resolutionKm: 100,
    candidates: [], exif: null, exifStatus: 'none', scoped: null, serviceAdvice: null, ...more,
  };
}

describe('the rules', () => {
  it('thresholds: agree at 0.5, contradict at 0.6, M = max(50, 2R) with R from the tier, else the depth', () => {
    expect([AGREE_MIN_CONFIDENCE, CONTRADICT_MIN_CONFIDENCE]).toEqual([0.5, 0.6]);
    expect([resolutionKm(null, 1), resolutionKm(null, 2), resolutionKm('city_level', 3), resolutionKm('region_level', 3), resolutionKm('made_up', 3)]).toEqual([100, 25, 25, 200, 25]);
    expect([farMarginKm(100), farMarginKm(25), farMarginKm(0.5), farMarginKm(200)]).toEqual([200, 50, 50, 400]);
  });

  it('each rule fires where its row says, first match wins', () => {
    const rule = (e: ClaimEvidence) => `${judge(e).verdict}/${judge(e).rule}`;
    expect(rule({ ...ev(0, 0), estimate: null, error: { code: 'content_blocked', message: 'blocked' } })).toBe('unverifiable/not_located');
    expect(rule(ev(20, 0.5))).toBe('agrees/estimate_near');
    expect(rule(ev(20, 0.49))).toBe('unverifiable/estimate_near_unsure');
    expect(rule(ev(21, 0.99))).toBe('unverifiable/estimate_between');
    expect(rule(ev(220, 0.99))).toBe('unverifiable/estimate_between');
    expect(rule(ev(221, 0.6))).toBe('contradicts/estimate_far');
    expect(rule(ev(221, 0.59))).toBe('unverifiable/estimate_far_unsure');
    expect(rule(ev(900, 0.9, { candidates: [{ label: 'c', lat: 0, lng: 0, confidencePct: 3, distanceKm: 220 }] }))).toBe('unverifiable/candidate_near');
    expect(rule(ev(900, 0.9, { candidates: [{ label: 'c', lat: 0, lng: 0, confidencePct: 90, distanceKm: 221 }] }))).toBe('contradicts/estimate_far');
    expect(rule(ev(900, 0.9, { exif: { lat: 0, lng: 0, distanceKm: 25 }, exifStatus: 'gps' }))).toBe('unverifiable/exif_near');
    expect(rule(ev(900, 0.9, { exif: { lat: 0, lng: 0, distanceKm: 26 }, exifStatus: 'gps' }))).toBe('contradicts/estimate_far');
    expect(rule(ev(5, 0.9, { exif: { lat: 0, lng: 0, distanceKm: 26 }, exifStatus: 'gps' }))).toBe('unverifiable/witnesses_disagree');
    expect(rule(ev(5, 0.9, { exif: { lat: 0, lng: 0, distanceKm: 3 }, exifStatus: 'gps' }))).toBe('agrees/estimate_near');
    expect(rule(ev(900, 0.9, { serviceAdvice: 'abstain' }))).toBe('unverifiable/service_abstains');
    const overridden = { scoped: { scopeConsistent: false, hardEvidence: 'cars drive on the left' } };
    expect(rule(ev(900, 0.3, overridden))).toBe('contradicts/scope_overridden');
    expect(rule(ev(900, 0.29, overridden))).toBe('unverifiable/estimate_far_unsure');
    expect(rule(ev(150, 0.9, overridden))).toBe('unverifiable/estimate_between');
    expect(rule(ev(5, 0.9, overridden))).toBe('unverifiable/witnesses_disagree');
    expect(rule(ev(900, 0.9, { ...overridden, exif: { lat: 0, lng: 0, distanceKm: 1 }, exifStatus: 'gps' }))).toBe('unverifiable/exif_near');
    // A scope the service kept is no evidence: the unscoped answer decides.
    expect(rule(ev(900, 0.5, { scoped: { scopeConsistent: true, hardEvidence: null } }))).toBe('unverifiable/estimate_far_unsure');
  });

  it('EXIF GPS alone never makes agrees nor contradicts: with no usable estimate, or an unsure one, the claim stays unverifiable', () => {
    const atClaim = { exif: { lat: 0, lng: 0, distanceKm: 0.1 }, exifStatus: 'gps' as const };
    for (const e of [ev(5, 0.1, atClaim), ev(900, 0.1, atClaim), { ...ev(0, 0, atClaim), estimate: null }]) expect(judge(e).verdict).toBe('unverifiable');
    const far = { exif: { lat: 0, lng: 0, distanceKm: 3000 }, exifStatus: 'gps' as const };
    for (const e of [ev(5, 0.1, far), ev(100, 0.9, far), { ...ev(0, 0, far), estimate: null }]) expect(judge(e).verdict).toBe('unverifiable');
    expect(judge(ev(900, 0.1, far)).reason).toMatch(/the file's own EXIF GPS is 3,000 km from the claim \(a witness that can be forged\)$/);
  });
});

describe('what the claim checks read', () => {
  it('the hard evidence an overriding answer names: the sentence with a cue of rule 3, else the first contradiction, else the first sentence', () => {
    expect(hardEvidenceOf({ reasoning: 'An old square. Signs are in Cyrillic script. Trams run.' })).toBe('Signs are in Cyrillic script.');
    expect(hardEvidenceOf({ reasoning: 'A square.', forensic: { contradictions: ['minarets nearby', 'cars drive on the left side'] } })).toBe('cars drive on the left side');
    expect(hardEvidenceOf({ reasoning: 'A square. Pigeons.', forensic: { contradictions: ['minarets nearby'] } })).toBe('minarets nearby');
    expect(hardEvidenceOf({ reasoning: 'A square. Pigeons.' })).toBe('A square.');
    expect(hardEvidenceOf({})).toBeNull();
  });

  it('a place\'s default tolerance is its extent by the places around it; coordinates are a point of 1 km', () => {
    expect(placeExtent(48.85341, 2.3488)).toMatchObject({ km: 30, basis: expect.stringMatching(/^a metropolis: \d+ places/) });
    expect(settleAt('Kharkiv, UA')).toMatchObject({ at: { lat: 49.98177, lng: 36.25475, place: 'Kharkiv, UA' }, toleranceKm: 20 });
    expect(settleAt('Paris, Texas').toleranceKm).toBe(10);
    expect(settleAt(' 49.99 , 36.23 ')).toMatchObject({ at: { lat: 49.99, lng: 36.23, place: null }, toleranceKm: 1 });
    expect(() => settleAt('91,0')).toThrow(/coordinates out of range/);
    expect(() => settleAt('Qwxzvbn')).toThrow(/no such place in the offline index/);
  });

  it('claims files: CSV columns by their header in any order, quoted fields, NDJSON; a row that cannot be read is named, the others kept', () => {
    expect(parseClaimsText('at,within,image\n"Kharkiv, UA",5,a.jpg\n\n# note\n"Lviv", ,b.jpg\n"broken,c.jpg\n', 'c.csv')).toEqual([
      { row: 1, line: 2, image: 'a.jpg', at: 'Kharkiv, UA', within: '5' },
      { row: 2, line: 5, image: 'b.jpg', at: 'Lviv' },
      { row: 3, line: 6, problem: expect.stringMatching(/an unclosed or misplaced double quote/) },
    ]);
    expect(parseClaimsText('{"image":"a.jpg","at":"Kyiv","within":3}\nnot json\n{"image":"b.jpg"}\n', 'c.ndjson')).toEqual([
      { row: 1, line: 1, image: 'a.jpg', at: 'Kyiv', within: '3' },
      { row: 2, line: 2, problem: expect.stringMatching(/^not JSON/) },
      { row: 3, line: 3, image: 'b.jpg' },
    ]);
    expect(() => parseClaimsText('file_name,place\na,b\n', 'c.csv')).toThrow(/c\.csv line 1: no image column/);
  });
});
