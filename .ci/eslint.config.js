/**
 * ESLint flat config (`npm run lint` = `eslint --config .ci/eslint.config.js .`).
 * typescript-eslint's recommended rules without type information (fast), plus DESIGN.md's layer
 * rules as `no-restricted-imports` per folder. The layer rules live in ./layers.js so the lint
 * test (test/lint/layers.test.ts) exercises exactly what CI enforces.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerConfigs } from './layers.js';

/** Node globals for the plain .js files (bin/, fixtures/, bench/, .ci/); TS files get them from @types/node. */
const nodeGlobals = Object.fromEntries(
  ['process', 'Buffer', 'console', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'queueMicrotask', 'structuredClone', 'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder', 'fetch', 'performance', 'globalThis'].map((g) => [g, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.cache/', 'coverage/', 'fixtures/images/', 'bench/out/', 'test/out/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: nodeGlobals },
    linterOptions: { reportUnusedDisableDirectives: 'warn' },
    rules: {
      // `_`-prefixed names are deliberately unused (handler signatures, destructuring to omit).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // bin/ is CommonJS (bin/package.json): an ES-module entry costs Node 20 ~11 ms of start-up.
    // Test preloads (node --require) are CommonJS too.
    files: ['bin/**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, require: 'readonly', module: 'writable', __dirname: 'readonly', __filename: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests assert on terminal escapes all the time; in src/ each such regex keeps an explicit disable comment.
    files: ['test/**/*.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  ...layerConfigs(),
);
