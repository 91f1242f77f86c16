#!/usr/bin/env node
// Entry point (DESIGN.md "Layers"): answer --version, load the built CLI through a code cache, set
// the exit code. CommonJS (bin/package.json): an ES-module entry costs Node 20 ~11 ms of start-up
// (issue 7's budgets, bench/startup.mjs).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const argv = process.argv.slice(2);

// `geo --version` alone is answered before any of the CLI is loaded (budget: 1.5x `node -e 0`).
// Same output as commander's -V; every other form goes through commander.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // A reader that already left (`geo --version | true`) is not an error (src/cli.ts does the same).
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
  process.stdout.write(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version + '\n');
} else {
  // Node >= 22.1 caches the packages loaded outside the bundle (conf, @inquirer/prompts); no-op on 20.
  require('node:module').enableCompileCache?.();
  const dist = join(__dirname, '..', 'dist');
  let cli;
  try {
    cli = require('./load-cli.js').loadFor(dist, argv);
  } catch (err) {
    if (err.code !== 'ENOENT' || !err.path?.startsWith(dist)) throw err;
    // A clone where `npm install` (which builds dist/) has not run yet: exit 1, "unexpected".
    process.stderr.write(`error: ${err.path} is missing — hint: run \`npm install\` (or \`npm run build\`) in ${join(__dirname, '..')}\n`);
    process.exit(1);
  }
  cli.main(argv).then((code) => {
    process.exitCode = code;
  });
}
