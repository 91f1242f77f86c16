/**
 * The one way geo writes a file (DESIGN.md "geo touches only what it owns"): reports,
 * exports, bundles, journals, the store's file and geo mcp's exports all go through openOwnFile.
 * What it refuses is checkWritableFile's (safe.ts); how it writes is below. The opening and the
 * putting in place are synchronous (a few system calls), so the store, which opens synchronously,
 * uses the same function as everything else.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { HintedError, UsageError } from '../errors.js';
import { type TargetChecks, checkTarget, checkWritableFile } from './safe.js';

/** 0600 (only the user) unless asked: --file-mode 644 (everyone on the machine may read it). */
export type FileMode = 0o600 | 0o644;

export interface OwnFileOptions extends TargetChecks {
  mode?: FileMode;
  /**
   * What happens to a file already there: 'replace' (default) puts the new one in its place at
   * once (rename); 'keep' leaves it (the store: another process may have just made it) and
   * commit() returns false; 'append' writes at its end (the journal), after the same checks.
   */
  existing?: 'replace' | 'keep' | 'append';
}

export interface OwnFile {
  /** The descriptor to write through. */
  fd: number;
  /** Puts the file in place: on disk (fsync), checked again, renamed onto the target. */
  commit(): boolean;
  /** Closes the descriptor; an uncommitted temporary file is removed. */
  close(): void;
}

/** A write that failed, as one line naming the file (its errno kept as `code`); a full disk is said so. */
export function writeError(path: string, err: unknown): Error {
  if (err instanceof HintedError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const said = (e: HintedError) => Object.assign(e, { code });
  if (code === 'ENOSPC' || code === 'EDQUOT') return said(new HintedError(`cannot write ${path}: the disk is full`, 'free some space, or write the file to another disk'));
  if (code === 'ENOENT' || code === 'ENOTDIR') return said(new UsageError(`cannot write ${path}: its folder does not exist`, 'create the folder first, or give another path'));
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return said(new UsageError(`cannot write ${path}: permission denied (${code})`, 'write it to a folder you may write to'));
  return err instanceof Error ? err : new Error(String(err));
}

/** A new file's directory entry must survive a crash too. Best effort: some filesystems refuse. */
function syncDir(dir: string): void {
  try {
    const d = openSync(dir, 'r');
    try {
      fsyncSync(d);
    } finally {
      closeSync(d);
    }
  } catch {
    /* not supported here: the file's own fsync still holds */
  }
}

/** An existing file opened for appending, never through a link and never blocking on a FIFO. */
function openForAppend(path: string, what: string, o: OwnFileOptions): OwnFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    checkWritableFile(path, what, o); // ELOOP (a link), ENXIO (a FIFO), EISDIR: said as such
    throw writeError(path, err);
  }
  try {
    // What was opened, not what the name showed a moment ago.
    checkTarget(path, what, fstatSync(fd), o);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return { fd, commit: () => true, close: () => closeSync(fd) };
}

/**
 * The one way geo writes a file: a new temporary file in the target's folder (O_CREAT | O_EXCL |
 * O_NOFOLLOW: never an existing file, never through a link), mode 0600 (or 0644 when asked, set
 * on the descriptor so the umask changes neither), written, fsync'd, checked again, then renamed
 * onto the target. A rename replaces the name, never writes through it: a link or a second name
 * planted after the check still never sees a byte. Nothing is left behind on failure.
 */
export function openOwnFile(path: string, what: string, o: OwnFileOptions = {}): OwnFile {
  checkWritableFile(path, what, o);
  if (o.existing === 'append') {
    const appending = openForAppend(path, what, o);
    if (appending) return appending;
  }
  const tmp = join(dirname(path), `.${basename(path).slice(0, 100)}.${randomBytes(6).toString('hex')}.geo-tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (err) {
    throw writeError(path, err);
  }
  let placed = false;
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
    if (!placed) {
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
    }
  };
  try {
    fchmodSync(fd, o.mode ?? 0o600);
  } catch (err) {
    close();
    throw writeError(path, err);
  }
  const commit = () => {
    try {
      fsyncSync(fd);
      checkWritableFile(path, what, o);
      if (o.existing === 'keep' || o.existing === 'append') {
        // link() fails with EEXIST where rename would replace: the file someone made first stays.
        try {
          linkSync(tmp, path);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
          throw err;
        }
        unlinkSync(tmp);
      } else renameSync(tmp, path);
      placed = true;
      syncDir(dirname(path));
      return true;
    } catch (err) {
      throw writeError(path, err);
    }
  };
  return { fd, commit, close };
}

export type Chunks = string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

/** Every byte of `bytes` (a write may take fewer than it is given). */
function writeAllSync(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** openOwnFile for a whole file: every chunk written, then put in place. False when 'keep' found one there. */
export async function writeOwnFile(path: string, what: string, data: Chunks, o: OwnFileOptions = {}): Promise<boolean> {
  const f = openOwnFile(path, what, o);
  try {
    const chunks = typeof data === 'string' || data instanceof Uint8Array ? [data] : data;
    // Small chunks (an export's lines) are gathered into writes of 64 KiB or more: one call each.
    let held: Uint8Array[] = [];
    let size = 0;
    for await (const c of chunks) {
      const bytes = typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
      held.push(bytes);
      size += bytes.length;
      if (size < 64 * 1024) continue;
      writeAllSync(f.fd, held.length === 1 ? held[0]! : Buffer.concat(held));
      held = [];
      size = 0;
    }
    if (size > 0) writeAllSync(f.fd, held.length === 1 ? held[0]! : Buffer.concat(held));
    return f.commit();
  } catch (err) {
    throw writeError(path, err);
  } finally {
    f.close();
  }
}
