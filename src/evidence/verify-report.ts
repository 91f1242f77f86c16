/**
 * The sections a verification reports apart (issue 30; DESIGN.md "Custody"): integrity (the
 * chain and everything it binds), simulated answers, and later signatures and timestamps, each
 * its own object in --json and its own line on screen, so adding one changes no other.
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

export const SANDBOX_HINT = 'a sandbox answered them, not the service: geo cases verify --allow-sandbox checks a test case as such';

/**
 * What an intact chain does not prove: without a secret, whoever holds the log can rebuild it
 * whole, every hash recomputed, and re-pin it. Said on every verification until heads are signed.
 */
export const UNSIGNED = {
  case: 'the chain is intact; it is not signed, so whoever holds this database could have rebuilt it (geo cases sign, next release)',
  bundle: 'the chain is intact and binds every member; it is not signed, so whoever made or holds this bundle could have rebuilt it whole: compare its head with the one its sender gave you apart from it (geo cases sign, next release)',
} as const;
