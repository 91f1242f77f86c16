/**
 * The sections a verification reports apart (DESIGN.md "Custody"): integrity (the
 * chain and everything it binds), signatures (custody-sign.ts), timestamps (custody-stamps.ts)
 * and simulated answers, each its own object in --json and its own line on screen.
 */

/** Answers a sandbox gave: what they are, whatever else verifies. */
export interface SimulatedSection {
  /** Distinct answers the custody log says a sandbox gave. */
  answers: number;
  /** --allow-sandbox: checked as a test case, not refused. */
  allowed: boolean;
  /** No simulated answers, or they were allowed (or the log could not be read: integrity fails then). */
  ok: boolean;
  /** Whether the custody log could be read to count them (a bundle refused before it was read: not). */
  checked: boolean;
}

export function simulatedSection(answers: number, allowed: boolean, checked = true): SimulatedSection {
  return { answers, allowed, ok: answers === 0 || allowed, checked };
}

/** The command quoted whole (a wrapped hint never splits it) and naming what was verified, so it can be run as shown. */
export const sandboxHint = (target: string): string => `a sandbox answered them, not the service: \`geo cases verify ${target} --allow-sandbox\` checks a test case as such`;

/**
 * What an intact chain proves, said on every verification (then 31). Unsigned, nothing:
 * whoever holds the log can rebuild it whole, every hash recomputed, and re-pin it. Signed, the
 * chain up to each signed head is what that key vouched for, and an entry after the last
 * signature, a cut, a rewrite or a reordering fails (custody-sign.ts); what stays unprovable is
 * the signer's honesty, and whether a case that should be signed had its signatures stripped
 * with everything after them (--require-signature, or a head given apart, catches that).
 */
export const CAVEAT = {
  case: {
    unsigned: 'the chain is intact; it is not signed, so whoever holds this database could have rebuilt it: geo cases sign binds it to your key',
    signed: 'the chain is intact and bound by the signatures below: an entry after the last one, a cut, a rewrite or a reordering fails',
  },
  bundle: {
    unsigned: 'the chain is intact and binds every member; it is not signed, so whoever made or holds this bundle could have rebuilt it whole: compare its head with the one its sender gave you apart from it',
    signed: 'the chain is intact, binds every member, and is bound by the signatures below: check whose keys they are (--allowed-signers)',
  },
} as const;

export const caveat = (kind: 'case' | 'bundle', signed: boolean): string => CAVEAT[kind][signed ? 'signed' : 'unsigned'];
