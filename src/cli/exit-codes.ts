/**
 * The ONE table from failure to exit code (DESIGN.md "Exit codes"): the codes, what each means in
 * words, and which error gets which. main() (src/cli.ts) asks it once per run.
 */
import { InputChangedError } from '../api/body.js';
import { ApiError, BaseUrlError, ContractError, NetworkError, RedirectError, RequestValidationError, TimeoutError } from '../api/errors.js';
import { BelowConfidenceError, BudgetError, CancelledError, ClaimContradictedError, ConfigError, KeyringError, MissingKeyError, NotVerifiedError, PartialFailureError, ServiceAnswerError, StoreError, UsageError } from '../errors.js';
import type { ExitMeanings } from '../help/reference.js';

export const EXIT = {
  ok: 0, unexpected: 1, notVerified: 1, usage: 2, auth: 3, credits: 4, rateLimited: 5, service: 6, partial: 7, belowConfidence: 8, contradicted: 9, cancelled: 130,
} as const;

/**
 * What each code of EXIT means, in words: `geo help exit-codes`, the reference and the man pages
 * are made from this (test/help/topics.test.ts checks every code of EXIT is here).
 */
export const EXIT_MEANINGS: ExitMeanings = [
  [EXIT.ok, 'success'],
  [EXIT.unexpected, 'an unexpected failure (--debug shows the stack), or a check that did not verify (geo cases verify)'],
  [EXIT.usage, 'usage or invalid input: a bad flag or file, a plan above --max-credits or not confirmed; nothing was sent'],
  [EXIT.auth, 'authentication or permission: the key was refused (401, 403), missing, or the keyring would not answer'],
  [EXIT.credits, "credits: not enough (402), or the --max-credits budget or the store's budget ran out (the rest not sent)"],
  [EXIT.rateLimited, 'rate limited (429) after retries'],
  [EXIT.service, 'the service or the network failed after retries (5xx, timeout, connection reset, an unreadable answer)'],
  [EXIT.partial, 'some inputs of a batch failed or were skipped (each has its record; the others succeeded)'],
  [EXIT.belowConfidence, 'a result is below --min-confidence (it is still printed)'],
  [EXIT.contradicted, 'a claim was contradicted (geo claims check --fail-on contradicts; every verdict is still printed)'],
  [EXIT.cancelled, 'cancelled: Ctrl-C, or the output closed (a rerun of the same command finishes the work, paying nothing twice)'],
];

/** The one table from failure to exit code. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof PartialFailureError) return err.exitOverride ?? EXIT.partial;
  if (err instanceof BelowConfidenceError) return EXIT.belowConfidence;
  if (err instanceof ClaimContradictedError) return EXIT.contradicted;
  if (err instanceof CancelledError) return EXIT.cancelled;
  if (err instanceof NotVerifiedError) return EXIT.notVerified;
  // A file rewritten while it was sent is an input problem too: nothing more went out for it.
  if (err instanceof UsageError || err instanceof RequestValidationError || err instanceof ConfigError || err instanceof BaseUrlError || err instanceof InputChangedError) return EXIT.usage;
  if (err instanceof MissingKeyError || err instanceof KeyringError) return EXIT.auth;
  if (err instanceof BudgetError) return EXIT.credits;
  // A team store that cannot be reached: nothing was claimed or sent.
  if (err instanceof StoreError && err.kind === 'unreachable') return EXIT.service;
  // A team store that refused the login or what the role asked (its grants): nothing was changed.
  if (err instanceof StoreError && err.kind === 'denied') return EXIT.auth;
  if (err instanceof ApiError) {
    if (err.status === 401 || err.status === 403) return EXIT.auth;
    if (err.status === 402) return EXIT.credits;
    if (err.status === 429) return EXIT.rateLimited;
    // Still running when the deadline passed: nothing about the input is wrong; the service has it.
    if (err.status >= 500 || err.code === 'idempotency_in_progress') return EXIT.service;
    return EXIT.usage;
  }
  if (err instanceof NetworkError || err instanceof TimeoutError || err instanceof ContractError || err instanceof RedirectError || err instanceof ServiceAnswerError) return EXIT.service;
  if (isCommanderError(err)) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  return EXIT.unexpected;
}

interface CommanderErrorLike {
  code: string;
  exitCode: number;
  message: string;
}

/** commander's own errors (a bad flag, --help, --version), told apart by their `commander.` code. */
export function isCommanderError(err: unknown): err is CommanderErrorLike {
  return typeof err === 'object' && err !== null && typeof (err as CommanderErrorLike).code === 'string' && (err as CommanderErrorLike).code.startsWith('commander.');
}
