/**
 * Build step (package.json "build"): points dist/cli.js (and the look-up bundle) at the chunks bundled apart (.cjs: the
 * package is "type": "module"). The main bundle keeps each chunk's source file external (the MCP
 * SDK, loaded only by `geo mcp`; asn1js and @peculiar/asn1-*, only by RFC 3161 timestamps), and
 * esbuild writes that require as a path from dist/ back to the source file; at run time it must
 * name the chunk beside the bundle (each module that imports it has its own require). Fails the
 * build when a chunk is required nowhere.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { BUNDLES, FULL } from './bundles.js';

export const CHUNKS: Record<string, string> = { 'src/mcp/sdk.ts': 'sdk.cjs', 'src/evidence/asn1.ts': 'asn1.cjs' };

// Each bundle that requires a chunk names it beside itself; the full CLI requires every chunk (the
// look-up bundle, only those its one noun reaches).
for (const file of BUNDLES) {
  let text = readFileSync(file, 'latin1');
  for (const [source, chunk] of Object.entries(CHUNKS)) {
    const from = `require("../${source}")`;
    if (!text.includes(from)) {
      if (file === FULL) throw new Error(`dist/cli.js: expected ${from}, found none`);
      continue;
    }
    text = text.replaceAll(from, `require("./${chunk}")`);
  }
  writeFileSync(file, text, 'latin1');
}
