/**
 * Sandbox answers are never evidence (DESIGN.md "Principles"): how geo knows a result is one, and
 * the one wording every view and export uses to say so where a person reads it first.
 *
 * What decides is the sandbox's own response header (api/routes.ts SANDBOX_HEADER, DESIGN.md
 * "Sandbox surface"), never a loopback base URL: buildRecord sets `sandbox` on the record of an
 * answer that carried it, the store keeps it in its `sandbox` column and puts it back on every
 * record it reads. A result that crossed a file (locate's NDJSON, a bare body) or came from a geo
 * too old to record the header has no header left: the sandbox's own words decide there
 * (sandbox/results.ts: reasoning that starts "[sandbox]", or "the sandbox read the metadata").
 * Words only ever add the mark: a real answer that happened to use them would be shown as not
 * evidence, never the other way round.
 */
import { SANDBOX_HEADER } from '../api/routes.js';

/** The mark, word for word, wherever a sandbox answer is shown or exported. */
export const SIMULATED = 'simulated answer (sandbox): not evidence';

/** A record, a view's row or a stored result: anything that carries the sandbox flag (a boolean, or the store's 0/1). */
export interface MaybeSimulated {
  sandbox?: boolean | number | null;
}

export function isSimulated(r: MaybeSimulated | null | undefined): boolean {
  return r?.sandbox === true || r?.sandbox === 1;
}

/** "2 simulated answers (sandbox): not evidence" (the count a case, a report or a bundle opens with). */
export function simulatedCount(n: number): string {
  return `${n} simulated answer${n === 1 ? '' : 's'} (sandbox): not evidence`;
}

/** The answer carried the sandbox's header (names as the client keeps them, any case). */
export function headersSaySandbox(headers: Readonly<Record<string, unknown>> | undefined): boolean {
  return headers !== undefined && Object.keys(headers).some((k) => k.toLowerCase() === SANDBOX_HEADER);
}

/** A body in the sandbox's own words, for results that no longer carry its header (see above). */
export function soundsSimulated(body: unknown): boolean {
  const reasoning = typeof body === 'object' && body !== null ? (body as { reasoning?: unknown }).reasoning : undefined;
  return typeof reasoning === 'string' && (reasoning.startsWith('[sandbox]') || reasoning.includes('the sandbox read the metadata'));
}

/** What every section of a case's report (and each drawn item of its map files) says when the case rests on a sandbox's answers. */
export const SIMULATED_CASE = 'simulated (sandbox): not evidence';
