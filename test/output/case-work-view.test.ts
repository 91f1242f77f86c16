/**
 * What `geo cases work` draws of a result, from hand-made values: the service's clue labels,
 * candidates and place, the analyst's reasons and a file's C2PA signer, hostile each, reach the
 * terminal escaped (no ESC, BEL, C1 or bidirectional control left), their words still there.
 */
import { describe, expect, it } from 'vitest';
import type { ViewOpts } from '../../src/output/render.js';
import { makeStyle } from '../../src/output/style.js';
import { type WorkResult, workResultView } from '../../src/output/views/case-work.js';
import type { C2paRecord } from '../../src/image/embedded.js';

const plain: ViewOpts = { style: makeStyle(false), tty: true, columns: 100 };
const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
const CSI = String.fromCharCode(0x9b);
const hostile = (word: string) => `${ESC}]8;;https://evil.example${BEL}${word}${ESC}]8;;${BEL} ${ESC}[2J${ESC}]52;c;ZXZpbA==${BEL} \u202E${CSI}31m`;
const result = { ref: 'r1', answer_sha256: 'a'.repeat(64), analysis_id: 'an_1' };

const work: WorkResult = {
  n: 1, of: 1,
  shown: { id: 1, ref: '868735296a0b', input: hostile('photo.jpg'), place: hostile('Fitzroy'), latitude: -37.802, longitude: 144.98, confidence: 0.47, depth: 3, analysis_id: hostile('an_1'), sandbox: true, linked_at: '2026-01-01T00:00:00Z', map_links: [] },
  exif: { verdict: 'none', toleranceKm: 25, toleranceBasis: 'city_level' },
  c2pa: { c2pa: { present: true, container: 'jumbf', signer: { subject: 'CN=x', issuer: 'CN=y', name: hostile('Signer') }, validation: { state: 'valid', signer_trusted: false, failures: [] } } as unknown as C2paRecord, logged: true },
  items: [
    { id: 'r1.clue1', kind: 'clue', label: hostile('tram'), detail: hostile('wires'), box: { x: 0.1, y: 0.1, width: 0.2, height: 0.2 }, result, judgement: { verdict: 'accepted', because: hostile('same stop'), entry: 6 } },
    { id: 'r1.cand1', kind: 'cand', label: hostile('Hanoi'), candidate: { lat: 21.03, lng: 105.85, confidence: 14 }, result },
  ],
};

describe('the result view of geo cases work', () => {
  it('escapes every string of the service, the analyst and the file; the words stay', () => {
    const out = workResultView(work, plain);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    for (const word of ['photo.jpg', 'Fitzroy', 'an_1', 'Signer', 'tram', 'wires', 'same stop', 'Hanoi']) expect(out).toContain(word);
    expect(out).toContain('r1.clue1 visual clue:');
    expect(out).toMatch(/accepted \(entry 6\)/);
    expect(out).toMatch(/C2PA\s+Content credentials: signed by/);
  });
});
