// Loads dist/cli.js (one CommonJS bundle), or for `geo history` the look-up bundle beside it
// (OWN_BUNDLES), with a V8 code cache, so a run does not parse and compile the bundle again (issue
// 7's start-up budgets; bench/startup.mjs).
//
// Why not Node's own cache: Node 20 has no module.enableCompileCache, and where Node has one
// (22.1+) it caches each file as compiled before it runs, while this cache is made after the CLI
// ran, so it holds every function the command needed (`geo credits --json`: 127 vs 148 ms on 24).
//
// The cache is V8 bytecode, so it is trusted only from a folder and file that belong to this user
// and that no one else can write: $GEO_CACHE_DIR, else $XDG_CACHE_HOME/geo, else ~/.cache/geo
// (folder 0700, file 0600). NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch) turns it off.
'use strict';
const { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { dirname, isAbsolute, join } = require('node:path');
const { createRequire } = require('node:module');
const vm = require('node:vm');

/** Same rule as src/config/paths.ts uses for the config, state and data folders. */
function cacheDir(env) {
  if (env.GEO_CACHE_DIR) return env.GEO_CACHE_DIR;
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.cache'), 'geo');
}

/** Ours and writable by no one else (a cache from anyone else could run their bytecode as us). */
function trusted(stat) {
  return (process.getuid === undefined || stat.uid === process.getuid()) && (stat.mode & 0o022) === 0;
}

/**
 * One cache per command noun, each holding what its command compiled: one shared cache holds what
 * the first command compiled, and `credits --json` run from a cache made by `geo --help` compiled
 * undici every time (+18 ms on Node 20). The nouns are bin/nouns.json, the list src/cli.ts registers.
 */
const NOUNS = require('./nouns.json');

function cacheKey(argv) {
  return argv.find((a) => NOUNS.includes(a)) ?? 'root';
}

/**
 * Nouns with a bundle of their own beside dist/cli.js: the same CLI with that noun alone registered
 * (src/build/build.ts 2b), so a look-up reads and caches 1.1 MB, not 1.9 (issue 32). Help lists
 * every noun, so it stays with the full CLI; the noun is a guess made before anything is loaded,
 * and the bundle's handles(argv) has the last word (`--profile history locate` is locate's).
 */
const OWN_BUNDLES = { history: 'cli-history.js' };

function bundleFor(dist, argv) {
  // Flags alone (`geo`, `geo --help`): the root help's bundle, which lists the nouns and holds none
  // of their code (src/build/build.ts 2c): a tenth of dist/cli.js to read and cache.
  if (argv.every((a) => a.startsWith('-'))) return join(dist, 'cli-root.js');
  const own = OWN_BUNDLES[cacheKey(argv)];
  return own && !argv.includes('help') && !argv.includes('--help') && !argv.includes('-h') ? join(dist, own) : join(dist, 'cli.js');
}

/** A short, stable name for one install of geo, so two checkouts do not replace each other's cache. */
function hashPath(path) {
  let h = 5381;
  for (let i = 0; i < path.length; i++) h = ((h * 33) ^ path.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

/**
 * The cache for `bundle` (whose stat is `st`), this Node and the command in `argv`: its bytes
 * (undefined when there is none yet, or it belongs to another build of the bundle) and save().
 * Undefined when caching is off or the folder is unusable. V8 itself refuses a cache from another
 * V8 version, other flags, or a source of another length; the stamp (size and mtime of the bundle)
 * catches a rebuild of the same length.
 */
function openCache(bundle, st, argv, env) {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const dir = cacheDir(env);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!trusted(statSync(dir))) return undefined;
  } catch {
    return undefined;
  }
  const stamp = Buffer.from(`geo-code-cache 1 ${st.size} ${Math.trunc(st.mtimeMs)}\n`);
  const file = join(dir, `cli-${hashPath(bundle)}-node${process.version}-${cacheKey(argv)}.v8cache`);
  let data;
  try {
    const fd = openSync(file, 'r');
    try {
      if (trusted(fstatSync(fd))) {
        const bytes = readFileSync(fd);
        if (bytes.subarray(0, stamp.length).equals(stamp)) data = bytes.subarray(stamp.length);
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    // no cache yet
  }
  const save = (cached) => {
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, Buffer.concat([stamp, cached]), { mode: 0o600 });
      renameSync(tmp, file); // atomic: concurrent runs never read half a file
    } catch {
      // a cache that cannot be written costs the next run its compile, nothing else
    }
  };
  return { data, save };
}

/** Runs the bundle as CommonJS and returns its exports ({ main, onBeforeV8Tuning }). */
function loadCli(bundle, argv, env = process.env) {
  // The build writes the bundle as one function expression: the CommonJS wrapper around it (its
  // --banner and --footer), plus __geoImport. On Node 20, import() in code compiled from a cache
  // has no loader behind it, so the bundle imports its ES-module-only packages through that one
  // (src/lazy/esm.ts); the build makes every other import() a require(). Compiling the file's text
  // as it is keeps one copy of it (1.4 MB) in memory, not two. It is ASCII only (--charset=ascii,
  // checked by test/build/compile-cache.test.ts), so latin1 reads it ~2x faster than utf8.
  const fd = openSync(bundle, 'r');
  let source, st;
  try {
    st = fstatSync(fd);
    source = readFileSync(fd, 'latin1');
  } finally {
    closeSync(fd);
  }
  const cache = openCache(bundle, st, argv, env);
  const script = new vm.Script(source, { filename: bundle, cachedData: cache?.data });
  const module = { exports: {} };
  const geoImport = (id) => import(id);
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle), geoImport);
  if (cache && (!cache.data || script.cachedDataRejected)) {
    // Made as late as possible, so it holds what the command compiled: at exit, or right before a
    // command that connects changes V8's flags (a cache made after that would be refused).
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      cache.save(script.createCachedData());
    };
    module.exports.onBeforeV8Tuning(save);
    process.once('exit', save);
  }
  return module.exports;
}

/** The CLI for `argv` from the bundles in `dist`: a noun's own bundle where it runs argv, else the full one. */
function loadFor(dist, argv, env = process.env) {
  const bundle = bundleFor(dist, argv);
  const cli = loadCli(bundle, argv, env);
  return bundle === join(dist, 'cli.js') || cli.handles(argv) ? cli : loadCli(join(dist, 'cli.js'), argv, env);
}

module.exports = { bundleFor, loadCli, loadFor, NOUNS };
