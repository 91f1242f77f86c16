#!/usr/bin/env node
// Entry point (DESIGN.md "Layers"): enable the compile cache, load the built CLI, set the exit code.
import module from 'node:module';

// Node >= 22.1 caches compiled code between runs; on Node 20 this is a no-op.
module.enableCompileCache?.();

const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv.slice(2));
