/**
 * DESIGN.md "Layers" as lint rules. Dependencies point one way, down FLOORS below; these configs
 * make the wrong direction a lint error: `geo/folder-floors` for every import between two folders
 * (an import up or sideways, or one that closes a circle between folders), `no-restricted-imports`
 * for the finer rules of each folder, and `geo/no-import-cycle` fails any circle of imports
 * between files of src/, whatever its length and whatever kind of import closes it (type-only and
 * dynamic too).
 *
 * Flat config replaces (does not merge) a rule's options when several objects match a file, so
 * every folder gets ONE `no-restricted-imports` entry built here, always including the ban on
 * importing `process` (only src/cli.ts and bin/ may touch it).
 *
 * Patterns are regexes on the import specifier: `(\.\./)+` catches the folder from any depth,
 * `(\.js|/|$)` stops `../output` from also matching `../outputs`.
 */
import { readdirSync } from 'node:fs';
import { folderFloorsRule } from './folder-floors.js';
import { importCycleRule } from './import-cycle.js';

/**
 * The floors of src/, top to bottom: a folder (a file at the top of src/ counts as one) imports
 * only folders on floors below its own. The order DESIGN.md "Layers" gives, made exact where the
 * code decides it: context.ts sits under the commands that take their Ctx from it; config/ sits
 * under the store (which keeps the team store's URL and folders config/ names) and above the
 * subjects (signing keys are SSH formats of evidence/); the sandbox above the subjects it uses.
 * Folders on one floor import none of each other.
 */
export const FLOORS = [
  ['build'], // the build: bundles cli.ts, writes the man pages from its help
  ['cli'],
  ['registry', 'registry-history', 'root-help', 'argv', 'help'], // what cli.ts assembles
  ['mcp'], // the second front door: calls the commands' run functions
  ['commands'],
  ['context'],
  ['batch'],
  ['output'],
  ['media'],
  ['store'],
  ['config'],
  ['sandbox'],
  ['eval'],
  ['claims'],
  ['evidence'],
  ['image', 'places'],
  ['files', 'flags', 'lazy'],
  ['errors', 'api'],
];

/** Nouns from DESIGN.md's command table, plus any folder that exists (so a new noun is covered at once). */
const DESIGN_NOUNS = ['locate', 'inspect', 'credits', 'usage', 'analyses', 'cases', 'keys', 'config', 'docs', 'sandbox', 'export', 'history', 'completion', 'eval', 'claims', 'api', 'mcp', 'store'];

function commandNouns() {
  let found = [];
  try {
    found = readdirSync(new URL('../src/commands/', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    // no src/commands yet
  }
  return [...new Set([...DESIGN_NOUNS, ...found])].sort();
}

/** Everything above the subject folders (image/, places/, evidence/, eval/, claims/). */
const ABOVE_SUBJECTS = ['store', 'batch', 'media', 'output', 'commands', 'cli', 'context', 'mcp', 'config', 'sandbox', 'api/client'];

const PROCESS_MSG = 'Only src/cli.ts and bin/ touch process (DESIGN.md "Layers"): take what you need from Ctx.';
const processImports = [
  { name: 'process', message: PROCESS_MSG },
  { name: 'node:process', message: PROCESS_MSG },
];

/** A regex pattern forbidding `(../)+<one of folders>`. */
function up(folders, message) {
  const alt = folders.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return { regex: `^(\\.\\./)+(${alt})(\\.js|\\.ts|/|$)`, message };
}

function restrict(files, patterns) {
  return { files, rules: { 'no-restricted-imports': ['error', { paths: processImports, patterns }] } };
}

export function layerConfigs() {
  const configs = [
    {
      files: ['src/**/*.ts'],
      plugins: { geo: { rules: { 'no-import-cycle': importCycleRule, 'folder-floors': folderFloorsRule } } },
      rules: { 'geo/no-import-cycle': 'error', 'geo/folder-floors': ['error', { floors: FLOORS }] },
    },
    // Every file in src/: no `process` global (imports are handled per folder below).
    {
      files: ['src/**/*.ts'],
      rules: {
        'no-restricted-globals': ['error', { name: 'process', message: PROCESS_MSG }],
        'no-restricted-syntax': ['error', { selector: "MemberExpression[object.name='globalThis'][property.name='process']", message: PROCESS_MSG }],
        'no-restricted-imports': ['error', { paths: processImports }],
      },
    },
    restrict(['src/api/**/*.ts'], [
      {
        // Allow-list: zod, undici, node:* and files of api/ itself.
        regex: '^(?!(zod|undici)(/|$)|node:|\\./)',
        message: 'src/api imports only zod, undici, node: modules and ./ files in api (DESIGN.md "Layers").',
      },
    ]),
    restrict(['src/sandbox/**/*.ts'], [
      up(['api/client', 'commands', 'output', 'cli', 'context', 'config', 'batch'], 'src/sandbox shares the contract (api/schemas, api/routes), never api/client, commands, output, cli, context, config or batch.'),
    ]),
    restrict(['src/output/**/*.ts'], [
      up(['api/client', 'commands', 'cli', 'context'], 'src/output takes plain data: it never fetches (api/client) and never imports commands, cli or context.'),
      { regex: '^undici(/|$)', message: 'src/output never fetches: no undici.' },
    ]),
    // src/mcp is a second front door beside cli.ts (DESIGN.md "Layers"): it serves the commands'
    // plain functions (run.ts) to an agent, never their handlers, registers or views (what the CLI
    // prints is not what an agent gets), and never the CLI itself.
    restrict(['src/mcp/**/*.ts'], [
      { regex: '^\\.\\./commands/[^/]+/(?!run\\.js$)', message: 'src/mcp calls the commands through their run.ts only (their plain functions), never their handlers or views.' },
      up(['cli'], 'src/mcp is a front door beside cli.ts, not under it.'),
    ]),
    // The one database module (DESIGN.md "src/store/"): below batch, the commands and the front doors.
    restrict(['src/store/**/*.ts'], [
      up(['batch', 'commands', 'cli', 'context', 'output', 'mcp', 'sandbox', 'api/client'], 'src/store is the one database module: it sits below batch and the commands, and takes plain records.'),
    ]),
    restrict(['src/config/**/*.ts', 'src/batch/**/*.ts', 'src/media/**/*.ts'], [
      up(['commands', 'cli', 'context'], 'src/config, src/batch and src/media sit below the commands: no commands, cli or context.'),
    ]),
    // The subject folders under the store (DESIGN.md "Layers": image/, places/, evidence/, eval/
    // import nothing above them). Each names what it may not reach; below them is only api/'s
    // contract (never api/client) and the small file helpers.
    restrict(['src/eval/**/*.ts'], [
      up([...ABOVE_SUBJECTS], 'src/eval sits below the store, batch, output and the commands: ground truth and metrics over plain data.'),
    ]),
    restrict(['src/claims/**/*.ts'], [
      up([...ABOVE_SUBJECTS, 'eval'], 'src/claims sits below eval (which calibrates it), the store, batch, output and the commands.'),
    ]),
    restrict(['src/evidence/**/*.ts'], [
      up([...ABOVE_SUBJECTS, 'eval', 'claims'], 'src/evidence sits below eval, claims, the store, batch, output and the commands; it builds on image/ and places/ only.'),
    ]),
    restrict(['src/image/**/*.ts'], [
      up([...ABOVE_SUBJECTS, 'eval', 'claims', 'evidence', 'places'], "src/image is about one image's bytes: it imports no other subject (places, evidence, eval, claims) and nothing above them."),
    ]),
    restrict(['src/places/**/*.ts'], [
      up([...ABOVE_SUBJECTS, 'eval', 'claims', 'evidence', 'image'], 'src/places is the offline place index and geodesy: it imports no other subject (image, evidence, eval, claims) and nothing above them.'),
    ]),
    restrict(['src/files/**/*.ts'], [
      {
        // Allow-list: node:* modules, files/ itself and the error classes.
        regex: '^(?!node:|\\./|\\.\\./errors\\.js$)',
        message: 'src/files holds the small file helpers every layer uses: it imports only node: modules, ./ files and ../errors.js.',
      },
    ]),
  ];
  const nouns = commandNouns();
  for (const noun of nouns) {
    const others = nouns.filter((n) => n !== noun);
    configs.push(
      restrict(
        [`src/commands/${noun}/**/*.ts`],
        [
          { regex: `^\\.\\./(${others.join('|')})(/|$)`, message: `Commands never import each other: src/commands/${noun} must not import another command's folder.` },
          up(others.map((o) => `commands/${o}`), `Commands never import each other: src/commands/${noun} must not import another command's folder.`),
          up(['cli'], 'No command imports the entry file: shared types live in src/commands/types.ts (DESIGN.md "Layers").'),
        ],
      ),
    );
  }
  // cli.ts is the one place allowed to read process (argv, streams, signals).
  configs.push({ files: ['src/cli.ts'], rules: { 'no-restricted-globals': 'off', 'no-restricted-syntax': 'off', 'no-restricted-imports': 'off' } });
  return configs;
}
