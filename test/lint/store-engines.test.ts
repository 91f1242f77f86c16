/**
 * Nothing outside src/store/ knows which engine answers (issue 32, DESIGN.md "Layers"): no file of
 * src/ but the store's imports an engine's folder (store/sqlite/, store/postgres/) or names a
 * database driver (libsql, pg); the PostgreSQL driver is loaded lazily, from the store alone. The
 * team store's SQL keeps no state on a connection between transactions, so a pooler in transaction
 * mode (PgBouncer) may hand each transaction another server connection (test/store/team-pooler.test.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../src/', import.meta.url).pathname;
const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.startsWith('build/'));

describe('the store hides its engines', () => {
  it('no file outside src/store/ imports store/sqlite/, store/postgres/, libsql or pg', () => {
    const offenders = files
      .filter((f) => !f.startsWith('store/'))
      .filter((f) => /from '[^']*store\/(sqlite|postgres)\/|['"](libsql|pg)['"]/.test(readFileSync(root + f, 'utf8')));
    expect(offenders).toEqual([]);
  });
  it('the PostgreSQL driver is required at first use only (one createRequire in postgres/driver.ts), never imported at load', () => {
    // Type imports vanish at build time; a value import or a require would load the driver.
    // driver.ts names 'pg' from source and the build's dist/pg.cjs (__GEO_PG__) in one createRequire.
    const loads = files.filter((f) => /^import (?!type )[^\n]*from 'pg'|require\('pg'\)|\)\([^;\n]*'pg'\)/m.test(readFileSync(root + f, 'utf8')));
    expect(loads).toEqual(['store/postgres/driver.ts']);
    expect(readFileSync(`${root}store/postgres/driver.ts`, 'utf8')).toMatch(/loadPg\(\): PgModule \{\n\s*return \(pg \?\?= createRequire\(import\.meta\.url\)\(typeof __GEO_PG__ === 'string' \? __GEO_PG__ : 'pg'\)/);
  });
  it('the team store\'s SQL needs no session: no session-level advisory lock, no SET outside a transaction, no LISTEN, no named or server-side prepared statement, no temporary table, no held cursor', () => {
    const pgFiles = files.filter((f) => f.startsWith('store/postgres/'));
    const session = [
      /pg_advisory_lock|pg_try_advisory_lock(?!_xact)/i, // the _xact_ forms end with their transaction
      /['"`]\s*SET\s+(?!LOCAL\b)[a-z_]+\s*(=|TO\b)/i, // SET LOCAL ends with its transaction
      /set_config\([^)]*,\s*false\s*\)/i,
      /\b(LISTEN|UNLISTEN)\s+[a-z_]/, /\bPREPARE\s+[a-z_]/i, /\bTEMP(ORARY)?\s+TABLE\b/i, /\bWITH\s+HOLD\b/i,
      /\bname:\s*['"`]/, // node-postgres's named (server-side) prepared statements
    ];
    const offenders = pgFiles.flatMap((f) => session.filter((re) => re.test(readFileSync(root + f, 'utf8'))).map((re) => `${f}: ${re}`));
    expect(pgFiles.length).toBeGreaterThan(5);
    expect(offenders).toEqual([]);
  });
});
