/**
 * Imports between the folders of src/ run one way (geo/folder-floors: .ci/folder-floors.js, the
 * floors in .ci/layers.js). A circle planted between two folders of a throwaway src/ fails the
 * config `npm run lint` uses (through ESLint's API, as lintFiles over that tree), even when no file
 * imports itself; the real src/ passes.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const CONFIG = `${ROOT}.ci/eslint.config.js`;

interface Hit {
  file: string;
  rule: string;
  message: string;
}

/** The geo/ rules' messages for `dir`'s src/, linted with the project's own config. */
async function geoHits(dir: string): Promise<Hit[]> {
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: CONFIG });
  const results = await eslint.lintFiles(['src/**/*.ts']);
  return results.flatMap((r) =>
    r.messages.filter((m) => m.ruleId?.startsWith('geo/')).map((m) => ({ file: relative(dir, r.filePath), rule: m.ruleId!, message: m.message })),
  );
}

/** A throwaway project holding `files` (paths under it), linted as `npm run lint` lints src/. */
async function lintTree(files: Record<string, string>): Promise<Hit[]> {
  const dir = mkdtempSync(join(tmpdir(), 'geo-floors-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return geoHits(dir);
}

// alpha/one.ts takes beta/two.ts; beta/three.ts takes alpha/four.ts: the folders import each
// other although no file reaches itself (geo/no-import-cycle sees nothing).
const ONE_WAY = {
  'src/alpha/one.ts': "import { two } from '../beta/two.js';\nexport const one = two + 1;\n",
  'src/beta/two.ts': 'export const two = 2;\n',
  'src/alpha/four.ts': 'export const four = 4;\n',
};
const BACK = { 'src/beta/three.ts': "import { four } from '../alpha/four.js';\nexport const three = four;\n" };

describe('a circle between two folders fails the lint', () => {
  it('folders no floor names: one way passes, both ways fails on each import that closes it', async () => {
    expect(await lintTree(ONE_WAY)).toEqual([]);
    const hits = await lintTree({ ...ONE_WAY, ...BACK });
    expect(hits.map((h) => h.rule)).not.toContain('geo/no-import-cycle');
    expect(hits).toEqual([
      { file: 'src/alpha/one.ts', rule: 'geo/folder-floors', message: expect.stringContaining('Folder circle: alpha -> beta -> alpha (alpha/one.ts -> beta/two.ts; beta/three.ts -> alpha/four.ts)') },
      { file: 'src/beta/three.ts', rule: 'geo/folder-floors', message: expect.stringContaining('Folder circle: beta -> alpha -> beta (beta/three.ts -> alpha/four.ts; alpha/one.ts -> beta/two.ts)') },
    ]);
  });

  it('two floors (batch above store): the import up is named, and the circle it closes', async () => {
    const hits = await lintTree({
      'src/batch/run.ts': "import { keep } from '../store/keep.js';\nexport const run = keep;\n",
      'src/store/keep.ts': 'export const keep = 1;\n',
      'src/batch/types.ts': 'export type Line = { t: string };\n',
      'src/store/legacy.ts': "import type { Line } from '../batch/types.js';\nexport type Old = Line;\n",
    });
    expect(hits).toEqual([
      { file: 'src/batch/run.ts', rule: 'geo/folder-floors', message: expect.stringContaining('Folder circle: batch -> store -> batch') },
      { file: 'src/store/legacy.ts', rule: 'geo/folder-floors', message: expect.stringContaining('store/ sits below batch/') },
      { file: 'src/store/legacy.ts', rule: 'geo/folder-floors', message: expect.stringContaining('Folder circle: store -> batch -> store') },
    ]);
  });

  it('a top-level file counts as a folder of its own', async () => {
    const hits = await lintTree({
      'src/context.ts': "import { x } from './output/io.js';\nexport const ctx = x;\n",
      'src/output/io.ts': 'export const x = 1;\n',
      'src/output/view.ts': "import { ctx } from '../context.js';\nexport const v = ctx;\n",
    });
    expect(hits).toEqual([
      { file: 'src/context.ts', rule: 'geo/folder-floors', message: expect.stringContaining('Folder circle: context -> output -> context (context.ts -> output/io.ts; output/view.ts -> context.ts)') },
      { file: 'src/output/view.ts', rule: 'geo/folder-floors', message: expect.stringContaining('output/ sits below context/') },
      { file: 'src/output/view.ts', rule: 'geo/folder-floors', message: expect.stringContaining('Folder circle: output -> context -> output') },
    ]);
  });
});

describe('the real src/ (the graph the rule reads, every file on disk)', () => {
  it('has no circle between folders and no import up or sideways the floors', async () => {
    const { folderCyclesOnDisk, importsUpOnDisk } = (await import(`${ROOT}.ci/folder-floors.js`)) as {
      folderCyclesOnDisk: (dir: string) => string[][];
      importsUpOnDisk: (dir: string, floors: string[][]) => string[];
    };
    const { FLOORS } = (await import(`${ROOT}.ci/layers.js`)) as { FLOORS: string[][] };
    expect(folderCyclesOnDisk(`${ROOT}src/`)).toEqual([]);
    expect(importsUpOnDisk(`${ROOT}src/`, FLOORS)).toEqual([]);
  });
});
