/**
 * A worked case for the report and export tests: three photos located on the sandbox at depth 3
 * into one case, then its investigation appended through the store's own custody log (the way
 * geo's commands append): observations and hypotheses (one with an exhibit kept in the store,
 * one hostile), clue judgements, two places ruled out (a circle and a GeoJSON polygon), a
 * conclusion and the one that supersedes it, an annotated working copy kept in the store, and two
 * reviews, the first made stale by a later note.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import { caseLog } from '../../src/batch/case-custody.js';
import { readCaseEvidence } from '../../src/batch/case-results.js';
import { resultRef } from '../../src/evidence/clue-ids.js';
import type { CustodyEvent } from '../../src/evidence/custody.js';
import { asStoreApi } from '../../src/store/index.js';
import { findCase } from '../../src/store/find.js';
import { caseId, caseRunner } from '../cases/helpers.js';
import { FIXTURES, type TestSandbox } from '../helpers/sandbox.js';
import { openStore } from '../helpers/store.js';

/** A note an attacker would write: markup, a script, a Markdown link and image, a table cell, a heading. */
export const HOSTILE_NOTE = '</p><script>alert(1)</script><img src=x onerror=alert(2)>\n# [click](javascript:alert(3)) ![x](http://evil/x.png) | cell | `code` **bold** \u001b[31mred';
export const POLYGON: Array<[number, number]> = [[2.30, 48.80], [2.40, 48.80], [2.40, 48.86], [2.30, 48.86], [2.30, 48.80]];

type Sharp = (input: Uint8Array) => { composite(l: Array<{ input: Buffer }>): { png(): { toBuffer(): Promise<Buffer> } } };

export interface WorkedCase {
  run: ReturnType<typeof caseRunner>['run'];
  data: string;
  id: string;
  /** The working copy's and the exhibit's sha256 as kept. */
  copy: string;
  exhibit: string;
}

export async function workedCase(sb: TestSandbox, name = 'Harbour fire'): Promise<WorkedCase> {
  const { run, data } = caseRunner(sb);
  expect((await run(['cases', 'create', '--name', name, '--description', 'Where was the harbour photo taken? <b>not bold</b>', '--local'])).code).toBe(0);
  const located = await run(['locate', ...['paris.jpg', 'tokyo.jpg', 'sydney.jpg'].map((f) => FIXTURES + f), '--depth', '3', '--yes', '--case', name]);
  expect(located.code, located.stderr).toBe(0);
  const id = caseId(data, name);
  const store = openStore(data);
  try {
    const api = asStoreApi(store, Date.now);
    const ev = await readCaseEvidence(api, await findCase(api, id));
    const refs = ev.vouch.results.map((r, i) => resultRef(r, i + 1));
    const [r1, r2, r3] = [refs[0]!, refs[1]!, refs[2]!];
    const first = ev.vouch.results[0]!;
    const original = readFileSync(first.input.path!);
    const sharp = createRequire(import.meta.url)('sharp') as Sharp;
    const box = Buffer.from('<svg width="32" height="24"><rect x="2" y="2" width="12" height="8" fill="none" stroke="red" stroke-width="2"/></svg>');
    const copy = await api.kept.put(await sharp(original).composite([{ input: box }]).png().toBuffer(), 'image/png');
    const exhibit = await api.kept.put(readFileSync(FIXTURES + 'tokyo.jpg'), 'image/jpeg');
    const review = (verdict: 'approve' | 'request_changes', seq: number) => ({ event: 'review_made', data: { review: { verdict, because: `reviewed at ${seq}`, seq, head: 'a'.repeat(64), sshsig: 'not checked by the report', fingerprint: 'SHA256:reviewer', public_key: 'ssh-ed25519 AAAA reviewer', principal: 'rev@example.org' } } });
    const events = [
      { event: 'note_made', data: { note: { kind: 'observation', text: 'Cranes on the left quay, painted red.', results: [r1], clues: ['r1.clue1'], exhibits: [{ name: 'reference.jpg', sha256: exhibit.sha256, size: exhibit.size, media_type: 'image/jpeg', source: 'https://example.org/harbour' }] } } },
      { event: 'note_made', data: { note: { kind: 'hypothesis', text: 'The second candidate may be the place.', clues: ['r1.cand1'] } } },
      { event: 'clue_judged', data: { judgement: { clue: 'r1.clue1', result: r1, label: 'first clue', verdict: 'accepted', because: 'matches the reference photo' } } },
      { event: 'clue_judged', data: { judgement: { clue: 'r2.support1', result: r2, label: 'a support', verdict: 'rejected', because: 'the signage is not legible' } } },
      { event: 'place_ruled_out', data: { ruled_out: { because: 'no harbour there', geometry: { type: 'Point', coordinates: [2.357, 48.936] }, within_km: 3, place: 'Saint-Denis' } } },
      { event: 'place_ruled_out', data: { ruled_out: { because: 'the quay is further west', geometry: { type: 'Polygon', coordinates: [POLYGON] }, area: { name: 'south.geojson', sha256: 'c'.repeat(64) } } } },
      { event: 'conclusion_made', data: { conclusion: { lat: 48.85, lng: 2.29, within_m: 2000, confidence: 'possible', because: 'first look', results: [r1] } } },
      review('request_changes', 10),
      { event: 'working_copy_made', data: { copy: { of: { sha256: first.input.sha256, input_path: first.input.path! }, sha256: copy.sha256, size: copy.size, media_type: 'image/png', method: 'clue boxes drawn with sharp', boxes: [{ clue: 'r1.clue1', x: 0.05, y: 0.1, width: 0.4, height: 0.3 }] } } },
      { event: 'note_made', data: { note: { kind: 'observation', text: HOSTILE_NOTE, results: [r3] } } },
    ] as CustodyEvent[];
    const log = caseLog(api, '0.0.0-test', Date.now);
    for (const e of events) await log.append(id, e);
    const last = await log.append(id, { event: 'conclusion_made', data: { conclusion: { lat: 48.8584, lng: 2.2945, place: 'Champ de Mars', within_m: 500, confidence: 'probable', because: 'the cranes and the tower line up', results: [r1, r2], supersedes: (await log.lines(id)).map((l) => JSON.parse(l) as { event: string; hash: string }).filter((e) => e.event === 'conclusion_made').at(-1)!.hash } } });
    await log.append(id, review('approve', last.seq) as CustodyEvent);
    return { run, data, id, copy: copy.sha256, exhibit: exhibit.sha256 };
  } finally {
    store.close();
  }
}
