/**
 * The open store file under every part of Store (store.ts): the database, its path and options,
 * and the one guard that turns SQLite's errors into a StoreError naming the file and what to do.
 */
import { StoreError } from '../../errors.js';
import type { ProcessProbe } from './claims.js';
import type { LegacyFolders } from './import.js';
import { dbPath, storeError } from './open.js';
import type { Sql } from './sqlite.js';

export interface OpenOptions {
  probe: ProcessProbe;
  now: () => number;
  /** Older files to import once (JSON records, NDJSON journals); absent, none. */
  legacy?: LegacyFolders;
  /** A line for stderr (damaged legacy files, the import's summary). */
  warn?: (line: string) => void;
}

export abstract class StoreFile {
  readonly path: string;
  protected closed = false;

  protected constructor(protected readonly sql: Sql, readonly dataDir: string, protected readonly opts: OpenOptions) {
    this.path = dbPath(dataDir);
  }

  /** SQLite's errors as StoreErrors naming this file. */
  protected guard<T>(fn: () => T): T {
    if (this.closed) throw new StoreError(`${this.path} is closed`, 'other');
    try {
      return fn();
    } catch (err) {
      throw storeError(err, this.path);
    }
  }

  protected *guarded<T>(make: () => Iterator<T>): Generator<T> {
    const it = this.guard(make);
    for (;;) {
      const next = this.guard(() => it.next());
      if (next.done) return;
      yield next.value;
    }
  }
}
