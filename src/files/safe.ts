/**
 * geo touches only what it owns (DESIGN.md "Principles"): it creates its folders 0700 and never
 * chmods a folder it did not create (GEO_DATA_DIR=/tmp must not lose /tmp's sticky bit); it never
 * writes through a symbolic link (a planted link would make geo truncate or fill its target); and
 * it refuses FIFOs, sockets and devices where it expects a file, because opening a FIFO with no
 * writer blocks forever. Each refusal is one UsageError line (exit 2) before anything is sent.
 */
import { lstatSync, mkdirSync, statSync, chmodSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
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
 * Creates `dir` (and missing parents) with mode 0700, chmod-ing only the folders this call created
 * (mkdir's mode passes through the umask). An existing folder is left exactly as it is.
 */
export function ensureOwnDir(dir: string): void {
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
    if (!statSync(dir).isDirectory()) throw notFolder();
    return;
  }
  // From the deepest folder created back up to the first one mkdir made.
  for (let d = dir; ; d = dirname(d)) {
    chmodSync(d, 0o700);
    if (d === first || dirname(d) === d) break;
  }
}

/**
 * `path` may be written by geo: absent, or a regular file that is not a symbolic link. `what` names
 * it for the message ("the journal", "the store").
 */
export function checkWritableFile(path: string, what: string): void {
  let s: Stats;
  try {
    s = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new UsageError(`cannot use ${path} as ${what}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const kind = specialKind(s);
  if (kind === undefined) return;
  const hint = kind === 'a symbolic link' ? 'geo never writes through a link: name the real file, or remove the link' : `give a path to a regular file for ${what}`;
  throw new UsageError(`refusing to use ${path} as ${what}: it is ${kind}`, hint);
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
