/**
 * Flag values every command parses the same way: one line naming the flag, the range and what was
 * given, with a hint (a UsageError, exit 2), before anything is sent.
 */
import { UsageError } from './errors.js';

/** A whole number within [min, max], or undefined when the flag is absent. */
export function wholeNumber(v: unknown, flag: string, min: number, max: number, hint: string): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  const n = /^\d+$/.test(s) ? Number(s) : Number.NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${String(v)}"`, hint);
  return n;
}
