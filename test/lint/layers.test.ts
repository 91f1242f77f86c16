/**
 * The layer rules of DESIGN.md, as CI enforces them: lint snippets of code as if they lived at a
 * given path (ESLint's lintText, so no file is written into src/) and check which restriction fires.
 */
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const LAYER_RULES = new Set(['no-restricted-imports', 'no-restricted-globals', 'no-restricted-syntax']);
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: `${ROOT}.ci/eslint.config.js` });
});

/** The layer-rule ids reported for `code` placed at `file` (other rules, e.g. unused vars, ignored). */
async function layerHits(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId && LAYER_RULES.has(m.ruleId)).map((m) => m.ruleId!);
}
const imp = (spec: string) => `import '${spec}';\n`;

/** [file the code lives in, import specifier] pairs that must fail and must pass. */
const cases: Record<string, { denied: [string, string][]; allowed: [string, string][] }> = {
  'api/ imports only zod, undici, node: and ./ files': {
    denied: [
      ['src/api/x.ts', '../output/io.js'],
      ['src/api/x.ts', '../commands/locate/run.js'],
      ['src/api/x.ts', '../image/exif.js'],
      ['src/api/x.ts', '../config/profiles.js'],
      ['src/api/x.ts', '../sandbox/http.js'],
      ['src/api/x.ts', '../batch/plan.js'],
      ['src/api/x.ts', '../cli.js'],
      ['src/api/x.ts', '../context.js'],
      ['src/api/x.ts', '../errors.js'],
      ['src/api/x.ts', 'chalk'],
      ['src/api/x.ts', 'zodiac'],
    ],
    allowed: [
      ['src/api/x.ts', './schemas.js'],
      ['src/api/x.ts', 'zod'],
      ['src/api/x.ts', 'zod/v4'],
      ['src/api/x.ts', 'undici'],
      ['src/api/x.ts', 'node:fs'],
    ],
  },
  'sandbox/ shares the contract, never api/client': {
    denied: [
      ['src/sandbox/x.ts', '../api/client.js'],
      ['src/sandbox/x.ts', '../commands/sandbox/run.js'],
      ['src/sandbox/x.ts', '../output/io.js'],
      ['src/sandbox/x.ts', '../cli.js'],
      ['src/sandbox/x.ts', '../context.js'],
      ['src/sandbox/x.ts', '../config/profiles.js'],
      ['src/sandbox/x.ts', '../batch/plan.js'],
    ],
    allowed: [
      ['src/sandbox/x.ts', '../api/schemas.js'],
      ['src/sandbox/x.ts', '../api/routes.js'],
      ['src/sandbox/x.ts', '../places/geocode.js'],
      ['src/sandbox/x.ts', './state.js'],
    ],
  },
  'output/ takes plain data': {
    denied: [
      ['src/output/x.ts', '../api/client.js'],
      ['src/output/x.ts', 'undici'],
      ['src/output/x.ts', '../commands/locate/run.js'],
      ['src/output/x.ts', '../cli.js'],
      ['src/output/x.ts', '../context.js'],
      ['src/output/views/x.ts', '../../context.js'],
    ],
    allowed: [
      ['src/output/x.ts', './sanitize.js'],
      ['src/output/x.ts', '../api/schemas.js'],
      ['src/output/x.ts', 'chalk'],
    ],
  },
  'commands never import each other': {
    denied: [
      ['src/commands/locate/run.ts', '../inspect/run.js'],
      ['src/commands/locate/run.ts', '../../commands/inspect/run.js'],
      ['src/commands/cases/run.ts', '../keys/manage.js'],
      // No command imports the entry file: shared types are in src/commands/types.ts.
      ['src/commands/locate/register.ts', '../../cli.js'],
    ],
    allowed: [
      ['src/commands/locate/run.ts', './plan.js'],
      ['src/commands/locate/run.ts', '../../output/render.js'],
      ['src/commands/locate/run.ts', '../../batch/plan.js'],
      ['src/commands/locate/register.ts', '../types.js'],
    ],
  },
  'store/ is the one database module, below batch and the commands': {
    denied: [
      ['src/store/x.ts', '../batch/run.js'],
      ['src/store/x.ts', '../commands/history/run.js'],
      ['src/store/x.ts', '../context.js'],
      ['src/store/x.ts', '../output/render.js'],
    ],
    allowed: [
      ['src/store/x.ts', '../evidence/record-types.js'],
      ['src/store/x.ts', '../errors.js'],
      ['src/batch/x.ts', '../store/index.js'],
      // The legacy import reads old journals: their format is the store's own.
      ['src/store/x.ts', './journal-format.js'],
    ],
  },
  'the subjects (image/, places/, evidence/, eval/, claims/) import nothing above them': {
    denied: [
      ...['image', 'places', 'evidence', 'eval', 'claims'].flatMap((d) =>
        ['../store/index.js', '../batch/plan.js', '../output/render.js', '../media/video.js', '../commands/locate/run.js', '../config/profiles.js', '../sandbox/http.js', '../api/client.js', '../context.js', '../cli.js'].map(
          (spec) => [`src/${d}/x.ts`, spec] as [string, string],
        ),
      ),
      ['src/image/x.ts', '../places/distance.js'],
      ['src/image/x.ts', '../evidence/custody.js'],
      ['src/places/x.ts', '../image/exif.js'],
      ['src/places/x.ts', '../evidence/records.js'],
      ['src/evidence/x.ts', '../eval/metrics.js'],
      ['src/evidence/x.ts', '../claims/rules.js'],
      ['src/claims/x.ts', '../eval/metrics.js'],
      ['src/files/x.ts', '../image/sniff.js'],
      ['src/files/x.ts', '../api/schemas.js'],
      ['src/files/x.ts', 'chalk'],
    ],
    allowed: [
      ['src/image/x.ts', '../api/schemas.js'],
      ['src/image/x.ts', '../files/read.js'],
      ['src/image/x.ts', '../errors.js'],
      ['src/evidence/x.ts', '../image/exif.js'],
      ['src/evidence/x.ts', '../places/distance.js'],
      ['src/eval/x.ts', '../evidence/records.js'],
      ['src/eval/x.ts', '../claims/rules.js'],
      ['src/claims/x.ts', '../evidence/corroborate.js'],
      ['src/files/x.ts', '../errors.js'],
      ['src/files/x.ts', 'node:fs'],
      ['src/files/x.ts', './read.js'],
    ],
  },
  'store/ reads nothing of batch/': {
    denied: [
      ['src/store/x.ts', '../batch/journal.js'],
      ['src/store/x.ts', '../batch/types.js'],
      ['src/store/x.ts', '../batch/journal-format.js'],
    ],
    allowed: [],
  },
  'config/, batch/, media/ sit below commands, cli, context': {
    denied: ['config', 'batch', 'media'].flatMap((d) => [
      [`src/${d}/x.ts`, '../commands/locate/run.js'] as [string, string],
      [`src/${d}/x.ts`, '../cli.js'] as [string, string],
      [`src/${d}/x.ts`, '../context.js'] as [string, string],
    ]),
    allowed: [
      ['src/config/x.ts', '../errors.js'],
      ['src/batch/x.ts', '../api/schemas.js'],
    ],
  },
};

for (const [name, c] of Object.entries(cases)) {
  describe(name, () => {
    for (const [file, spec] of c.denied) it(`${file}: '${spec}' fails`, async () => expect(await layerHits(file, imp(spec))).toContain('no-restricted-imports'));
    for (const [file, spec] of c.allowed) it(`${file}: '${spec}' passes`, async () => expect(await layerHits(file, imp(spec))).toEqual([]));
  });
}

describe('import forms are all covered', () => {
  it.each([
    ["import type { Ctx } from '../context.js';", 'type-only import'],
    ["export * from '../context.js';", 're-export'],
    ["export { x } from '../context.js';", 'named re-export'],
  ])('%s (%s) fails in src/output', async (code) => expect(await layerHits('src/output/x.ts', code)).toContain('no-restricted-imports'));
});

describe('only src/cli.ts touches process', () => {
  it('the process global fails in src/', async () => expect(await layerHits('src/image/x.ts', 'export const a = process.env.HOME;')).toContain('no-restricted-globals'));
  it('globalThis.process fails in src/', async () => expect(await layerHits('src/api/x.ts', 'export const a = globalThis.process;')).toContain('no-restricted-syntax'));
  it("import from 'node:process' fails in src/", async () => expect(await layerHits('src/commands/locate/x.ts', "import { env } from 'node:process';\nexport const a = env;")).toContain('no-restricted-imports'));
  it("import from 'process' fails in src/api too (despite its node: allow-list)", async () => expect(await layerHits('src/api/x.ts', "import process from 'node:process';\nexport const a = process;")).toContain('no-restricted-imports'));
  it('src/cli.ts may use process', async () => expect(await layerHits('src/cli.ts', 'export const a = process.argv;')).toEqual([]));
  it('tests and bin may use process', async () => {
    expect(await layerHits('test/x.test.ts', 'export const a = process.env;')).toEqual([]);
    expect(await layerHits('bin/x.js', 'export const a = process.exitCode;')).toEqual([]);
  });
});

describe('no import circle in src/ (geo/no-import-cycle)', () => {
  const cycleHits = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'geo/no-import-cycle').map((m) => m.message);
  };
  // batch/plan.ts imports batch/types.ts: types.ts importing plan back closes a circle of two.
  it('a circle of two files fails, naming both', async () => {
    expect(await cycleHits('src/batch/types.ts', "import type { buildPlan } from './plan.js';\nexport type X = typeof buildPlan;")).toEqual([expect.stringContaining('batch/types.ts -> batch/plan.ts -> batch/types.ts')]);
  });
  it('a type-only import that closes a circle fails too', async () => {
    expect(await cycleHits('src/output/plain-style.ts', "import type { ViewOpts } from './render.js';\nexport type X = ViewOpts;")).toHaveLength(1);
  });
  it('an import() type and a dynamic import that close a circle fail', async () => {
    expect(await cycleHits('src/batch/types.ts', "export type X = import('./plan.js').PlanInput;")).toHaveLength(1);
    expect(await cycleHits('src/output/plain-style.ts', "export const x = () => import('./render.js');")).toHaveLength(1);
  });
  it('a longer circle fails (a -> b -> c -> a)', async () => {
    // evidence/corroborate.ts -> evidence/sun-witness.ts -> image/capture-time.ts: capture-time importing corroborate closes it.
    expect(await cycleHits('src/image/capture-time.ts', "import { corroborate } from '../evidence/corroborate.js';\nexport const c = corroborate;")).toEqual([expect.stringMatching(/image\/capture-time\.ts -> evidence\/corroborate\.ts -> .* -> image\/capture-time\.ts/)]);
  });
  it('an import in one direction passes', async () => expect(await cycleHits('src/batch/plan.ts', "import type { BatchParams } from './types.js';\nexport type X = BatchParams;")).toEqual([]));
  it('src/ as it is has no circle at all (the rule graph over every file on disk)', async () => {
    const { cyclesOnDisk } = (await import(`${ROOT}.ci/import-cycle.js`)) as { cyclesOnDisk: (dir: string) => string[][] };
    expect(cyclesOnDisk(`${ROOT}src/`)).toEqual([]);
  });
});

describe('nothing but src/store opens the database', () => {
  it('no file outside src/store/ names the SQLite binding (libsql)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const root = new URL('../../src/', import.meta.url).pathname;
    const offenders = (readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.startsWith('store/') && !f.startsWith('build/'))
      .filter((f) => /['"]libsql['"]/.test(readFileSync(root + f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
