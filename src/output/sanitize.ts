/**
 * Server strings never reach a terminal raw: ESC/CSI/OSC sequences (colour, hyperlinks OSC 8,
 * clipboard OSC 52), C1 controls, carriage returns and bidi overrides could rewrite the screen or
 * disguise text. Secrets are redacted from anything logged.
 */
import { SECRET_MASK, maskSecrets } from '../api/mask.js';

// C0 controls except \t and \n, DEL, C1 controls, and the bidi embedding/override/isolate marks.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_WITH_NEWLINES = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const c = ch.charCodeAt(0);
  if (ch === '\n') return '\\n';
  if (ch === '\t') return '\\t';
  if (ch === '\r') return '\\r';
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
}

/**
 * A lone surrogate: how a body byte that is not UTF-8 reads once parsed (api/decode.ts writes it
 * as \udcXX). A terminal would draw U+FFFD and hide which byte it was, so it is shown escaped.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const escapeLone = (t: string): string => t.replace(LONE_SURROGATE, (ch) => `\\u${ch.charCodeAt(0).toString(16)}`);

/** For text blocks (reasoning, thinking): keeps newlines and tabs, escapes the rest visibly. */
export function sanitize(s: unknown): string {
  return escapeLone(String(s ?? '').replace(UNSAFE, visible));
}

/** For one-line cells (tables, key/value rows): newlines are escaped too. */
export function sanitizeInline(s: unknown): string {
  return escapeLone(String(s ?? '').replace(UNSAFE_WITH_NEWLINES, visible));
}

/**
 * For JSON text printed as received: raw C1 and bidi characters become \\u escapes, which parse to
 * the same value, so `--json` stays byte-for-byte the body except where a terminal would be at risk.
 * A raw carriage return can only be whitespace between tokens in valid JSON (inside a string it must
 * be escaped), yet on a terminal it sends the cursor back to overwrite the line: it is dropped,
 * which leaves the parsed value unchanged.
 */
export function sanitizeJsonText(raw: string): string {
  return raw.replace(UNSAFE_WITH_NEWLINES, (ch) => (ch === '\n' || ch === '\t' ? ch : ch === '\r' ? '' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * Every spelling of each secret masked (api/mask.ts maskSecrets, the one masking function: any
 * case, invisible characters inside, percent, HTML entities, JSON escapes, base64, reversed), and
 * whatever a line gives as an Authorization: Bearer or x-api-key header value. Only the keys geo
 * holds are masked, never text that merely looks like a key.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  return maskSecrets(text, secrets)
    .replace(/(authorization:\s*bearer\s+)[^\s"',]+/gi, `$1${SECRET_MASK}`)
    .replace(/(x-api-key:\s*)[^\s"',]+/gi, `$1${SECRET_MASK}`);
}
