/** Shared setup for the locate tests: a sandbox per file and a runner bound to its pro key. */
import { expect } from 'vitest';
import { type RunOptions, runCli } from '../helpers/run-cli.js';
import { KEYS, type TestSandbox } from '../helpers/sandbox.js';
import { KEY, type PtySession } from '../pty/pty.js';

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

/**
 * Answers a consent prompt in a pseudo-terminal and checks what it cost: "n" exits with `code`
 * and sends nothing; "y" exits with `code` having paid `debits` debits.
 */
export async function answerConsent(t: PtySession, answer: string, code: number, sb: TestSandbox, before: ReturnType<typeof footprint>, debits: number): Promise<void> {
  t.type(answer);
  t.type(KEY.enter);
  expect(await t.exit).toBe(code);
  if (answer === 'n') {
    expect(footprint(sb)).toEqual(before);
    expect(t.screen()).toMatch(/you said no: nothing was sent, nothing spent/);
  }
  else expect(footprint(sb).debits).toBe(before.debits + debits);
}
