/**
 * geo cases annotate on bad input: a result that names nothing in the case, a case whose answers
 * carry no clue with image coordinates, an original changed since it was located. Each is one line
 * on stderr and exit 2, and nothing is appended; when only some originals changed, the others are
 * drawn and the command exits 7, naming each one left.
 */
import { appendFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';
import { caseId, caseRunner, custodyLines, custodyOf, tmp } from './helpers.js';

const sb = withSandbox();
let r: ReturnType<typeof caseRunner>;
const dir = tmp();
const photo = (name: string) => {
  const path = join(dir, name);
  copyFileSync(FIXTURES + name, path);
  return path;
};

beforeAll(async () => {
  r = caseRunner(sb);
  for (const [name, files, depth] of [['Plain', ['newyork.jpg'], '1'], ['Two', ['paris.jpg', 'tokyo.jpg'], '2'], ['Moved', ['sydney.jpg'], '2']] as const) {
    expect((await r.run(['cases', 'create', '--name', name, '--local'])).code).toBe(0);
    // One at a time: results are r1, r2 in the order the files are named.
    const l = await r.run(['locate', ...files.map(photo), '--depth', depth, '--case', name, '--concurrency', '1']);
    expect(l.code, l.stderr).toBe(0);
  }
}, 60_000);

/** Runs annotate and checks it said one line, exited `code` and appended nothing to the case. */
async function refused(name: string, args: string[], code: number, line: RegExp) {
  const id = caseId(r.data, name);
  const before = custodyLines(r.data, id);
  const kept = dbRows(r.data, 'SELECT sha256 FROM kept_files').length;
  const res = await r.run(['cases', 'annotate', name, ...args]);
  expect(res.code).toBe(code);
  expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(res.stderr).toMatch(line);
  expect(res.stdout).toBe('');
  expect(custodyLines(r.data, id)).toEqual(before);
  expect(dbRows(r.data, 'SELECT sha256 FROM kept_files')).toHaveLength(kept);
}

describe('geo cases annotate: bad input', () => {
  it('a result the case does not hold: exit 2, one line naming it, nothing appended', async () => {
    await refused('Two', ['r9'], 2, /^error: "r9" names no result of case lc_\w+ — hint: name one as r1…r2, by its analysis id or a sha256 prefix/);
    await refused('Two', ['ffffffffff'], 2, /"ffffffffff" names no result of case/);
  });

  it('a case whose answers carry no clue with image coordinates (depth 1): exit 2, nothing appended', async () => {
    await refused('Plain', [], 2, /^error: case lc_\w+ has no clue with image coordinates: no working copy to make — hint: .*--depth 2 or 3/);
    await refused('Plain', ['r1'], 2, /^error: r1 of case lc_\w+ has no clue with image coordinates/);
  });

  it('an original changed since it was located: exit 2, one line naming the file, nothing appended', async () => {
    appendFileSync(join(dir, 'sydney.jpg'), 'edited');
    await refused('Moved', [], 2, new RegExp(`^error: r1: ${join(dir, 'sydney.jpg')} is not the image this result was made from \\(its sha256 differs\\): no working copy made — hint: `));
  });

  it('some originals changed: the others are drawn and logged, each one left is said, exit 7', async () => {
    appendFileSync(join(dir, 'tokyo.jpg'), 'edited');
    const id = caseId(r.data, 'Two');
    const res = await r.run(['cases', 'annotate', 'Two']);
    expect(res.code).toBe(7);
    expect(res.stdout).toMatch(/^made a working copy of r1 \(.*paris\.jpg\)/);
    expect(res.stderr).toBe(`no working copy: r2: ${join(dir, 'tokyo.jpg')} is not the image this result was made from (its sha256 differs)\n`);
    const made = custodyOf(r.data, id).filter((e) => e.event === 'working_copy_made');
    expect(made.map((e) => (e.data.copy as { result: { ref: string } }).result.ref)).toEqual(['r1']);
  });
});
