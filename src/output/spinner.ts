/**
 * A spinner on stderr, only when ctx.animate (stderr is a terminal, not CI, not dumb, not quiet):
 * stdout stays pure data, and logs never fill with frames. Shows elapsed seconds, ticking once a
 * second from ctx.now so tests can drive the clock.
 */
import { cut, width } from './fit.js';
import { type IO, stderrColumns } from './io.js';
import { sanitizeInline } from './sanitize.js';

export interface Spinner {
  /** Replace the label (the elapsed time is appended). */
  update(label: string): void;
  /** A line that stays (a retry, a warning), printed above the spinner. */
  note(line: string): void;
  stop(): void;
}

/** The slice of Ctx a spinner needs. */
export interface SpinnerCtx {
  io: IO;
  animate: boolean;
  /** Accessible mode: the label once, as a line, and no frames. */
  accessible?: boolean;
  now(): number;
  globals: { quiet?: boolean };
}

function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

export async function startSpinner(ctx: SpinnerCtx, label: string): Promise<Spinner> {
  const quiet = Boolean(ctx.globals.quiet);
  if (!ctx.animate) {
    // Accessible mode says once what is running (a screen reader gets no spinner to read).
    if (ctx.accessible && !quiet) ctx.io.stderr.write(`${sanitizeInline(label)}…\n`);
    // No terminal: no frames, but lasting notes still reach stderr unless --quiet.
    return { update() {}, note: (line) => void (!quiet && ctx.io.stderr.write(sanitizeInline(line) + '\n')), stop() {} };
  }
  const { default: ora } = await import('ora');
  const started = ctx.now();
  let text = sanitizeInline(label);
  const spinner = ora({
    stream: ctx.io.stderr as NodeJS.WriteStream,
    isEnabled: true,
    // Our own streams decide colour; ora must not touch process.stdin.
    color: ctx.io.colorErr ? 'cyan' : false,
    discardStdin: false,
  });
  // One row: ora clears a wrapped spinner by counting rows, which goes wrong when the terminal is
  // resized mid-run, so the label is cut to the width ("⠋ " takes two columns) and the clock kept.
  const line = () => {
    const clock = ` · ${elapsed(ctx.now() - started)}`;
    // Two more columns for the "^C" the terminal echoes at Ctrl-C: a row it pushes past the edge
    // wraps, and ora then clears only the new row, leaving the frame on screen.
    return cut(text, Math.max(8, stderrColumns(ctx.io) - 5 - width(clock))) + clock;
  };
  spinner.text = line();
  spinner.start();
  const tick = () => (spinner.text = line());
  const timer = setInterval(tick, 1000);
  timer.unref?.();
  return {
    update(next) {
      text = sanitizeInline(next);
      tick();
    },
    note(line) {
      spinner.clear();
      ctx.io.stderr.write(sanitizeInline(line) + '\n');
      spinner.render();
    },
    stop() {
      clearInterval(timer);
      spinner.stop();
    },
  };
}
