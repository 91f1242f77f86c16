/** Shared setup for the locate tests: a sandbox per file and a runner bound to its pro key. */
import { type RunOptions, runCli } from '../helpers/run-cli.js';
import { KEYS, type TestSandbox } from '../helpers/sandbox.js';

export const IMG = 'fixtures/images/';
export const ANSI = /\u001b[[\]]/;

export function runner(sb: TestSandbox, key: string = KEYS.pro) {
  return (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { GEO_API_KEY: key, GEO_BASE_URL: sb.url, ...opts.env } });
}

/** The requests and debits of one key: unchanged means nothing was sent or charged. */
export function footprint(sb: TestSandbox, key: string = KEYS.pro) {
  const k = sb.ledger().keys[key]!;
  return { debits: k.debits, model_calls: k.model_calls, api_balance: k.api_balance, idempotency: Object.keys(k.idempotency).length, analyses: k.analyses };
}
