/**
 * registry.ts for dist/cli-root.js, the root help's bundle (src/build/build.ts 2c): `geo` and
 * `geo --help` only list the nouns, so this bundle holds no register and no command, only the
 * lines the build recorded from registry.ts (its define __GEO_NOUN_LINES__). It reads and caches
 * a tenth of dist/cli.js at each start (bench/startup.mjs); anything naming a noun, `geo help`
 * included, runs the full CLI (cli.ts handles(), bin/load-cli.js).
 */
import type { NounLine, Register } from './commands/types.js';

export const REGISTERS: Record<string, Register> = {};

export const ONLY_NOUN: string | undefined = '';

export const NOUN_LINES: readonly NounLine[] | undefined = __GEO_NOUN_LINES__;

declare const __GEO_NOUN_LINES__: readonly NounLine[];
