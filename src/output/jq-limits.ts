/**
 * The bounds of --jq (jq.ts runs them), apart so cli/global-flags.ts can show the default in --help
 * without loading the worker's module.
 */

/** Seconds one run of the expression may take (--jq-timeout). */
export const JQ_DEFAULT_TIMEOUT_S = 5;
/** The worker's JavaScript heap (jq's output strings live there), MB. */
export const JQ_HEAP_MB = 256;
