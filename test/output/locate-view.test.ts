/** The locate view from hand-made responses: layout by depth, distances, and hostile server strings. */
import { describe, expect, it } from 'vitest';
import type { GeolocateResponse } from '../../src/api/schemas.js';
import type { ViewOpts } from '../../src/output/render.js';
import { makeStyle } from '../../src/output/style.js';
import { locateView } from '../../src/output/views/locate.js';

const plain: ViewOpts = { style: makeStyle(false), tty: false, columns: 100 };
const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
const CSI = String.fromCharCode(0x9b);

const hostile = `${ESC}]8;;https://evil.example${BEL}click${ESC}]8;;${BEL} ${ESC}[2J${ESC}]52;c;ZXZpbA==${BEL} \u202Egpj.exe ${CSI}31m\r`;

function response(over: Partial<GeolocateResponse> = {}): GeolocateResponse {
  return {
    success: true,
    analysis_id: 'an_1',
    location: { latitude: 48.8584, longitude: 2.2945, country: 'France', city: 'Paris', neighborhood: '7e', address: 'Champ de Mars' },
    confidence: 0.42,
    reasoning: 'Iron lattice tower.\nSecond line.',
    model: 'orca-1.5',
    depth: 1,
    timing_ms: 1234,
    ...over,
  } as GeolocateResponse;
}

const depth3 = (over: Partial<GeolocateResponse> = {}) =>
  response({
    depth: 3,
    effort: 'medium',
    batch_id: 'b1',
    thinking: 'step 1',
    visual_clues: [{ label: 'tower', detail: '', x: 0.5, y: 0.25 }, { label: 'river', detail: 'wide' }],
    forensic: {
      precision_tier: 'site_level',
      verification_status: 'partially_verified',
      supports: ['lattice'],
      contradictions: [],
      candidates: [{ lat: 45.764, lng: 4.8357, label: 'Lyon', confidence: 12.4, supports: [], contradictions: [] }],
    },
    calibration: { abstain_below: 0.35, policy: { publish: true } },
    scope_consistent: false,
    ...over,
  });

describe('locateView', () => {
  it('depth 1: place, coordinates, confidence, address, maps, reasoning, footer', () => {
    const out = locateView(response(), { replayed: false, elapsedMs: 1500 }, plain);
    expect(out).toBe(
      [
        '7e, Paris, France',
        '  coordinates  48.858400, 2.294500',
        '  confidence   0.42 [####......] low',
        '  address      Champ de Mars',
        '  maps         https://www.google.com/maps/search/?api=1&query=48.858400,2.294500',
        '               https://www.openstreetmap.org/?mlat=48.858400&mlon=2.294500&zoom=17',
        '               https://maps.apple.com/?ll=48.858400,2.294500&q=48.858400,2.294500',
        '',
        'Reasoning',
        '  Iron lattice tower.',
        '  Second line.',
        '',
        'depth 1 (Surface) · model orca-1.5 · server 1.2 s · total 1.5 s',
        'analysis an_1',
      ].join('\n'),
    );
  });

  it('depth 3: clues with coordinates, forensic, candidates with distance, calibration, scope, echoes, replay', () => {
    const out = locateView(depth3(), { replayed: true, attempts: 2 }, plain);
    expect(out).toContain('  - tower (x=0.5, y=0.25)\n  - river: wide');
    expect(out).toContain('  precision tier       site_level\n  verification status  partially_verified');
    expect(out).toContain('Supports (1)\n  + lattice');
    expect(out).toContain('Contradictions (0)\n  (none)');
    // Paris -> Lyon is about 392 km.
    expect(out).toMatch(/Lyon +45\.764000, 4\.835700 +12% +39\d km +https:\/\/www\.openstreetmap\.org\/\?mlat=45\.764000/);
    expect(out).toContain('Calibration\n  abstain_below   0.35\n  policy.publish  true');
    expect(out).toContain('scope        overridden: the image contradicts the given scope');
    expect(out).toContain('depth 3 (Forensic) · effort medium · batch b1 · model orca-1.5 · server 1.2 s · 2 attempts');
    expect(out).toContain('replayed: the stored response for this Idempotency-Key, no credits charged');
  });

  it('history off: analysis_id null is said plainly', () => {
    expect(locateView(response({ analysis_id: null }), {}, plain)).toContain('analysis (not saved: history is off)');
  });

  it('escapes ESC, OSC 8/52, C1, CR and bidi overrides in every server string', () => {
    const evil = depth3({
      reasoning: hostile,
      thinking: hostile,
      model: hostile,
      effort: hostile,
      batch_id: hostile,
      analysis_id: hostile,
      location: { latitude: 1, longitude: 2, country: hostile, city: hostile, neighborhood: hostile, address: hostile },
      visual_clues: [{ label: hostile, detail: hostile, [hostile]: hostile }],
      forensic: {
        precision_tier: hostile,
        verification_status: hostile,
        supports: [hostile],
        contradictions: [hostile],
        candidates: [{ lat: 3, lng: 4, label: hostile, confidence: 50, supports: [], contradictions: [] }],
      },
      calibration: { [hostile]: hostile },
    });
    for (const view of [plain, { ...plain, tty: true }]) {
      const out = locateView(evil, { requestId: hostile }, view);
      expect(out).not.toContain(ESC);
      expect(out).not.toContain(BEL);
      expect(out).not.toContain(CSI);
      expect(out).not.toContain('\u202E');
      expect(out).not.toContain('\r');
      expect(out).toContain('\\x1b]8;;https://evil.example\\x07click');
      expect(out).toContain('\\u202egpj.exe');
    }
  });
});
