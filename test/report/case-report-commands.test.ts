/**
 * geo cases report over an investigation written with geo's own commands (geo cases note,
 * clues accept|reject, rule-out, conclude): what each command logged is what the report and the
 * case's map files show: the notes with what they point at and the exhibit kept by its sha256,
 * the judgements with the clue's own text, the place ruled out with its radius and the area file
 * by name, the conclusion with its confidence word, on the map and in GeoJSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/evidence/custody.js';
import { caseRunner, tmp } from '../cases/helpers.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const c = caseRunner(sb);
const dir = tmp('geo-report-cmds-');
let md: string;
let html: string;

beforeAll(async () => {
  const ok = async (argv: string[]) => {
    const r = await c.run(argv);
    expect(r.code, `geo ${argv.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  await ok(['cases', 'create', '--name', 'Quay', '--local']);
  await ok(['locate', FIXTURES + 'paris.jpg', FIXTURES + 'tokyo.jpg', '--depth', '3', '--yes', '--case', 'Quay']);
  const area = join(dir, 'west.geojson');
  writeFileSync(area, JSON.stringify({ type: 'Polygon', coordinates: [[[2.1, 48.8], [2.2, 48.8], [2.2, 48.9], [2.1, 48.9], [2.1, 48.8]]] }));
  await ok(['cases', 'note', 'Quay', '--observation', 'Red cranes on the quay', '--result', 'r1', '--clue', 'r1.clue1', '--exhibit', FIXTURES + 'sydney.jpg', '--source', 'https://example.org/reference']);
  await ok(['cases', 'note', 'Quay', '--hypothesis', 'The first candidate fits', '--clue', 'r1.cand1']);
  await ok(['cases', 'clues', 'Quay', 'accept', 'r1.clue1', '--because', 'matches the reference']);
  await ok(['cases', 'clues', 'Quay', 'reject', 'r2.support1', '--because', 'not legible']);
  await ok(['cases', 'rule-out', 'Quay', '--at', '48.936,2.357', '--within', '3', '--because', 'no quay there']);
  await ok(['cases', 'rule-out', 'Quay', '--area', area, '--because', 'the river bends the other way']);
  await ok(['cases', 'conclude', 'Quay', '--at', '48.8584,2.2945', '--within', '500', '--confidence', 'probable', '--because', 'cranes and tower line up', '--result', 'r1']);
  md = (await ok(['cases', 'report', 'Quay', '--format', 'md'])).stdout;
  await ok(['cases', 'report', 'Quay', '--out', join(dir, 'quay.html')]);
  html = readFileSync(join(dir, 'quay.html'), 'utf8');
}, 120_000);

describe('geo cases report over geo\'s own investigation commands', () => {
  it('the notes, what they point at, and the exhibit kept by its sha256', () => {
    expect(md).toMatch(/- \*\*observation\*\*: Red cranes on the quay {2}\n {2}points at r1, r1\.clue1; entry \d+/);
    expect(md).toMatch(/- \*\*hypothesis\*\*: The first candidate fits {2}\n {2}points at r1\.cand1; entry \d+/);
    expect(md).toContain(`- exhibit: sydney.jpg, sha256 \`${sha256Hex(readFileSync(FIXTURES + 'sydney.jpg'))}\`, from https://example.org/reference`);
    expect(html).toMatch(/<img src="data:image\/jpeg;base64,[^"]+" alt="exhibit: sydney.jpg">/);
  });

  it('the judgements with the clue\'s text, the places ruled out, the conclusion on the map', () => {
    expect(md).toMatch(/### accepted\n\n.*\n.*\n\| `r1\.clue1` \| [^|]+ \| matches the reference \|/);
    expect(md).toMatch(/### rejected\n\n.*\n.*\n\| `r2\.support1` \| [^|]+ \| not legible \|/);
    expect(md).toContain('| 48.936, 2.357 and 3 km around | no quay there |');
    expect(md).toContain('| the area in west.geojson | the river bends the other way |');
    expect(md).toContain('At 48.8584, 2.2945, within 500 m: **probable**');
    const svg = /<svg class="case-map"[\s\S]*?<\/svg>/.exec(html)![0];
    expect(svg.match(/fill="url\(#ruled-out-hatch\)"/g)).toHaveLength(2);
    expect(svg).toContain('<title>conclusion (entry ');
  });

  it('the case\'s GeoJSON carries the same investigation', async () => {
    const r = await c.run(['export', '--case', 'Quay', '--format', 'geojson']);
    expect(r.code, r.stderr).toBe(0);
    const roles = (JSON.parse(r.stdout) as { features: Array<{ properties: { role: string } }> }).features.map((f) => f.properties.role);
    expect(roles.filter((x) => ['conclusion', 'ruled_out', 'observation', 'hypothesis'].includes(x))).toEqual(['conclusion', 'ruled_out', 'ruled_out', 'observation', 'hypothesis']);
  });
});
