/**
 * Flag values every command parses the same way: one line naming the flag, the range and what was
 * given, with a hint (a UsageError, exit 2), before anything is sent.
 */
import { UsageError } from './errors.js';

/** "2h", "90m", "45s", "1h30m" or plain seconds, in ms; undefined when the flag is absent. */
export function parseDuration(v: unknown, flag: string, hint: string): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim().toLowerCase();
  const m = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s?)?$/.exec(s);
  const ms = m && s !== '' ? (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000 : Number.NaN;
  if (!(ms > 0)) throw new UsageError(`${flag} must be a length such as 2h, 90m, 45s or 1h30m, got "${String(v)}"`, hint);
  return ms;
}

/** A whole number within [min, max], or undefined when the flag is absent. */
export function wholeNumber(v: unknown, flag: string, min: number, max: number, hint: string): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  const n = /^\d+$/.test(s) ? Number(s) : Number.NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${String(v)}"`, hint);
  return n;
}

/**
 * --file-mode: what a report, export or bundle may be read by. 600 (the default: only you) or 644
 * (everyone on this machine), set exactly whatever the umask; nothing wider: geo never writes a
 * file others may change.
 */
export function fileMode(v: unknown): 0o600 | 0o644 | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  if (s === '600') return 0o600;
  if (s === '644') return 0o644;
  throw new UsageError(`--file-mode takes 600 (only you) or 644 (everyone on this machine may read it), got "${String(v)}"`, 'reports, exports and bundles are 0600 unless you ask for 644');
}

/** The --file-mode option's help, the same on every command that writes a file. */
export const FILE_MODE_HELP = 'who may read the file geo writes: 600 (default, only you) or 644 (everyone on this machine); set exactly, whatever the umask';
