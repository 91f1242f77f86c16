/**
 * Issue 11, "Tolerant reader for what was paid": each deviating geolocate answer of
 * geolocate-cases.ts through the real `geo locate`, against an independent fake API. Each case
 * checks what is shown (stdout, one warning per deviation naming the field), the exit code, what
 * is kept (the raw body in the store, with its claim), that a rerun sends nothing,
 * and the credits counted (the claim's charge for one input, the summary of a two-image batch).
 */
import { describe, expect, it } from 'vitest';
import { DEPTH_COST } from '../../src/api/schemas.js';
import { type FakeApi, withFakeApi } from './fake-server.js';
import { GEO_CASES } from './geolocate-cases.js';
import { PARIS, TOKYO, doneLines, errorLine, freshDirs, geo, records, warnings } from './helpers.js';

let api: FakeApi;
withFakeApi((a) => (api = a));

describe(`${GEO_CASES.length} deviating geolocate answers`, () => {
  it.each(GEO_CASES)('$name', async (c) => {
    api.answers.geolocate = c.answer;
    const depth = c.depth ?? 1;
    const cost = DEPTH_COST[depth];
    const argv = ['locate', PARIS, '--json', '--depth', String(depth), ...(c.flags ?? [])];
    const text = c.text ?? (typeof c.answer.body === 'string' ? c.answer.body : c.answer.body.toString('utf8'));
    const dirs = freshDirs();

    // Shown: the body as received on stdout, one warning per deviation, the exit code.
    const r1 = await geo(api, argv, dirs);
    expect(r1.code, r1.stderr).toBe(c.exit);
    expect(r1.stdout).toBe(text + '\n');
    const warned = warnings(r1.stderr);
    if (c.warn.length === 0) expect(warned).toEqual([]);
    for (const w of c.warn) expect(warned.some((l) => w.test(l)), `${w} in\n${r1.stderr}`).toBe(true);
    expect(r1.stderr).not.toMatch(/Accepted for asynchronous/);
    if (c.exit === 6) expect(errorLine(r1.stderr)).toMatch(/no usable coordinates.* — hint: the raw body is kept in the store \(geo history\); a rerun shows it from there and sends nothing/);
    else expect(errorLine(r1.stderr)).toBeUndefined();
    expect(api.count('geolocate')).toBe(1); // a body that parsed is never re-requested

    // Kept: the raw body in the store, with what was charged (its claim) and its provenance record.
    const done = doneLines(dirs);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ ok: c.exit === 0, raw: text, status: c.answer.status, credits: cost });
    if (c.exit === 6) expect(done[0]!.error).toMatchObject({ code: 'unusable_answer', final: true });
    if (c.warn.length) expect(done[0]!.deviations?.length).toBeGreaterThanOrEqual(c.warn.length);
    const recs = records(dirs);
    expect(recs).toHaveLength(1);
    expect(recs[0]!.response.raw).toBe(text);
    if (c.warn.length) expect(recs[0]!.response.deviations?.length).toBeGreaterThanOrEqual(c.warn.length);
    const usable = c.exit === 0 && !c.flags?.includes('--async');
    expect(recs[0]!.unusable === undefined).toBe(usable);

    // A rerun shows it from the store: nothing sent, the same output and exit code.
    const r2 = await geo(api, argv, dirs);
    expect(api.count('geolocate')).toBe(1);
    expect(r2.code).toBe(c.exit);
    expect(r2.stdout).toBe(r1.stdout);
    expect(r2.stderr).toMatch(/from the store, not charged/);
    expect(records(dirs)).toHaveLength(1);

    // Counted: a batch of two images answered the same way reports what the server charged.
    api.reset();
    api.answers.geolocate = c.answer;
    const batch = await geo(api, ['locate', PARIS, TOKYO, '--format', 'ndjson', '--depth', String(depth), ...(c.flags ?? [])]);
    expect(api.count('geolocate')).toBe(2);
    expect(batch.code).toBe(c.exit === 0 ? 0 : 7);
    const oks = c.exit === 0 ? 2 : 0;
    expect(batch.stderr).toContain(`2 inputs: ${oks} ok, ${2 - oks} failed · ${2 * cost} credits spent`);

    // The human view (piped table) of the same answer.
    if (c.table) {
      const t = await geo(api, ['locate', PARIS, '--depth', String(depth), ...(c.flags ?? [])]);
      expect(t.code).toBe(c.exit);
      expect(t.stdout).toMatch(c.table);
    }
  });
});
