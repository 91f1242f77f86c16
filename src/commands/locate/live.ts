/**
 * The live progress line on stderr: redrawn in place on a terminal (ctx.animate), absent
 * otherwise. Lasting lines (notices, pauses) are printed above it, so it never gets scrolled
 * into the log half-drawn.
 */
import type { Ctx } from '../../context.js';
import { stderrColumns } from '../../output/io.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { stderrLines } from './notes.js';

const CLEAR = '\r\u001b[2K';
// eslint-disable-next-line no-control-regex -- our own SGR colour codes, measured out of the width
const SGR = /\u001b\[[0-9;]*m/g;

export class LiveLine {
  private current = '';
  constructor(private readonly ctx: Pick<Ctx, 'io' | 'animate' | 'globals'>) {}

  update(line: string): void {
    if (!this.ctx.animate) return;
    // One row only: a wrapped line cannot be cleared with \r.
    // Room for the "^C" a terminal echoes at Ctrl-C, which would wrap a full row.
    const max = Math.max(20, stderrColumns(this.ctx.io) - 3);
    this.current = line.replace(SGR, '').length > max ? line.replace(SGR, '').slice(0, max - 1) + '…' : line;
    this.ctx.io.stderr.write(CLEAR + this.current);
  }

  note(line: string): void {
    if (this.ctx.globals.quiet) return;
    const live = this.ctx.animate && this.current !== '';
    this.ctx.io.stderr.write((live ? CLEAR : '') + stderrLines(this.ctx, sanitizeInline(line)) + '\n' + (live ? this.current : ''));
  }

  clear(): void {
    if (this.ctx.animate && this.current !== '') this.ctx.io.stderr.write(CLEAR);
    this.current = '';
  }
}
