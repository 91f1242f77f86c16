/**
 * Failures that belong to the CLI rather than the API. cli.ts maps these, and the errors in
 * api/errors.ts, to exit codes in one table (DESIGN.md "Exit codes").
 */

/** An error with an optional second line telling the user what to do (cli.ts prints it as "hint:"). */
export class HintedError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

/** Bad flags, arguments or local input; nothing was sent. Exit 2. */
export class UsageError extends HintedError {
  override readonly name: string = 'UsageError';
}

/** The local config or key store cannot be read or written. Exit 2 (fixable by the user). */
export class ConfigError extends HintedError {
  override readonly name = 'ConfigError';
}

/**
 * The user answered no at a prompt: a choice, not an interruption, so exit 2 (as gh),
 * with words that fit what was not done and a hint for doing it without the question.
 */
export class DeclinedError extends UsageError {
  override readonly name = 'DeclinedError';
}

/** The user pressed Ctrl-C or the run was interrupted. Exit 130. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  constructor(message = 'cancelled', readonly hint?: string) {
    super(message);
  }
}

/**
 * The store's budget (`geo store budget set`) has no room for a request: nothing was
 * sent. Exit 4, as a balance that ran out. The message says the cap and who spent it.
 */
export class BudgetError extends HintedError {
  override readonly name = 'BudgetError';
}

/** The leading confidence is below --min-confidence. Exit 8. Output was already written. */
export class BelowConfidenceError extends Error {
  override readonly name = 'BelowConfidenceError';
  constructor(readonly confidence: number, readonly minimum: number) {
    super(`confidence ${confidence} is below --min-confidence ${minimum}`);
  }
}

/** Some inputs of a batch failed; the others succeeded and were written. Exit 7. */
export class PartialFailureError extends Error {
  override readonly name = 'PartialFailureError';
  constructor(readonly failed: number, readonly total: number, readonly exitOverride?: number) {
    super(`${failed} of ${total} inputs failed`);
  }
}

/**
 * `geo claims check --fail-on contradicts`: at least one claim was contradicted. Every
 * verdict was printed first; this is the one line on stderr. Exit 9, for scripts.
 */
export class ClaimContradictedError extends HintedError {
  override readonly name = 'ClaimContradictedError';
  constructor(readonly contradicted: number, readonly checked: number) {
    super(`${contradicted} of ${checked} claim${checked === 1 ? '' : 's'} contradicted (--fail-on contradicts)`, 'each verdict above names its rule and reason; geo claims check --help lists the rules');
  }
}

/** No API key is configured. Exit 3 (authentication); nothing was sent. */
export class MissingKeyError extends Error {
  override readonly name = 'MissingKeyError';
  /** `hint`: what else the command can do without a key (cases: --local). */
  constructor(readonly hint = 'set GEO_API_KEY, run `geo keys add`, or try any command with --sandbox') {
    super('no API key is configured');
  }
}

/**
 * The service answered, or may have, but geo cannot settle the outcome now: a paid answer without
 * usable coordinates (kept in the journal), an analysis still running past the deadline, a case
 * that may have been created. Exit 6 (service); the hint says where the answer is kept or how to
 * look, never to send a non-idempotent request again.
 */
export class ServiceAnswerError extends HintedError {
  override readonly name = 'ServiceAnswerError';
  declare readonly hint: string;
  constructor(message: string, hint: string) {
    super(message, hint);
  }
}

/**
 * The local store (SQLite, src/store/) cannot be opened, read or written: damaged, read-only, full,
 * or locked past the busy timeout. Exit 1. `kind` lets a caller that holds a paid answer say what
 * it does instead (print it, and name the key that replays it free). A team store that cannot be
 * reached is `unreachable` (exit 6); one that refuses the login or what the role asked (its
 * grants: only the admin sets the budget) is `denied` (exit 3, as a refused key).
 */
export class StoreError extends HintedError {
  override readonly name = 'StoreError';
  constructor(message: string, readonly kind: 'damaged' | 'readonly' | 'full' | 'busy' | 'newer' | 'older' | 'unreachable' | 'denied' | 'other', hint?: string) {
    super(message, hint);
  }
}

/**
 * The OS keyring is needed and cannot be used: GEO_KEYRING=required and no keyring answered (or CI
 * is set), or a profile's key is in a keyring that cannot be read now. Also ssh-agent, the other
 * keeper of keys: none, unreachable, not holding the signing key, or refusing to sign.
 * Exit 3 (authentication, as a missing key): nothing was stored, signed or sent.
 */
export class KeyringError extends HintedError {
  override readonly name = 'KeyringError';
}

/**
 * A bundle (or custody log) that does not verify: every failure was listed on stdout; this is the
 * one line on stderr. Exit 1, so `geo cases verify case.zip && …` goes on only for a bundle that verifies.
 */
export class NotVerifiedError extends HintedError {
  override readonly name = 'NotVerifiedError';
  declare readonly hint: string;
  constructor(message: string, hint: string) {
    super(message, hint);
  }
}
