/**
 * How a wait is told on stderr: any wait over 5 s says its reason and when it ends, as a
 * clock time and in seconds, so a silent terminal never means "stuck".
 */

/** 14:05:09, local time. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/**
 * A wait longer than this is said on stderr, with its reason and its clock time (batch/pacer.ts
 * for a batch's next start, context.ts for a retry's backoff); shorter ones as "in 3 s" alone.
 */
export const SAY_END_AFTER_MS = 5000;

/** "at once", "in 3 s", or "until 14:05:09 (in 61 s)" for a wait over 5 s. */
export function waitEnds(untilMs: number, nowMs: number): string {
  const ms = Math.max(0, untilMs - nowMs);
  if (ms === 0) return 'at once';
  const s = `${Math.max(1, Math.ceil(ms / 1000))} s`;
  return ms > SAY_END_AFTER_MS ? `until ${clockTime(untilMs)} (in ${s})` : `in ${s}`;
}
