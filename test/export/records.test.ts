import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORD_SCHEMA, parseNdjsonResults, readNdjsonResults } from '../../src/evidence/records.js';
import { PARIS_SHA, forensicBody, parisRecord, sydneyRecord } from './fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'geo-store-'));

describe('provenance records', () => {
  it('keeps request, response (parsed and raw), headers of note, key, timings, version and base URL, never the image or an API key', async () => {
    const rec = parisRecord();
    expect(rec).toMatchObject({
      schema: RECORD_SCHEMA,
      stored_at: '2025-05-14T16:32:07.123Z',
      cli: { version: '0.1.0-test', base_url: 'http://127.0.0.1:4010' },
      input: { path: 'fixtures/images/paris.jpg', sha256: PARIS_SHA, size: 995 },
      request: { depth: 3, image_b64_chars: 4, scope: { name: 'Paris' } },
      response: { status: 200, body: { analysis_id: 'an_paris_1' } },
      headers: { idempotent_replayed: false, request_id: 'req_1', rate_limit: { 'ratelimit-remaining': '29', 'x-ratelimit-limit': '30' } },
      idempotency_key: `6f1c0c1e-idem-${PARIS_SHA.slice(0, 8)}`,
      timing: { elapsed_ms: 8200, attempts: 1, server_timing_ms: 8123 },
      exif: { verdict: 'agrees' },
    });
    expect(rec.request).not.toHaveProperty('image_b64');
    expect(rec.headers!.rate_limit).not.toHaveProperty('content-type');
    expect(JSON.parse(rec.response.raw!)).toEqual(rec.response.body);
  });

  it('rebuilds records from batch NDJSON, stored records and bare bodies; skips failed and broken lines', async () => {
    const exif = { verdict: 'agrees', exifPoint: { lat: 48.85837, lng: 2.294481 }, distanceKm: 0.004, toleranceKm: 0.5, toleranceBasis: 'site_level' };
    const lines = [
      JSON.stringify({ input: 'a.jpg', sha256: PARIS_SHA, ok: true, result: forensicBody(), exif }),
      JSON.stringify({ input: 'b.jpg', sha256: 'ff'.repeat(32), ok: false, error: { code: 'content_blocked' }, exif: null }),
      'not json',
      JSON.stringify(sydneyRecord()),
      JSON.stringify(forensicBody({ analysis_id: 'bare' })),
      '',
    ].join('\n');
    const problems: string[] = [];
    const recs = parseNdjsonResults(lines, 'run.ndjson', { now: 0, onProblem: (w, why) => problems.push(`${w} ${why}`) });
    expect(recs.map((r) => r.origin)).toEqual(['ndjson', 'store', 'response']);
    expect(recs[0]).toMatchObject({ input: { path: 'a.jpg', sha256: PARIS_SHA }, exif: { verdict: 'agrees' } });
    expect(problems).toEqual(['run.ndjson:2 input "b.jpg" failed, so it has no result to export', 'run.ndjson:3 not valid JSON']);
    // A pretty-printed stored record file reads as one value.
    const file = join(tmp(), 'one.json');
    writeFileSync(file, JSON.stringify(parisRecord(), null, 2));
    expect(await readNdjsonResults(file)).toEqual([parisRecord()]);
  });
});
