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
      ['src/api/x.ts', '../local/exif.js'],
      ['src/api/x.ts', '../config/store.js'],
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
      ['src/sandbox/x.ts', '../config/store.js'],
      ['src/sandbox/x.ts', '../batch/plan.js'],
    ],
    allowed: [
      ['src/sandbox/x.ts', '../api/schemas.js'],
      ['src/sandbox/x.ts', '../api/routes.js'],
      ['src/sandbox/x.ts', '../local/geocode.js'],
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
      ['src/store/x.ts', '../local/store-types.js'],
      ['src/store/x.ts', '../errors.js'],
      ['src/batch/x.ts', '../store/index.js'],
    ],
  },
  'local/, config/, batch/ sit below commands, cli, context': {
    denied: ['local', 'config', 'batch'].flatMap((d) => [
      [`src/${d}/x.ts`, '../commands/locate/run.js'] as [string, string],
      [`src/${d}/x.ts`, '../cli.js'] as [string, string],
      [`src/${d}/x.ts`, '../context.js'] as [string, string],
    ]),
    allowed: [
      ['src/local/x.ts', '../errors.js'],
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
  it('the process global fails in src/', async () => expect(await layerHits('src/local/x.ts', 'export const a = process.env.HOME;')).toContain('no-restricted-globals'));
  it('globalThis.process fails in src/', async () => expect(await layerHits('src/api/x.ts', 'export const a = globalThis.process;')).toContain('no-restricted-syntax'));
  it("import from 'node:process' fails in src/", async () => expect(await layerHits('src/commands/locate/x.ts', "import { env } from 'node:process';\nexport const a = env;")).toContain('no-restricted-imports'));
  it("import from 'process' fails in src/api too (despite its node: allow-list)", async () => expect(await layerHits('src/api/x.ts', "import process from 'node:process';\nexport const a = process;")).toContain('no-restricted-imports'));
  it('src/cli.ts may use process', async () => expect(await layerHits('src/cli.ts', 'export const a = process.argv;')).toEqual([]));
  it('tests and bin may use process', async () => {
    expect(await layerHits('test/x.test.ts', 'export const a = process.env;')).toEqual([]);
    expect(await layerHits('bin/x.js', 'export const a = process.exitCode;')).toEqual([]);
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
