/**
 * Paid geolocate answers that deviate from api-spec.md "Geolocation response", each with what geo
 * must make of it (DESIGN.md "Never lose what was paid"): usable coordinates are a result (exit 0)
 * with one warning per deviation naming the field; anything else is kept and exits 6.
 */
import { type Answer, bom, brotli, deflate, gzip, ok } from './fake-server.js';
import { D1, D2, D3, withField } from './helpers.js';

export interface GeoCase {
  name: string;
  answer: Answer;
  depth?: 1 | 2 | 3;
  flags?: string[];
  /** The body text geo should print with --json (default: the answer's bytes as text). */
  text?: string;
  exit: 0 | 6;
  /** Each must match one warning line (the field it names); [] means no warning at all. */
  warn: RegExp[];
  /** Checked on a second, piped table run: what the human view shows. */
  table?: RegExp;
}

const json = (b: unknown) => JSON.stringify(b);

export const GEO_CASES: GeoCase[] = [
  // ---- usable coordinates: a success, shown and stored, one warning per deviation
  { name: 'confidence 85 (0-100 scale at the top level)', answer: ok(withField(D1, 'confidence', 85)), exit: 0, warn: [/confidence: .*got 85/], table: /85\.00/ },
  { name: 'a visual clue without detail', depth: 2, answer: ok(withField(D2, 'visual_clues', [{ label: 'tower' }])), exit: 0, warn: [/visual_clues\.0\.detail: missing/], table: /- tower/ },
  { name: 'timing_ms missing', answer: ok(withField(D1, 'timing_ms', undefined)), exit: 0, warn: [/timing_ms: missing/], table: /model orca-1\.5/ },
  { name: 'city null', answer: ok(withField(D1, 'location.city', null)), exit: 0, warn: [/location\.city: .*got null/], table: /Gros-Caillou, France/ },
  { name: 'latitude as a numeric string', answer: ok(withField(D1, 'location.latitude', '48.8584')), exit: 0, warn: [/location\.latitude: .*got "48\.8584"/], table: /48\.858400, 2\.294500/ },
  { name: 'a UTF-8 byte order mark before the JSON', answer: bom(D1), text: json(D1), exit: 0, warn: [/body: starts with a UTF-8 byte order mark/] },
  { name: 'gzip with Content-Encoding (HTTP, not a deviation)', answer: gzip(D1), text: json(D1), exit: 0, warn: [] },
  { name: 'gzip without Content-Encoding', answer: gzip(D1, false), text: json(D1), exit: 0, warn: [/body: gzip-compressed without a Content-Encoding/] },
  { name: 'deflate with Content-Encoding', answer: deflate(D1), text: json(D1), exit: 0, warn: [] },
  { name: 'brotli with Content-Encoding', answer: brotli(D1), text: json(D1), exit: 0, warn: [] },
  { name: '201 carrying a full result', answer: ok(D1, 201), exit: 0, warn: [/status: 201 where the spec answers 200/] },
  { name: '202 carrying a full result (no --async)', answer: ok(D1, 202), exit: 0, warn: [/status: 202 carrying a full result/], table: /Gros-Caillou, Paris, France/ },
  { name: 'success:false on a full result', answer: ok(withField(D1, 'success', false)), exit: 0, warn: [/success: .*got false/] },
  { name: 'unknown extra fields (on contract: objects are open)', answer: ok({ ...D1, extra: { x: 1 }, tags: ['a'] }), exit: 0, warn: [] },
  { name: 'visual_clues missing at depth 2', depth: 2, answer: ok(withField(D2, 'visual_clues', undefined)), exit: 0, warn: [/visual_clues: /] },
  { name: 'forensic missing at depth 3', depth: 3, answer: ok(withField(D3, 'forensic', undefined)), exit: 0, warn: [/forensic: /], table: /Reasoning/ },
  { name: 'candidate confidence on the 0-1 scale (inside 0-100: on contract)', depth: 3, answer: ok(withField(D3, 'forensic.candidates.0.confidence', 0.8)), exit: 0, warn: [] },
  { name: 'candidate confidence 150', depth: 3, answer: ok(withField(D3, 'forensic.candidates.0.confidence', 150)), exit: 0, warn: [/forensic\.candidates\.0\.confidence: .*got 150/] },
  { name: 'forensic supports as a string', depth: 3, answer: ok(withField(D3, 'forensic.supports', 'lattice')), exit: 0, warn: [/forensic\.supports: /], table: /Supports \(0\)/ },
  { name: 'negative timing_ms', answer: ok(withField(D1, 'timing_ms', -5)), exit: 0, warn: [/timing_ms: .*got -5/] },
  { name: 'analysis_id a number', answer: ok(withField(D1, 'analysis_id', 42)), exit: 0, warn: [/analysis_id: .*got 42/], table: /analysis 42/ },
  { name: 'depth as a string', answer: ok(withField(D1, 'depth', '1')), exit: 0, warn: [/depth: .*got "1"/] },
  { name: 'address missing and neighborhood a number', answer: ok(withField(withField(D1, 'location.address', undefined), 'location.neighborhood', 7)), exit: 0, warn: [/location\.neighborhood: .*got 7/, /location\.address: missing/] },
  { name: 'reasoning and model missing', answer: ok(withField(withField(D1, 'reasoning', undefined), 'model', undefined)), exit: 0, warn: [/reasoning: missing/, /model: missing/], table: /Reasoning\n {2}missing/ },
  { name: 'confidence a string', answer: ok(withField(D1, 'confidence', 'high')), exit: 0, warn: [/confidence: .*got "high"/], table: /"high" \(not a number\)/ },

  // ---- no usable coordinates: kept raw (journal, provenance), --json prints it, exit 6
  { name: 'latitude 95 (not "accepted for asynchronous analysis")', answer: ok(withField(D1, 'location.latitude', 95)), exit: 6, warn: [/location\.latitude: .*got 95/], table: /has no usable coordinates/ },
  { name: 'location missing', answer: ok(withField(D1, 'location', undefined)), exit: 6, warn: [/location: missing/] },
  { name: 'coordinates that are words', answer: ok(withField(withField(D1, 'location.latitude', 'north'), 'location.longitude', 'east')), exit: 6, warn: [/location\.latitude/, /location\.longitude/] },
  { name: 'a 202 job without --async', answer: ok({ success: true, status: 'queued', job_id: 'job_1', analysis_id: null }, 202), exit: 6, warn: [] },
  { name: 'an empty object', answer: ok({}), exit: 6, warn: [/success: missing/, /location: missing/] },
  { name: 'a JSON array', answer: ok([D1]), exit: 6, warn: [/body: /] },

  // ---- --async: any JSON 202 body is the accepted job, passed through and shown field by field
  { name: '--async 202 in a shape the sandbox never sends', flags: ['--async'], answer: ok({ queued: true, ticket: { id: 't_1', eta_s: 30 } }, 202), exit: 0, warn: [], table: /ticket\.id\s+t_1/ },
  { name: '--async 202 whose body is a JSON string', flags: ['--async'], answer: ok('"accepted"', 202), exit: 0, warn: [], table: /Accepted for asynchronous analysis/ },
];
