/**
 * Interactive questions through @inquirer/prompts, bound to the injected streams (prompts go to
 * stderr so stdout stays data). Loaded only when a command actually asks something.
 */
import type { IO } from './io.js';
import { CancelledError } from '../errors.js';
import { importEsm } from '../lazy/esm.js';
import { plainPrompter } from './prompt-plain.js';
import type { Prompter } from './prompter.js';

type Prompts = typeof import('@inquirer/prompts');

export function createPrompter(io: IO, signal?: AbortSignal, accessible = false): Prompter {
  if (accessible) return plainPrompter(io, signal);
  // A getter: stdin is built only when a prompt runs (src/cli/process-host.ts reads it lazily too).
  const context = { get input() { return io.stdin; }, output: io.stderr, clearPromptOnDone: false, ...(signal ? { signal } : {}) };
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      // Ctrl-C (ExitPromptError) or an aborted signal: a cancellation, exit 130.
      const name = (err as Error).name;
      if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'AbortError') throw new CancelledError();
      throw err;
    }
  };
  return {
    input: (message, opts = {}) =>
      guard(async () => {
        const { input } = await importEsm<Prompts>('@inquirer/prompts');
        return input({ message, required: opts.required ?? false, ...(opts.default !== undefined ? { default: opts.default } : {}) }, context);
      }),
    select: (message, choices, def) =>
      guard(async () => {
        const { select } = await importEsm<Prompts>('@inquirer/prompts');
        // loop: false, so the list reads top to bottom as written (the arrow keys stop at its ends).
        return select({ message, choices, loop: false, ...(def !== undefined ? { default: def } : {}) }, context);
      }),
    password: (message) =>
      guard(async () => {
        const { password } = await importEsm<Prompts>('@inquirer/prompts');
        // No ctrl+t reveal either: a key must never be drawn on screen (screen shares, recordings).
        return password({ message, mask: false, toggleMask: false }, context);
      }),
    confirm: (message, def = false) =>
      guard(async () => {
        const { confirm } = await importEsm<Prompts>('@inquirer/prompts');
        return confirm({ message, default: def }, context);
      }),
  };
}
