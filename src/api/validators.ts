/**
 * Plain string checks the contract's schemas use (schemas.ts re-exports them): no zod, so the
 * client's base-URL rule and the sandbox can use them without building a schema.
 */

/** Strict RFC 4648 base64: no whitespace, no data: prefix, correct padding. A loop, not a regex, for 20 MB inputs. */
export function isStrictBase64(s: string): boolean {
  if (s.length === 0 || s.length % 4 !== 0) return false;
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  for (let i = 0; i < s.length - pad; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
    if (!ok) return false;
  }
  return true;
}

/** scope.captured_at "must begin with a real calendar date": 2024-02-29 yes, 2025-02-29 and 2026-02-30 no. */
export function beginsWithCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
/** Loopback is the one place plain http is allowed (sandbox, tests). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** image_url is a "public HTTPS image URL"; http is accepted for loopback only (the sandbox's own tests). */
export function isAcceptableImageUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname));
  } catch {
    return false;
  }
}
