/**
 * Which keeper a command uses (src/store/postgres/keeper-start.ts): one per store URL and login, so
 * a run as another database user or with another password never gets a backend logged in for
 * the first; what the keeper inherits of the environment (libpq's variables, HOME, never the API
 * key); GEO_STORE_KEEP read as a length, 0 or off.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KEEP_MS, keepMs, keeperDir, keeperEnv } from '../../src/store/postgres/keeper-start.js';

const URL_A = 'postgres://ana@db.example.org/geo?sslmode=verify-full';
const base = { HOME: '/home/ana', GEO_STATE_DIR: '/s' };

describe('the keeper a command uses', () => {
  it('one folder per URL and login: PGUSER, PGPASSWORD or the URL\'s password change it; GEO_API_KEY, the profile or PATH do not', () => {
    const dir = keeperDir(base, URL_A);
    expect(dir.startsWith('/s/keepers/')).toBe(true);
    expect(keeperDir({ ...base }, URL_A)).toBe(dir);
    expect(keeperDir({ ...base, GEO_API_KEY: 'orca_x', GEO_PROFILE: 'work', PATH: '/opt/venv/bin:/usr/bin' }, URL_A)).toBe(dir);
    expect(keeperDir({ ...base, PGUSER: 'bob' }, URL_A)).not.toBe(dir);
    expect(keeperDir({ ...base, PGPASSWORD: 'other' }, URL_A)).not.toBe(dir);
    expect(keeperDir(base, URL_A.replace('ana@', 'ana:pw@'))).not.toBe(dir);
    expect(dir).not.toContain('ana');
  });

  it('a state folder too deep for a Unix socket\'s path: a folder in the temporary folder instead', () => {
    const deep = keeperDir({ ...base, GEO_STATE_DIR: `/${'d'.repeat(120)}` }, URL_A);
    expect(deep).toMatch(/geo-keepers-\d+\/[0-9a-f]{16}$/);
  });

  it('its environment: libpq\'s variables, HOME and CA settings only', () => {
    expect(keeperEnv({ ...base, PGPASSWORD: 'p', PGSSLROOTCERT: '/ca.pem', GEO_API_KEY: 'orca_x', NODE_OPTIONS: '--inspect', PATH: '/usr/bin', SSL_CERT_FILE: '/c' })).toEqual({ HOME: '/home/ana', PGPASSWORD: 'p', PGSSLROOTCERT: '/ca.pem', SSL_CERT_FILE: '/c' });
  });

  it('GEO_STORE_KEEP: unset is 5 minutes; 90s, 15m and 1h30m are lengths; 0 and off turn it off; anything else is a usage error', () => {
    expect(keepMs({})).toBe(DEFAULT_KEEP_MS);
    expect(DEFAULT_KEEP_MS).toBe(300_000);
    expect(keepMs({ GEO_STORE_KEEP: '90s' })).toBe(90_000);
    expect(keepMs({ GEO_STORE_KEEP: '15m' })).toBe(900_000);
    expect(keepMs({ GEO_STORE_KEEP: '1h30m' })).toBe(5_400_000);
    expect(keepMs({ GEO_STORE_KEEP: '0' })).toBe(0);
    expect(keepMs({ GEO_STORE_KEEP: 'off' })).toBe(0);
    expect(() => keepMs({ GEO_STORE_KEEP: 'soon' })).toThrow(/GEO_STORE_KEEP must be a length/);
  });
});
