/**
 * The case report's map (output/export/case-map.ts): inline SVG fitted to the conclusion and the
 * places ruled out, its circle round and to scale (the scale bar and the circle agree), the areas
 * hatched, a point ruled out crossed, what lies outside named, and nothing a page could run.
 */
import { describe, expect, it } from 'vitest';
import { caseMapSvg } from '../../src/output/export/case-map.js';
import { caseGeometryFixture } from '../export/fixtures.js';

const numbers = (d: string) => [...d.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));

describe('the case map', () => {
  const g = caseGeometryFixture(true);
  const map = caseMapSvg(g)!;

  it('draws the conclusion\'s circle round, and as wide as the scale bar says', () => {
    const d = /<path d="([^"]+)" fill="#d62424"/.exec(map.svg)![1]!;
    const xy = numbers(d);
    const xs = xy.filter((_, i) => i % 2 === 0);
    const ys = xy.filter((_, i) => i % 2 === 1);
    const width = Math.max(...xs) - Math.min(...xs);
    const height = Math.max(...ys) - Math.min(...ys);
    expect(width / height).toBeCloseTo(1, 1);
    const bar = /<path d="M0,-4V4H([\d.]+)V-4"[^>]*\/><text[^>]*>([\d.]+) (m|km)<\/text>/.exec(map.svg)!;
    const barKm = Number(bar[2]) / (bar[3] === 'm' ? 1000 : 1);
    // 0.8 km across, drawn at the bar's km per pixel (within the rounding of one decimal).
    expect(width / (Number(bar[1]) / barKm)).toBeCloseTo(0.8, 1);
  });

  it('hatches the areas ruled out (a hole stays open), crosses a point ruled out, and names what is outside', () => {
    expect(map.svg.match(/fill="url\(#ruled-out-hatch\)" fill-rule="evenodd"/g)).toHaveLength(2);
    expect(map.svg).toContain('class="map-label">ruled out, entry 5</text>');
    expect(map.svg).toMatch(/<path d="M[\d.-]+,[\d.-]+L[\d.-]+,[\d.-]+M[\d.-]+,[\d.-]+L[\d.-]+,[\d.-]+" stroke="#444" stroke-width="3"><title>ruled out \(entry 8\): seen from there<\/title>/);
    expect(map.off).toEqual(['the hypothesis of entry 4 at r1.cand2 (36.1125, -115.1728)']);
  });

  it('escapes what the analyst wrote (titles are text) and holds no script or link', () => {
    expect(map.svg).not.toMatch(/<script|href=|<img/);
    expect(map.svg).toContain('<title>ruled out (entry 6): wrong river bank</title>');
  });

  it('fits the notes\' points when nothing was concluded or ruled out, else the results; nothing at all draws no map', () => {
    const notesOnly = caseMapSvg({ ...g, conclusion: undefined, ruled_out: [] })!;
    expect(notesOnly.off).toEqual([]);
    const resultsOnly = caseMapSvg({ ...g, conclusion: undefined, ruled_out: [], notes: [] })!;
    expect(resultsOnly.svg).toMatch(/<circle cx="480" cy="\d+(\.\d)?" r="6" fill="#247ad6"/);
    expect(caseMapSvg({ ...g, conclusion: undefined, ruled_out: [], notes: [], results: [] })).toBeUndefined();
  });
});
