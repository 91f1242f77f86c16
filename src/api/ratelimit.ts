/**
 * Rate-limit headers (api-spec.md "Limits": every API response carries them). Several generations
 * of the IETF draft are in the wild, so all of them are read, most specific first:
 *
 *   RateLimit: "default";r=29;t=42         structured field: r = remaining, t = seconds to reset
 *   RateLimit-Policy: "default";q=30;w=60  structured field: q = quota, w = window seconds
 *   RateLimit-Limit / -Remaining / -Reset  integers; Reset is a UNIX timestamp (seconds)
 *   X-RateLimit-Limit / -Remaining / -Reset  the same, older names
 *   Retry-After                            seconds or an HTTP-date (on 429)
 *
 * A header that does not parse is ignored, never thrown: pacing is advice, the answer still counts.
 * A wait or reset further off than MAX_SERVER_WAIT_S (a day: the longest window a quota plausibly
 * has; `Retry-After: 99999999999999999999` overflows every integer type) is clamped to it, and an
 * unreadable Retry-After (`-5`, `soon`) is ignored; either is named in `note`, so the error that
 * ends the run can say why. retry.ts does not sit through a wait that long: exit 5.
 */

/** The furthest wait or reset geo reads from a header, in seconds; anything beyond is clamped to it. */
export const MAX_SERVER_WAIT_S = 86_400;

export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** epoch ms */
  resetAt?: number;
  windowS?: number;
  retryAfterS?: number;
  /** What was wrong with a Retry-After or reset header: clamped, or unreadable and ignored. */
  note?: string;
}

type Params = Record<string, number>;
interface SfMember {
  name: string;
  params: Params;
}

/** Non-negative number written the way sf-integer / sf-decimal allow; anything else is undefined. */
function num(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  if (!/^\d{1,15}(\.\d{1,3})?$/.test(t)) return undefined;
  return Number(t);
}

/**
 * A deliberately small structured-field list parser (RFC 8941 subset): members split on commas,
 * each an item (string or token) followed by `;key=value` parameters with numeric values.
 * Non-numeric parameters are skipped; a member without a usable name keeps the empty name.
 */
function parseSfList(value: string): SfMember[] {
  const out: SfMember[] = [];
  for (const rawMember of value.split(',')) {
    const parts = rawMember.split(';').map((p) => p.trim());
    const head = parts.shift() ?? '';
    const name = /^"[^"]*"$/.test(head) ? head.slice(1, -1) : /^[A-Za-z*][\w:/.%*+-]*$/.test(head) ? head : '';
    const params: Params = {};
    // The older draft-07 combined form has no item: `limit=30, remaining=29, reset=42`.
    const pairs = head.includes('=') ? [head, ...parts] : parts;
    for (const p of pairs) {
      const m = /^([a-z*][a-z0-9_.*-]*)=(.*)$/.exec(p);
      const n = m ? num(m[2]) : undefined;
      if (m && n !== undefined) params[m[1]!] = n;
    }
    out.push({ name, params });
  }
  // The draft-07 form spreads one policy over several nameless members: merge them into one.
  const nameless = out.filter((m) => m.name === '');
  if (nameless.length <= 1) return out;
  return [...out.filter((m) => m.name !== ''), { name: '', params: Object.assign({}, ...nameless.map((m) => m.params)) as Params }];
}

/** `30`, or the leading integer of the draft-03 `30, 30;w=60` form; `30abc` is malformed. */
function leadingInt(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /^\s*(\d{1,15})\s*(?:$|[,;])/.exec(v);
  return m ? Number(m[1]) : undefined;
}

/**
 * RateLimit-Reset is a UNIX timestamp per the spec; some servers send a delta instead. A value
 * too small to be a date in this century (< 1e9) is read as seconds from now.
 */
function resetToMs(v: number | undefined, nowMs: number): number | undefined {
  if (v === undefined) return undefined;
  return v < 1e9 ? nowMs + v * 1000 : v * 1000;
}

/** A header's text for a note: short, and only what a header may hold. */
const quoted = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);

type Seconds = { s?: number; note?: string };

function retryAfterSeconds(v: string | undefined, nowMs: number): Seconds {
  if (v === undefined) return {};
  const t = v.trim();
  // Any number of digits: a value past a day is still a "no" for that long, not a header to ignore.
  if (/^\d+$/.test(t)) return clampS(Number(t), `Retry-After ${quoted(t)}`);
  // HTTP-date (IMF-fixdate and the obsolete forms all name the day and end in GMT).
  const at = /^[A-Za-z]{3,9},? .+ GMT$/.test(t) ? Date.parse(t) : Number.NaN;
  if (Number.isNaN(at)) return { note: `Retry-After ${quoted(t)} is neither seconds nor an HTTP date, so geo ignored it` };
  return clampS(Math.max(0, Math.ceil((at - nowMs) / 1000)), `Retry-After ${quoted(t)}`);
}

function clampS(s: number, what: string): Seconds {
  return s > MAX_SERVER_WAIT_S ? { s: MAX_SERVER_WAIT_S, note: `${what} is more than a day away, read as one day` } : { s };
}

export function parseRateLimit(headers: Record<string, string>, nowMs: number): RateLimitInfo {
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (typeof v === 'string') h[k.toLowerCase()] = v;
  const info: RateLimitInfo = {};
  try {
    const policies = h['ratelimit-policy'] !== undefined ? parseSfList(h['ratelimit-policy']) : [];
    const limits = h['ratelimit'] !== undefined ? parseSfList(h['ratelimit']) : [];
    // With several policies, the one with the fewest requests left is the one that will bite.
    let current: SfMember | undefined;
    for (const m of limits) {
      const r = m.params.r ?? m.params.remaining;
      if (r === undefined) continue;
      if (!current || r < (current.params.r ?? current.params.remaining ?? Infinity)) current = m;
    }
    current ??= limits.find((m) => Object.keys(m.params).length > 0);
    const policy = policies.find((p) => current && p.name === current.name && p.params.q !== undefined) ?? policies.find((p) => p.params.q !== undefined);

    const rem = current?.params.r ?? current?.params.remaining;
    const t = current?.params.t ?? current?.params.reset;
    const q = policy?.params.q ?? current?.params.limit;
    const w = policy?.params.w;

    const limit = q ?? leadingInt(h['ratelimit-limit']) ?? leadingInt(h['x-ratelimit-limit']);
    const remaining = rem ?? leadingInt(h['ratelimit-remaining']) ?? leadingInt(h['x-ratelimit-remaining']);
    let resetAt = t !== undefined ? nowMs + t * 1000 : resetToMs(leadingInt(h['ratelimit-reset']) ?? leadingInt(h['x-ratelimit-reset']), nowMs);
    const windowS = w ?? windowFromDraft03(h['ratelimit-limit']);
    const retryAfter = retryAfterSeconds(h['retry-after'], nowMs);
    const notes = retryAfter.note !== undefined ? [retryAfter.note] : [];
    if (resetAt !== undefined && resetAt > nowMs + MAX_SERVER_WAIT_S * 1000) {
      resetAt = nowMs + MAX_SERVER_WAIT_S * 1000;
      notes.push('the rate-limit reset is more than a day away, read as one day');
    }
    if (limit !== undefined) info.limit = limit;
    if (remaining !== undefined) info.remaining = remaining;
    if (resetAt !== undefined) info.resetAt = resetAt;
    if (windowS !== undefined && windowS > 0) info.windowS = windowS;
    if (retryAfter.s !== undefined) info.retryAfterS = retryAfter.s;
    if (notes.length) info.note = notes.join('; ');
  } catch {
    // Never throw on advice headers; whatever was gathered is lost, the response is not.
  }
  return info;
}

/** draft-03 `RateLimit-Limit: 30, 30;w=60` carries the window as a parameter. */
function windowFromDraft03(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /;\s*w=(\d{1,9})\b/.exec(v);
  return m ? Number(m[1]) : undefined;
}
