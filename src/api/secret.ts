/**
 * A server may echo the key back: in an error message or hint, a header, a success body, in any
 * spelling a reader would still recognise (mask.ts). Whatever it sends, the key must not reach a
 * terminal, a log or a file, so every answer is masked here, in the one layer that holds the key,
 * before anything else reads or keeps it (errors, --json, --debug, the store, custody, bundles).
 * The same function (mask.ts) masks every other output (output/sanitize.ts redact(), geo mcp's results).
 */
import { createHash, createHmac } from 'node:crypto';
import { bodyText, textOf } from './decode.js';
import type { ContractError } from './errors.js';
import { mapStrings, maskSecrets } from './mask.js';
import type { RawAnswer } from './transport.js';

export { SECRET_MASK } from './mask.js';

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

function jsonOf(bytes: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(bodyText(bytes)) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The body with the key masked: the bytes as received but the key's. Should the mask cut a JSON
 * text where it stood (a spelling that begins inside an escape, `\\` before a `\u`), the parsed
 * body is masked string by string and written again, so a paid answer stays readable.
 */
function maskBody(bytes: Buffer, secret: string): Buffer {
  const masked = maskSecrets(bytes, [secret]);
  if (masked === bytes) return bytes;
  const was = jsonOf(bytes);
  if (was === undefined || jsonOf(masked) !== undefined) return masked;
  return Buffer.from(JSON.stringify(mapStrings(was.value, (s) => maskSecrets(s, [secret]))), 'utf8');
}

/**
 * The answer with the key masked out of its headers (names and values) and body. When the body
 * changed, `receivedSha256` is the sha256 of the bytes as received: the record keeps it beside the
 * sha256 of the bytes as kept (evidence/records.ts), and says a mask was applied.
 */
export function scrubAnswer(ans: RawAnswer, secret: string): RawAnswer {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(ans.headers)) headers[maskSecrets(k, [secret])] = maskSecrets(v, [secret]);
  const bytes = maskBody(ans.bytes, secret);
  if (bytes === ans.bytes) return { ...ans, headers };
  return { ...ans, headers, raw: bodyText(bytes), bytes, receivedSha256: ans.receivedSha256 ?? sha256(ans.bytes) };
}

/** A body that ended early (transport.ts cutOff) carries what came, unmasked: masked like any answer. */
export function scrubCutOff(err: ContractError, secret: string): void {
  if (err.rawBytes === undefined) return;
  const bytes = maskSecrets(err.rawBytes, [secret]);
  if (bytes === err.rawBytes) return;
  err.receivedSha256 ??= sha256(err.rawBytes);
  err.rawBytes = bytes;
  err.raw = textOf(bytes);
}

/**
 * Which account paid for a result, without keeping the key: journals and provenance records carry
 * this so one key's answers are never re-emitted for another. HMAC-SHA256 under a fixed
 * domain string, over the service origin and the key: one-way, so a file that leaks tells nothing
 * about the key, and the same key gets a different fingerprint on another service (a sandbox key
 * named like a production one never matches it). 20 hex digits (80 bits): collisions between the
 * handful of keys one user holds are out of reach, and the line stays short.
 */
export function accountFingerprint(baseUrl: string, key: string): string {
  let origin = baseUrl;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    // An unparsable base URL fails in the client with its own hint; the raw text still scopes it.
  }
  return createHmac('sha256', 'geo account fingerprint v1').update(`${origin}\n${key}`).digest('hex').slice(0, 20);
}
