/**
 * Build step: man/man1/*.1 (geo(1) and one page per command) and docs/reference.md,
 * both made from the command definitions --help draws (src/cli.ts definitions()), so the shipped
 * pages say what the installed geo does. man/ is not kept in git, as dist/ is not.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { EXIT_MEANINGS, definitions } from '../cli.js';
import { manPages } from '../help/man.js';
import { referenceMarkdown } from '../help/reference.js';

const root = new URL('../../', import.meta.url).pathname;
const version = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;
const program = definitions();

rmSync(`${root}man`, { recursive: true, force: true });
mkdirSync(`${root}man/man1`, { recursive: true });
for (const p of manPages(program, version, EXIT_MEANINGS)) writeFileSync(`${root}man/man1/${p.file}`, p.text);
writeFileSync(`${root}docs/reference.md`, referenceMarkdown(program, EXIT_MEANINGS));
