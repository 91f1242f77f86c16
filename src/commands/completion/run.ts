/** Picks the generator for the shell; the script is the data, on stdout. */
import type { Handler } from '../types.js';
import { UsageError } from '../../errors.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { zshScript } from './zsh.js';

const SHELLS: Record<string, () => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export function runCompletion(shell: string): string {
  const gen = SHELLS[shell.trim().toLowerCase()];
  if (!gen) throw new UsageError(`no completion for "${shell}"`, 'use one of: bash, zsh, fish');
  return gen();
}

export const completion: Handler = async (ctx, args) => {
  ctx.io.stdout.write(runCompletion(String(args[0])));
};
