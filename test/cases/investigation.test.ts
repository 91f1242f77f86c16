/**
 * The investigation as custody entries, scripted on the sandbox: three photos located into a case
 * at depth 3, five observations (one with an exhibit), two clue judgements, two places ruled out
 * (one a GeoJSON polygon), a conclusion and a second that supersedes it. The case verifies; the
 * text of each of those entries changed in geo.db with the sqlite3 CLI makes verify exit 1 naming
 * that entry; cases show gives the investigation, simulated in every section.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CustodyEntry } from '../../src/evidence/custody.js';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';
import { caseId, custodyOf, tmp } from './helpers.js';

const data = tmp('geo-inv-data-');
const work = tmp('geo-inv-work-');
const geo = (argv: string[], dir = data) => runCli(argv, { env: { GEO_DATA_DIR: dir, GEO_API_KEY: undefined, CI: undefined } });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The analyst's words of each investigation entry, by the entry's position in the log. */
const words = new Map<number, string>();
let id = '';
let entries: CustodyEntry[] = [];

/** Runs one investigation command: exit 0, its entry's position from --json, its words remembered. */
async function step(argv: string[], text: string): Promise<number> {
  const r = await geo([...argv, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const entry = (JSON.parse(r.stdout) as { entry: number }).entry;
  words.set(entry, text);
  return entry;
}

const OBSERVATIONS = ['Haussmann facades along the street', 'a Metro entrance at the corner', 'a kiosk in the green of the city\'s kiosks', 'shadows fall to the north-east', 'the river is not in view'];
const AREA = { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[2.2, 48.8], [2.3, 48.8], [2.3, 48.9], [2.2, 48.8]]] } };
const exhibit = join(FIXTURES, 'nogps.jpg');
let first = 0;
let second = 0;

beforeAll(async () => {
  expect((await geo(['cases', 'create', '--name', 'Harbour fire', '--local'])).code).toBe(0);
  const located = await geo(['--sandbox', 'locate', join(FIXTURES, 'paris.jpg'), join(FIXTURES, 'tokyo.jpg'), join(FIXTURES, 'sydney.jpg'), '--depth', '3', '--case', 'Harbour fire', '--yes']);
  expect(located.code, located.stderr).toBe(0);
  id = caseId(data, 'Harbour fire');
  await step(['cases', 'note', id, '--observation', OBSERVATIONS[0]!, '--result', 'r1'], OBSERVATIONS[0]!);
  await step(['cases', 'note', id, '--observation', OBSERVATIONS[1]!, '--clue', 'r1.clue1', '--clue', 'r2.cand1'], OBSERVATIONS[1]!);
  await step(['cases', 'note', id, '--observation', OBSERVATIONS[2]!, '--exhibit', exhibit, '--source', 'https://www.mapillary.com/app/?pKey=1'], OBSERVATIONS[2]!);
  await step(['cases', 'note', id, '--observation', OBSERVATIONS[3]!, '--result', 'r1', '--result', 'r3'], OBSERVATIONS[3]!);
  await step(['cases', 'note', id, '--observation', OBSERVATIONS[4]!], OBSERVATIONS[4]!);
  await step(['cases', 'clues', id, 'accept', 'r1.clue1', '--because', 'the same traffic side on Street View'], 'the same traffic side on Street View');
  await step(['cases', 'clues', id, 'reject', 'r2.cand1', '--because', 'the skyline has no such tower'], 'the skyline has no such tower');
  await step(['cases', 'rule-out', id, '--at', 'Lyon, FR', '--because', 'no Haussmann blocks of that height there'], 'no Haussmann blocks of that height there');
  writeFileSync(join(work, 'west.geojson'), JSON.stringify(AREA));
  await step(['cases', 'rule-out', id, '--area', join(work, 'west.geojson'), '--because', 'the west bank has no such bridge'], 'the west bank has no such bridge');
  first = await step(['cases', 'conclude', id, '--at', '48.8698,2.3078', '--within', '150', '--confidence', 'probable', '--because', 'facades and the Metro entrance match', '--result', 'r1'], 'facades and the Metro entrance match');
  second = await step(['cases', 'conclude', id, '--at', 'Paris, FR', '--within', '5000', '--confidence', 'possible', '--because', 'only the city is sure'], 'only the city is sure');
  entries = custodyOf(data, id);
}, 120_000);

describe('a scripted investigation on the sandbox', () => {
  it('appends each entry of its kind, in order, with its author and time', () => {
    const kinds = [...words.keys()].map((n) => entries[n - 1]!.event);
    expect(kinds).toEqual(['note_made', 'note_made', 'note_made', 'note_made', 'note_made', 'clue_judged', 'clue_judged', 'place_ruled_out', 'place_ruled_out', 'conclusion_made', 'conclusion_made']);
    for (const n of words.keys()) expect(entries[n - 1]).toMatchObject({ user: expect.any(String), host: expect.any(String), at: expect.stringMatching(/Z$/) });
  });

  it('the second conclusion names the first one\'s hash as the one it supersedes; the first supersedes nothing', () => {
    expect(entries[second - 1]!.data.conclusion).toMatchObject({ supersedes: entries[first - 1]!.hash, within_m: 5000, confidence: 'possible', place: expect.stringMatching(/^Paris, /) });
    expect(entries[first - 1]!.data.conclusion).not.toHaveProperty('supersedes');
    expect(entries[first - 1]!.data.conclusion).toMatchObject({ lat: 48.8698, lng: 2.3078, within_m: 150, results: [{ ref: 'r1', answer_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }] });
  });

  it('the exhibit is kept in the store byte for byte, named in the note with its source and media type', () => {
    const bytes = readFileSync(exhibit);
    const note = entries.find((e) => e.event === 'note_made' && (e.data.note as { exhibits?: unknown }).exhibits)!.data.note as { exhibits: unknown[] };
    expect(note.exhibits).toEqual([{ name: 'nogps.jpg', sha256: sha(bytes), size: bytes.length, media_type: 'image/jpeg', source: 'https://www.mapillary.com/app/?pKey=1' }]);
    const kept = dbRows<{ bytes: Uint8Array; media_type: string }>(data, 'SELECT bytes, media_type FROM kept_files WHERE sha256 = ?', sha(bytes));
    expect(kept).toHaveLength(1);
    expect(Buffer.from(kept[0]!.bytes).equals(bytes)).toBe(true);
    expect(kept[0]!.media_type).toBe('image/jpeg');
  });

  it('the polygon is kept as GeoJSON with the area file\'s name and sha256; the named place as a circle of its extent', () => {
    const [place, area] = entries.filter((e) => e.event === 'place_ruled_out').map((e) => e.data.ruled_out as Record<string, unknown>);
    expect(area).toMatchObject({ geometry: AREA.geometry, area: { name: 'west.geojson', sha256: sha(readFileSync(join(work, 'west.geojson'))) } });
    expect(place).toMatchObject({ geometry: { type: 'Point' }, within_km: expect.any(Number), place: expect.stringMatching(/^Lyon, /) });
  });

  it('geo cases verify --allow-sandbox exits 0', async () => {
    const r = await geo(['cases', 'verify', id, '--allow-sandbox']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('cases show gives the conclusion in force and the one it replaced, the notes, judgements and places ruled out; simulated in each section', async () => {
    const json = JSON.parse((await geo(['cases', 'show', id, '--json'])).stdout) as { investigation: Record<string, unknown[] | Record<string, unknown>> };
    const inv = json.investigation as { notes: unknown[]; judgements: unknown[]; ruled_out: unknown[]; conclusion: { entry: number }; superseded: Array<{ entry: number }> };
    expect([inv.notes.length, inv.judgements.length, inv.ruled_out.length]).toEqual([5, 2, 2]);
    expect(inv.conclusion.entry).toBe(second);
    expect(inv.superseded.map((c) => c.entry)).toEqual([first]);
    const human = (await geo(['cases', 'show', id])).stdout;
    for (const title of ['conclusion', 'notes (5)', 'clues judged (2)', 'ruled out (2)']) expect(human).toMatch(new RegExp(`^${title.replace(/[()]/g, '\\$&')} · 3 simulated answers \\(sandbox\\): not evidence$`, 'm'));
    expect(human).toContain(`replaced entry ${first}: 48.8698, 2.3078 within 150 m · probable`);
    for (const w of words.values()) expect(human).toContain(w);
  });

  it('geo cases clues lists every item with its judgement', async () => {
    const l = JSON.parse((await geo(['cases', 'clues', id, '--json'])).stdout) as { items: Array<{ id: string; judgement?: { verdict: string } }>; simulated: number };
    expect(l.simulated).toBe(3);
    expect(l.items.filter((i) => i.judgement).map((i) => [i.id, i.judgement!.verdict])).toEqual([['r1.clue1', 'accepted'], ['r2.cand1', 'rejected']]);
    expect(l.items.map((i) => i.id)).toEqual(expect.arrayContaining(['r1.clue1', 'r1.support1', 'r1.contra1', 'r1.cand1', 'r3.cand1']));
  });
});

describe('the text of each investigation entry, changed in geo.db with the sqlite3 CLI', () => {
  it.each([...Array(11).keys()])('investigation entry %i: verify exits 1 naming that entry', (i) => {
    const n = [...words.keys()][i]!;
    const text = words.get(n)!;
    const copy = tmp('geo-inv-forged-');
    cpSync(data, copy, { recursive: true });
    const db = join(copy, 'geo.db');
    execFileSync('sqlite3', [db, `UPDATE custody SET line = replace(line, '${text.replace(/'/g, "''")}', 'changed after the fact') WHERE case_id = '${id}' AND seq = ${n}`]);
    expect(execFileSync('sqlite3', [db, `SELECT instr(line, 'changed after the fact') > 0 FROM custody WHERE case_id = '${id}' AND seq = ${n}`]).toString().trim()).toBe('1');
    return geo(['cases', 'verify', id, '--allow-sandbox'], copy).then((r) => {
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`entry ${n} (${entries[n - 1]!.event}): its content does not match its hash: it was altered`);
    });
  });
});
