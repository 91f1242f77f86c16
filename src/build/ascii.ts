/**
 * Build step (package.json "build"): keeps dist/cli.js (and the look-up bundle) ASCII. esbuild's --charset=ascii escapes
 * every string and regex, but it keeps a few comments that sit inside expressions (the MCP SDK's
 * and zod's, e.g. "human-readable — optimized"), and those keep their UTF-8 bytes. bin/load-cli.js
 * reads the bundle as latin1 (the fast path), and test/build/compile-cache.test.ts requires ASCII,
 * so what is left outside ASCII, all of it in comments, is written as \u escapes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { BUNDLES } from './bundles.js';

for (const file of BUNDLES) {
  const text = readFileSync(file, 'utf8');
  // Code unit by code unit (no u flag), so a character outside the BMP becomes its two surrogates.
  // eslint-disable-next-line no-control-regex
  const ascii = text.replace(/[^\u0000-\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}
