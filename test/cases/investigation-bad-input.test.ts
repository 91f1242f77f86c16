/**
 * Bad input to the investigation's commands: one line on stderr with a hint, exit 2, and nothing
 * appended to the case's log or kept in the store, however far the command got in reading its
 * inputs (every one is checked before anything is written).
 */
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';
import { caseId, custodyLines, tmp } from './helpers.js';

const data = tmp('geo-inv-bad-');
const work = tmp('geo-inv-bad-work-');
const geo = (argv: string[]) => runCli(argv, { env: { GEO_DATA_DIR: data, GEO_API_KEY: undefined, CI: undefined } });
const file = (name: string, text: string) => {
  writeFileSync(join(work, name), text);
  return join(work, name);
};
let id = '';
/** A sparse file of 21 MB: refused by its size before a byte of it is read. */
const huge = () => {
  const path = file('huge.jpg', '');
  truncateSync(path, 21 * 1024 * 1024);
  return path;
};

beforeAll(async () => {
  expect((await geo(['cases', 'create', '--name', 'Bad input', '--local'])).code).toBe(0);
  const r = await geo(['--sandbox', 'locate', join(FIXTURES, 'paris.jpg'), '--depth', '3', '--case', 'Bad input']);
  expect(r.code, r.stderr).toBe(0);
  id = caseId(data, 'Bad input');
}, 60_000);

const CONCLUDE = ['--at', '48.87,2.31', '--within', '150', '--confidence', 'probable', '--because', 'the facades match'];
const conclude = (change: Record<string, string | null>) => {
  const args = [...CONCLUDE];
  for (const [flag, v] of Object.entries(change)) {
    const at = args.indexOf(flag);
    if (v === null) args.splice(at, 2);
    else if (at >= 0) args[at + 1] = v;
    else args.push(flag, v);
  }
  return ['cases', 'conclude', 'Bad input', ...args];
};
const SQUARE = '[[[2.2,48.8],[2.3,48.8],[2.3,48.9],[2.2,48.8]]]';

describe('bad input to note, rule-out, conclude and clues: one line, exit 2, nothing appended or kept', () => {
  it.each<[string, () => string[], RegExp]>([
    ['a conclusion without --because', () => conclude({ '--because': null }), /--because needs words: it is missing/],
    ['a conclusion with an empty --because', () => conclude({ '--because': '  ' }), /--because needs words: it is empty/],
    ['a conclusion with --within 0', () => conclude({ '--within': '0' }), /--within must be a number of metres above 0/],
    ['a conclusion with --within -5', () => conclude({ '--within': '-5' }), /--within must be a number of metres above 0/],
    ['a conclusion with --within ten', () => conclude({ '--within': 'ten' }), /--within must be a number of metres above 0/],
    ['a conclusion without --within', () => conclude({ '--within': null }), /needs --within METRES/],
    ['a conclusion with --confidence sure', () => conclude({ '--confidence': 'sure' }), /--confidence must be confirmed, probable or possible, got "sure"/],
    ['a conclusion with --confidence 0.9', () => conclude({ '--confidence': '0.9' }), /--confidence must be confirmed, probable or possible/],
    ['a conclusion on an unknown result', () => conclude({ '--result': 'r9' }), /--result "r9" names no result of case/],
    ['a conclusion at a place the index cannot settle', () => conclude({ '--at': 'Nowhereville Xyzzy' }), /--at "Nowhereville Xyzzy": no such place/],
    ['a note of no words', () => ['cases', 'note', 'Bad input', '--observation', ''], /--observation needs words/],
    ['a note with neither kind', () => ['cases', 'note', 'Bad input', '--result', 'r1'], /a note needs --observation TEXT or --hypothesis TEXT/],
    ['a note of both kinds', () => ['cases', 'note', 'Bad input', '--observation', 'a', '--hypothesis', 'b'], /not both/],
    ['a note on an unknown result', () => ['cases', 'note', 'Bad input', '--observation', 'facades', '--result', 'an_nosuch'], /--result "an_nosuch" names no result/],
    ['a note on an unknown clue', () => ['cases', 'note', 'Bad input', '--observation', 'facades', '--clue', 'r1.clue99'], /--clue "r1.clue99" names no clue/],
    ['an exhibit without --source', () => ['cases', 'note', 'Bad input', '--observation', 'kiosk', '--exhibit', join(FIXTURES, 'nogps.jpg')], /has no --source/],
    ['an exhibit with an empty --source', () => ['cases', 'note', 'Bad input', '--observation', 'kiosk', '--exhibit', join(FIXTURES, 'nogps.jpg'), '--source', ' '], /--source for .* is empty/],
    ['an exhibit that is not an image', () => ['cases', 'note', 'Bad input', '--observation', 'kiosk', '--exhibit', join(FIXTURES, 'not-image.jpg'), '--source', 'a scan'], /--exhibit .*not-image\.jpg is not an image/],
    ['an exhibit over 15 MB', () => ['cases', 'note', 'Bad input', '--observation', 'kiosk', '--exhibit', huge(), '--source', 'a scan'], /huge\.jpg is 22,020,096 bytes, over the 15,000,000 bytes geo keeps for an exhibit/],
    ['a good exhibit, then an unknown clue', () => ['cases', 'note', 'Bad input', '--observation', 'kiosk', '--exhibit', join(FIXTURES, 'nogps.jpg'), '--source', 'x', '--clue', 'r2.clue1'], /--clue "r2.clue1" names no clue/],
    ['a GeoJSON Point as an area', () => ['cases', 'rule-out', 'Bad input', '--area', file('point.geojson', '{"type":"Point","coordinates":[2.3,48.8]}'), '--because', 'x'], /a GeoJSON "Point", not a Polygon or MultiPolygon/],
    ['a GeoJSON LineString Feature as an area', () => ['cases', 'rule-out', 'Bad input', '--area', file('line.geojson', '{"type":"Feature","geometry":{"type":"LineString","coordinates":[[2.2,48.8],[2.3,48.9]]}}'), '--because', 'x'], /"LineString", not a Polygon/],
    ['a FeatureCollection of two polygons', () => ['cases', 'rule-out', 'Bad input', '--area', file('two.geojson', `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":${SQUARE}}},{"type":"Feature","geometry":{"type":"Polygon","coordinates":${SQUARE}}}]}`), '--because', 'x'], /a FeatureCollection of 2 features/],
    ['a polygon whose ring does not close', () => ['cases', 'rule-out', 'Bad input', '--area', file('open.geojson', '{"type":"Polygon","coordinates":[[[2.2,48.8],[2.3,48.8],[2.3,48.9],[2.25,48.85]]]}'), '--because', 'x'], /ring 1 does not close/],
    ['an area file that is not JSON', () => ['cases', 'rule-out', 'Bad input', '--area', file('notes.geojson', 'west of the river'), '--because', 'x'], /not JSON/],
    ['a rule-out with --within 0', () => ['cases', 'rule-out', 'Bad input', '--at', '48.85,2.35', '--within', '0', '--because', 'x'], /--within must be a number of km above 0/],
    ['a rule-out without a place', () => ['cases', 'rule-out', 'Bad input', '--because', 'x'], /rule out a place: --at/],
    ['a rule-out without --because', () => ['cases', 'rule-out', 'Bad input', '--at', '48.85,2.35'], /--because needs words: it is missing/],
    ['a judgement of an unknown clue', () => ['cases', 'clues', 'Bad input', 'accept', 'r1.clue99', '--because', 'x'], /"r1.clue99" names no clue/],
    ['a judgement without --because', () => ['cases', 'clues', 'Bad input', 'reject', 'r1.clue1'], /--because needs words/],
    ['a judgement neither accept nor reject', () => ['cases', 'clues', 'Bad input', 'maybe', 'r1.clue1', '--because', 'x'], /takes accept or reject after the case, not "maybe"/],
    ['a case nobody made', () => ['cases', 'note', 'Nobody', '--observation', 'x'], /no local case "Nobody"/],
  ])('%s', async (_name, argv, message) => {
    const before = custodyLines(data, id).length;
    const r = await geo(argv());
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).toMatch(/ — hint: \S/);
    expect(custodyLines(data, id)).toHaveLength(before);
    expect(dbRows(data, 'SELECT sha256 FROM kept_files')).toEqual([]);
  });
});
