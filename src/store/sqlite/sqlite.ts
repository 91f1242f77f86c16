/**
 * The SQLite binding, loaded on first use, and the few calls the store makes of it. libsql (the
 * better-sqlite3 API, prebuilt binaries as optional npm packages: no compiler, no download) is
 * synchronous: a statement blocks the event loop for its microseconds, which is what keeps a
 * claim's check-and-insert one indivisible step for every process that shares the file.
 *
 * Two quirks of libsql 0.5 are absorbed here so no caller meets them: get() adds a `_metadata`
 * field to every row (so rows are read with all()), and iterate() yields BLOBs as ArrayBuffer
 * where all() yields Buffer (so iterated rows are normalised).
 */
import { createRequire } from 'node:module';

export type Value = string | number | bigint | Buffer | null;
export type Row = Record<string, unknown>;

interface Statement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  all(...params: unknown[]): Row[];
  iterate(...params: unknown[]): IterableIterator<Row>;
}

export interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
  readonly inTransaction: boolean;
}

type DatabaseCtor = new (path: string, opts?: { readonly?: boolean; fileMustExist?: boolean; timeout?: number }) => Database;

let ctor: DatabaseCtor | undefined;

/** The binding, required once: geo commands that never touch the store never load it. */
export function loadSqlite(): DatabaseCtor {
  return (ctor ??= createRequire(import.meta.url)(typeof __GEO_LIBSQL__ === 'string' ? __GEO_LIBSQL__ : 'libsql') as DatabaseCtor);
}

/**
 * In dist/cli.js, "./libsql.cjs": libsql's loader bundled apart (src/build/build.ts step 4), which
 * reaches the same native binary ~20 ms sooner. Run from source (tsx), undefined: the package itself.
 */
declare const __GEO_LIBSQL__: string | undefined;

/** Prepared statements, cached per SQL text: the store runs the same few hundred thousand times. */
export class Sql {
  private readonly cache = new Map<string, Statement>();
  constructor(readonly db: Database) {}

  private stmt(sql: string): Statement {
    let s = this.cache.get(sql);
    if (!s) this.cache.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  all<T = Row>(sql: string, ...params: unknown[]): T[] {
    return this.stmt(sql).all(...params) as T[];
  }

  one<T = Row>(sql: string, ...params: unknown[]): T | undefined {
    return this.all<T>(sql, ...params)[0];
  }

  run(sql: string, ...params: unknown[]): { changes: number; lastInsertRowid: number } {
    const r = this.stmt(sql).run(...params);
    return { changes: r.changes, lastInsertRowid: Number(r.lastInsertRowid) };
  }

  /** Rows one at a time (export streams them: memory does not grow with the store). */
  *iterate<T = Row>(sql: string, ...params: unknown[]): Generator<T> {
    for (const row of this.db.prepare(sql).iterate(...params)) {
      for (const [k, v] of Object.entries(row)) if (v instanceof ArrayBuffer) row[k] = Buffer.from(v);
      yield row as T;
    }
  }

  /**
   * fn inside BEGIN IMMEDIATE … COMMIT: the write lock is taken first, so two processes never both
   * read "no claim" and both insert one (a deferred transaction would only learn at its first write).
   */
  tx<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const out = fn();
      this.db.exec('COMMIT');
      return out;
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw err;
    }
  }
}
