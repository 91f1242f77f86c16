#!/usr/bin/env node
// Entry point (DESIGN.md "Layers"): enable the compile cache, load the built CLI, set the exit code.
import { readFileSync } from 'node:fs';
import module from 'node:module';

const argv = process.argv.slice(2);

// `geo --version` alone is answered before any of the CLI is loaded (budget: 1.5x `node -e 0`,
// bench/startup.mjs). Same output as commander's -V; every other form goes through commander.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version + '\n');
} else {
  // Node >= 22.1 caches compiled code between runs; on Node 20 this is a no-op.
  module.enableCompileCache?.();

  const { main } = await import('../dist/cli.js');
  process.exitCode = await main(argv);
}
