/**
 * registry.ts for dist/cli-history.js, the look-up bundle (src/build/build.ts 2b): `geo history` (list,
 * --search, show) registers nothing else, so the bundle it loads leaves out every other command's
 * code, 1.9 -> 1.1 MB read and cached at each start (look-up budgets, bench/store.mjs).
 */
import type { NounLine, Register } from './commands/types.js';
import { register as historyRegister } from './commands/history/register.js';

export const REGISTERS: Record<string, Register> = { history: historyRegister };

export const ONLY_NOUN: string | undefined = 'history';
export const NOUN_LINES: readonly NounLine[] | undefined = undefined;
