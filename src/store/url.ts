/**
 * A team store's URL: postgres://user:password@host:port/db?sslmode=verify-full&sslrootcert=FILE.
 * Its password is a secret like an API key: shown masked everywhere (maskStoreUrl), kept apart
 * from the URL in the OS keyring by `geo config set store` (splitPassword), never put on a child
 * process's command line. Only the store reads the whole URL.
 */
import { UsageError } from '../errors.js';

const SCHEMES = ['postgres:', 'postgresql:'];

/** Whether `v` names a PostgreSQL server (else it is not a store URL geo knows). */
export function isTeamUrl(v: string): boolean {
  return SCHEMES.some((s) => v.trim().toLowerCase().startsWith(`${s}//`));
}

function parse(v: string): URL {
  try {
    return new URL(v.trim());
  } catch {
    throw new UsageError('the store URL cannot be read', 'postgres://USER@HOST:5432/DB?sslmode=verify-full (the password from the OS keyring, ~/.pgpass or PGPASSWORD)');
  }
}

/** The URL checked: a PostgreSQL scheme, nothing else (a mistyped URL never falls back silently). */
export function checkStoreUrl(v: string): string {
  if (!isTeamUrl(v)) throw new UsageError(`a store is "local" or a postgres:// URL, not "${maskStoreUrl(v).slice(0, 80)}"`, 'geo config set store postgres://USER@HOST:5432/DB?sslmode=verify-full');
  parse(v);
  return v.trim();
}

/** The URL with its password (and any password= parameter) replaced by ***. */
export function maskStoreUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v.trim());
  } catch {
    // Unreadable: mask whatever sits between "://user:" and "@".
    return v.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@').replace(/(password=)[^&]*/gi, '$1***');
  }
  if (u.password) u.password = '***';
  for (const k of [...u.searchParams.keys()]) if (k.toLowerCase() === 'password') u.searchParams.set(k, '***');
  return u.toString().replace(/%2A%2A%2A/g, '***');
}

/** The password taken out of the URL (to keep in the keyring), and the URL without it. */
export function splitPassword(v: string): { url: string; password?: string } {
  const u = parse(v);
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  u.password = '';
  return { url: u.toString(), ...(password !== undefined ? { password } : {}) };
}

/** The URL with the keyring's password put back (only the store's connection ever holds it). */
export function withPassword(v: string, password: string): string {
  const u = parse(v);
  u.password = encodeURIComponent(password);
  return u.toString();
}
