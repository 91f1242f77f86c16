/**
 * Opening <data dir>/geo.db: the file checks of DESIGN.md ("geo touches only what it owns"), the
 * pragmas every connection needs, and the migrations. Errors from SQLite become one StoreError
 * line that names the file and what to do; a damaged database is never written to.
 */
import { existsSync, statfsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StoreError, UsageError } from '../../errors.js';
import { openOwnFile } from '../../files/own-file.js';
import { checkWritableFile, ensureOwnDir } from '../../files/safe.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { Sql, loadSqlite } from './sqlite.js';

export const DB_FILE = 'geo.db';

/** How long a statement waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 10_000;

export function dbPath(dataDirPath: string): string {
  return join(dataDirPath, DB_FILE);
}

/**
 * An I/O error of SQLite's that is a full disk by another name: the shared-memory file (-shm) that
 * cannot grow is SQLITE_IOERR_SHMSIZE ("disk I/O error"), and a write or fsync that failed on a
 * disk with less than 1 MiB left was one too (a data folder with 16 KB free said "disk
 * I/O error").
 */
function fullDisk(code: string, path: string): boolean {
  if (code === 'SQLITE_IOERR_SHMSIZE') return true;
  if (!code.startsWith('SQLITE_IOERR')) return false;
  try {
    const s = statfsSync(dirname(path));
    return s.bavail * s.bsize < 1024 * 1024;
  } catch {
    return false;
  }
}

/** SQLite's error, as the one line a user can act on. */
export function storeError(err: unknown, path: string): StoreError {
  if (err instanceof StoreError) return err;
  const code = String((err as { code?: unknown })?.code ?? '');
  const msg = err instanceof Error ? err.message : String(err);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new StoreError(`${path} is damaged (${msg}); geo leaves it untouched`, 'damaged', `move it aside (mv ${path} ${path}.damaged) and geo starts a new store; \`sqlite3 ${path}.damaged .recover\` may save its results`);
  }
  if (code.startsWith('SQLITE_FULL') || code === 'ENOSPC' || code === 'EDQUOT' || /disk is full|database or disk is full/i.test(msg) || fullDisk(code, path)) {
    return new StoreError(`cannot write ${path}: the disk is full`, 'full', 'free some space (or set GEO_DATA_DIR to a folder on another disk)');
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM')) {
    return new StoreError(`cannot write ${path}: ${code.startsWith('SQLITE_CANTOPEN') ? 'it cannot be opened' : 'it is read-only'}`, 'readonly', 'check the permissions of the file and its folder, or set GEO_DATA_DIR to a writable folder');
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return new StoreError(`${path} stayed locked by another geo process for ${BUSY_TIMEOUT_MS / 1000} s`, 'busy', 'wait for the other geo command to finish, then run this one again');
  return new StoreError(`${path}: ${msg}`, 'other');
}

/** Refuses a store file that is a link, a FIFO or another user's; creates geo.db (0600) when missing. */
function checkOrCreate(path: string): void {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) checkWritableFile(f, 'the store', { owned: true });
  // Created here, not by SQLite, so it is 0600 from the first byte (SQLite gives -wal and -shm
  // the database file's mode), through the one writer; a file another process made first is kept.
  if (!existsSync(path)) {
    let f;
    try {
      f = openOwnFile(path, 'the store', { existing: 'keep', owned: true });
      f.commit();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (!code) throw err; // a refusal (a link, a FIFO, another user's file): its own line
      throw storeError(Object.assign(err as Error, { code: code === 'ENOSPC' || code === 'EDQUOT' ? 'SQLITE_FULL' : 'SQLITE_CANTOPEN' }), path);
    } finally {
      f?.close();
    }
  }
}

/**
 * The connection, migrated to this geo's schema. Creates the folder (0700) and the file (0600) when
 * they do not exist yet; refuses a file that is a link, a FIFO or anything but a regular file.
 */
export function openDatabase(dataDirPath: string): Sql {
  const path = dbPath(dataDirPath);
  // The folder and its files are this user's: whoever owns them could swap the store under geo.
  ensureOwnDir(dataDirPath, { what: 'the data folder' });
  // Another geo creating the store links its temp file to geo.db, then unlinks the temp: for that
  // instant geo.db has two names, and the hard-link refusal would turn a race into an error.
  for (let attempt = 0; ; attempt++) {
    try {
      checkOrCreate(path);
      break;
    } catch (err) {
      if (attempt >= 50 || !(err instanceof UsageError) || !err.message.includes('(hard links)')) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
  let sql: Sql | undefined;
  try {
    const Database = loadSqlite();
    sql = new Sql(new Database(path, { timeout: BUSY_TIMEOUT_MS }));
    // WAL: readers never block the writer, and a crash loses nothing committed. FULL: a commit is
    // on disk before geo shows the answer it holds (a paid answer is never lost).
    sql.all('PRAGMA journal_mode = WAL');
    sql.db.exec(`PRAGMA synchronous = FULL; PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA foreign_keys = OFF`);
    migrate(sql, path);
    return sql;
  } catch (err) {
    try {
      sql?.db.close();
    } catch {
      /* closing a connection that failed to open */
    }
    throw storeError(err, path);
  }
}

function migrate(sql: Sql, path: string): void {
  const version = Number(sql.one<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0);
  if (version > SCHEMA_VERSION) throw new StoreError(`${path} was written by a newer geo (schema ${version}; this geo knows ${SCHEMA_VERSION})`, 'newer', 'upgrade geo (npm install -g geo-cli), or set GEO_DATA_DIR to another folder');
  for (let v = version; v < SCHEMA_VERSION; v++) {
    sql.tx(() => {
      // Another process may have migrated while this one waited for the lock.
      const now = Number(sql.one<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0);
      if (now > v) return;
      sql.db.exec(MIGRATIONS[v]!);
      sql.db.exec(`PRAGMA user_version = ${v + 1}`);
    });
  }
}
