/**
 * Questions for accessible mode: one line asked, one line read, nothing redrawn, as a
 * screen reader or a braille display needs (the @inquirer prompts repaint the line on each key).
 * The answer is typed in the terminal's own line mode; a key is read with echo off.
 */
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { CancelledError } from '../errors.js';
import type { IO } from './io.js';
import type { Prompter } from './prompter.js';

/** Ctrl-C (SIGINT aborts `signal` in cli.ts) or a closed stdin: a cancellation, exit 130. */
async function ask(io: IO, question: string, signal: AbortSignal | undefined, hidden = false): Promise<string> {
  // A hidden answer: readline in raw mode echoes into a stream that drops it.
  const output = hidden ? new Writable({ write: (_c, _e, done) => done() }) : io.stderr;
  // The terminal is in raw mode (no echo) before the question invites typing.
  const rl = createInterface({ input: io.stdin, output, terminal: hidden });
  if (hidden) io.stderr.write(question);
  try {
    const closed = new Promise<never>((_, reject) => rl.once('close', () => reject(new CancelledError())));
    closed.catch(() => {}); // settled by the answer first, or it is the answer
    const answer = await Promise.race([rl.question(hidden ? '' : question, signal ? { signal } : {}), closed]);
    if (hidden) io.stderr.write('\n');
    return answer;
  } catch (err) {
    if ((err as Error).name === 'AbortError' || err instanceof CancelledError) throw new CancelledError();
    throw err;
  } finally {
    rl.close();
  }
}

export function plainPrompter(io: IO, signal?: AbortSignal): Prompter {
  return {
    async input(message, opts = {}) {
      const def = opts.default !== undefined ? ` [${opts.default}]` : '';
      for (;;) {
        const a = (await ask(io, `${message}${def}: `, signal)).trim();
        if (a !== '' || !opts.required) return a === '' ? (opts.default ?? '') : a;
        io.stderr.write('An answer is required.\n');
      }
    },
    password: (message) => ask(io, `${message}: `, signal, true),
    // Each answer on its own numbered line, once; the number (or the answer's words) is typed.
    async select(message, choices, def) {
      const first = Math.max(0, choices.findIndex((c) => c.value === def));
      io.stderr.write(`${choices.map((c, i) => `  ${i + 1}. ${c.name}${c.description ? ` (${c.description})` : ''}`).join('\n')}\n`);
      for (;;) {
        const a = (await ask(io, `${message} [${first + 1}]: `, signal)).trim().toLowerCase();
        if (a === '') return choices[first]!.value;
        const n = Number(a);
        const hit = Number.isInteger(n) && n >= 1 && n <= choices.length ? choices[n - 1] : choices.find((c) => c.name.toLowerCase() === a || c.value === a);
        if (hit) return hit.value;
        io.stderr.write(`Answer a number from 1 to ${choices.length}.\n`);
      }
    },
    async confirm(message, def = false) {
      for (;;) {
        const a = (await ask(io, `${message} (${def ? 'Y/n' : 'y/N'}): `, signal)).trim().toLowerCase();
        if (a === '') return def;
        if (['y', 'yes'].includes(a)) return true;
        if (['n', 'no'].includes(a)) return false;
        io.stderr.write('Answer y or n.\n');
      }
    },
  };
}
