/** Lines on stderr shared by the one-image and the many-image output: banner, labels, retries, stops. */
import { basename } from 'node:path';
import { ApiError } from '../../api/errors.js';
import { isLoopbackHost } from '../../api/schemas.js';
import type { BatchStop } from '../../batch/types.js';
import type { Ctx } from '../../context.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { isUrlInput } from './options.js';

export function note(ctx: Pick<Ctx, 'globals' | 'io'>, line: string): void {
  if (!ctx.globals.quiet) ctx.io.stderr.write(sanitizeInline(line) + '\n');
}

/** DESIGN.md: sandbox results are simulated; say so wherever the base URL is loopback. */
export function isSandbox(baseUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false; // an unparsable base URL is reported by the client with its own hint
  }
}
export const SANDBOX_BANNER = 'sandbox: results are simulated, no credits are spent';

export function label(input: string): string {
  if (input === '-') return 'stdin';
  if (isUrlInput(input)) return input.length > 48 ? input.slice(0, 47) + '…' : input;
  return basename(input);
}

export function retryLine(i: { reason: string; delayMs: number; status?: number }): string {
  const wait = `${Math.max(1, Math.round(i.delayMs / 1000))} s`;
  switch (i.reason) {
    case 'rate_limited':
      return `rate limited (429); retrying in ${wait}`;
    case 'in_progress':
      return `the same request is still running on the server (409); checking again in ${wait}`;
    case 'timeout':
      return `no answer in time; retrying in ${wait} with the same Idempotency-Key, so it is never charged twice`;
    default:
      return `${i.status ? `the service answered ${i.status}` : `connection problem (${i.reason})`}; retrying in ${wait} with the same Idempotency-Key`;
  }
}

/** DESIGN.md's exit table for a batch that stopped early (cli.ts maps the rest). */
export function stopExitCode(s: BatchStop): number {
  switch (s.reason) {
    case 'auth':
    case 'forbidden':
      return 3;
    case 'credits':
      return 4;
    case 'rate_limited':
      return 5;
    case 'cancelled':
      return 130;
    case 'not_found':
      return 2;
    case 'retry_budget':
      return s.error instanceof ApiError && s.error.status === 429 ? 5 : 6;
    default:
      return 1;
  }
}

export function fromJournalNote(journal: string | undefined): string {
  return `from the journal, not charged: this exact run was answered before${journal ? ` (${journal})` : ''}; --fresh to analyse again`;
}
