/**
 * geo touches only what it owns (DESIGN.md "Principles"): it creates its folders 0700 and never
 * chmods a folder it did not create (a 1777 folder must keep its sticky bit); it keeps its store
 * only in a folder of its user's; and every file it writes goes through openOwnFile (own-file.ts,
 *): never through a symbolic link (a planted link would make geo truncate or fill its
 * target), never into a FIFO (opening one with no reader blocks forever), a device or a folder,
 * never over a file with a second name (the write would show under that name too) or over an
 * input of the same run (`geo locate photo.jpg --report photo.jpg`). Each refusal is one
 * UsageError line (exit 2); callers run checkWritableFile before anything is sent, and
 * openOwnFile checks again when it writes.
 */
import { chmodSync, lstatSync, mkdirSync, statSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** What a non-regular file is, in words ("a FIFO (named pipe)"), or undefined for a regular file. */
export function specialKind(s: Stats): string | undefined {
  if (s.isFile()) return undefined;
  if (s.isDirectory()) return 'a folder';
  if (s.isSymbolicLink()) return 'a symbolic link';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The user geo runs as (its effective uid: libuv reads geteuid), or undefined where the passwd
 * database has no entry for it (a container's arbitrary uid): ownership is then not checked.
 */
function myUid(): number | undefined {
  try {
    return userInfo().uid;
  } catch {
    return undefined;
  }
}

/** Refuses `s` when another user owns it: whoever owns geo's folder can swap the files in it. */
function checkOwner(path: string, what: string, s: Stats): void {
  const me = myUid();
  if (me === undefined || s.uid === me) return;
  throw new UsageError(`refusing to use ${path} as ${what}: it belongs to another user (uid ${s.uid}), who could change or swap what geo keeps there`, 'use a folder of your own (set GEO_DATA_DIR), or run geo as the user who owns it');
}

/**
 * Creates `dir` (and missing parents) with mode 0700, chmod-ing only the folders this call created
 * (mkdir's mode passes through the umask). An existing folder is left exactly as it is; with
 * `owned` (the data folder), one that another user owns is refused.
 */
export function ensureOwnDir(dir: string, owned?: { what: string }): void {
  const notFolder = () => new UsageError(`${dir} is not a folder`, 'point GEO_DATA_DIR / GEO_STATE_DIR / GEO_CONFIG_DIR at a folder, or remove the file');
  let first: string | undefined;
  try {
    first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw notFolder();
    throw new UsageError(`cannot create the folder ${dir} (${code ?? String(err)})`, 'check the permissions of its parent, or point GEO_DATA_DIR / GEO_STATE_DIR / GEO_CONFIG_DIR elsewhere');
  }
  if (first === undefined) {
    const s = statSync(dir);
    if (!s.isDirectory()) throw notFolder();
    if (owned) checkOwner(dir, owned.what, s);
    return;
  }
  // From the deepest folder created back up to the first one mkdir made.
  for (let d = dir; ; d = dirname(d)) {
    chmodSync(d, 0o700);
    if (d === first || dirname(d) === d) break;
  }
}

export interface TargetChecks {
  /** The files this run reads: the target must not be one (the same device and inode, or the same resolved path). */
  inputs?: () => Iterable<string>;
  /** Refuse a file another user owns (the store). */
  owned?: boolean;
}

const isPathInput = (p: string) => p !== '-' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(p);

/** The input `target` is, or undefined. Inputs are stat-ed only when the target exists. */
function sameAsInput(target: string, st: Stats | undefined, inputs: Iterable<string>): string | undefined {
  const full = resolve(target);
  for (const input of inputs) {
    if (!isPathInput(input)) continue;
    if (resolve(input) === full) return input;
    if (!st) continue;
    try {
      const s = statSync(input);
      if (s.ino === st.ino && s.dev === st.dev) return input;
    } catch {
      /* gone, or unreadable: it cannot be the target then */
    }
  }
  return undefined;
}

/**
 * `path` may be written by geo: absent, or a regular file with one name, not a symbolic link, not an
 * input of this run. `what` names it for the message ("the journal", "the report").
 */
export function checkWritableFile(path: string, what: string, o: TargetChecks = {}): void {
  let s: Stats | undefined;
  try {
    s = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`cannot use ${path} as ${what}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (s) checkTarget(path, what, s, o);
  const input = o.inputs && sameAsInput(path, s, o.inputs());
  if (input !== undefined) throw new UsageError(`refusing to use ${path} as ${what}: it is an input of this run (${input})`, 'geo never writes over a file it reads: give another file name');
}

/** What `path` is (lstat, or fstat of a descriptor opened on it) may be written: see checkWritableFile. */
export function checkTarget(path: string, what: string, s: Stats, o: TargetChecks): void {
  const refuse = (why: string, hint: string) => new UsageError(`refusing to use ${path} as ${what}: ${why}`, hint);
  const kind = specialKind(s);
  if (kind === 'a symbolic link') throw refuse(`it is ${kind}`, 'geo never writes through a link: name the real file, or remove the link');
  if (kind !== undefined) throw refuse(`it is ${kind}`, `give a path to a regular file for ${what}`);
  if (s.nlink > 1) throw refuse(`it has ${s.nlink} names (hard links)`, 'geo writes only a file with one name: give a new file name, or remove its other names first');
  if (o.owned) checkOwner(path, what, s);
}

/**
 * Process substitution (`geo locate <(curl …)`) names a pipe the shell already opened, under
 * /dev/fd or /proc/self/fd: reading it cannot block on a missing writer, so it is taken like stdin.
 */
export function isInheritedPipe(path: string): boolean {
  return /^\/(dev\/fd|proc\/self\/fd)\/\d+$/.test(path);
}

/** An input file geo will read: a regular file (links followed), or an inherited pipe. */
export function checkReadableInput(path: string, shown: string, st: Stats): void {
  if (st.isFile() || st.isDirectory() || isInheritedPipe(path)) return;
  throw new UsageError(`${shown}: ${specialKind(st) ?? 'not a regular file'}, not an image file`, 'geo reads regular files (use - for standard input)');
}
