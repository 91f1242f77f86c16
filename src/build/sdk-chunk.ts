/**
 * Build step (package.json "build"): points dist/cli.js at dist/sdk.cjs (.cjs: the package is "type": "module"). The main bundle keeps
 * src/mcp/sdk.ts external (the MCP SDK is bundled apart, loaded only by `geo mcp`), and esbuild
 * writes that require as a path from dist/ back to the source file; at run time it must name the
 * chunk beside the bundle. Fails the build unless it finds exactly that one require.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../../dist/cli.js', import.meta.url);
const text = readFileSync(file, 'latin1');
const from = 'require("../src/mcp/sdk.ts")';
const count = text.split(from).length - 1;
if (count !== 1) throw new Error(`dist/cli.js: expected one ${from}, found ${count}`);
writeFileSync(file, text.replace(from, 'require("./sdk.cjs")'), 'latin1');
