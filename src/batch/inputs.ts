/**
 * Expands what the user named (files, folders, `-`, https URLs, --from-file lists) into a flat,
 * deterministic list of sources. Nothing is read here beyond directory listings and the list file:
 * images are loaded (and hashed) by sources.ts.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { isAcceptableImageUrl } from '../api/schemas.js';
import { UsageError } from '../errors.js';

/** Uploaded as they are. */
export const DIRECT_EXT = new Set(['.jpg', '.jpeg', '.png']);
/** Turned into JPEG first (convert.ts). */
export const CONVERT_EXT = new Set(['.webp', '.avif', '.tif', '.tiff', '.gif', '.heic', '.heif']);

export type InputEntry =
  /** `walked`: found in a folder, not named by the user (a bad one is skipped, not fatal). */
  | { kind: 'path'; input: string; path: string; walked?: boolean }
  | { kind: 'stdin'; input: '-' }
  | { kind: 'url'; input: string; url: string };

export interface Expanded {
  entries: InputEntry[];
  /** Files a folder walk passed over, with why (for one notice line). */
  skipped: Array<{ path: string; reason: string }>;
}

export interface ExpandOptions {
  fromFile?: string;
  /** Relative paths are taken from here (the command passes the process's folder). */
  cwd: string;
}

/** An input naming a URL (scheme://…), as opposed to a path. */
export function isUrlInput(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s);
}

/**
 * path.join builds its result piece by piece, a rope of V8 cons strings several times the flat
 * size; a batch keeps every path until it ends, so each is flattened once (100,000
 * inputs within 200 MB). Converting to a number is what makes V8 flatten a string in place.
 */
function flat(s: string): string {
  void Number(s);
  return s;
}

/** Code-point order, not locale order: the same list on every machine. */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A folder that cannot be listed: why, in the words an unreadable file gets (sources.ts). */
function unlistable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM' ? 'permission denied: a folder geo cannot list' : `a folder geo cannot list (${code ?? String(err)})`;
}

async function walk(dir: string, out: InputEntry[], skipped: Expanded['skipped'], shownAs: string, named = true): Promise<void> {
  let names;
  try {
    names = (await readdir(dir, { withFileTypes: true })).sort((a, b) => byName(a.name, b.name));
  } catch (err) {
    if (named) throw new UsageError(`${shownAs}: ${unlistable(err)}; nothing was sent`, 'check its permissions, or name the files and folders in it that you can read');
    // A folder found inside one named is passed over as an unreadable file is: the rest goes on.
    skipped.push({ path: shownAs, reason: unlistable(err) });
    return;
  }
  for (const d of names) {
    // Hidden entries (.git, .DS_Store, editor droppings) are never evidence.
    if (d.name.startsWith('.')) continue;
    const full = flat(join(dir, d.name));
    // A folder named by its absolute path shows each file as its path: one string, held once.
    const shown = shownAs === dir ? full : flat(join(shownAs, d.name));
    // Symlinked folders are not followed: a link back up the tree would never end.
    if (d.isDirectory()) await walk(full, out, skipped, shown, false);
    else if (d.isFile() || d.isSymbolicLink()) {
      const ext = extname(d.name).toLowerCase();
      if (DIRECT_EXT.has(ext) || CONVERT_EXT.has(ext)) {
        if (d.isSymbolicLink() && !(await stat(full).then((s) => s.isFile(), () => false))) continue;
        out.push({ kind: 'path', input: shown, path: full, walked: true });
      }
    }
  }
}

async function expandOne(arg: string, cwd: string, out: InputEntry[], skipped: Expanded['skipped']): Promise<void> {
  // `geo locate "$EMPTY"` would otherwise resolve to the current folder and locate all of it.
  if (arg.trim() === '') throw new UsageError('an input is an empty string; nothing was read or sent', 'name a file, a folder (`.` for this one), an https URL or `-`');
  if (arg === '-') {
    if (out.some((e) => e.kind === 'stdin')) throw new UsageError('`-` (standard input) can be given only once');
    out.push({ kind: 'stdin', input: '-' });
    return;
  }
  if (isUrlInput(arg)) {
    if (!isAcceptableImageUrl(arg)) throw new UsageError(`${arg}: image URLs must use https`, 'plain http is taken only from this machine; give an https:// URL or a local file');
    out.push({ kind: 'url', input: arg, url: arg });
    return;
  }
  const path = resolve(cwd, arg);
  let s;
  try {
    s = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${arg}: no such file or folder` : `${arg}: cannot read (${code ?? 'error'})`, 'check the path; geo takes image files, folders, - (stdin) and https URLs');
  }
  if (s.isDirectory()) {
    const before = out.length;
    await walk(path, out, skipped, arg);
    if (out.length === before) throw new UsageError(`${arg}: the folder holds no images`, 'images are .jpg, .jpeg, .png (and .webp, .avif, .tif, .tiff, .gif, .heic, .heif, converted to JPEG)');
    return;
  }
  // A file named explicitly is taken whatever its extension: loadImage sniffs the real type.
  out.push({ kind: 'path', input: arg, path });
}

/** One path or URL per line; `#` comments and blank lines skipped; paths relative to the list. */
export async function readListFile(file: string, cwd: string): Promise<Array<{ arg: string; base: string }>> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(`--from-file ${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const base = resolve(cwd, file, '..');
  const out: Array<{ arg: string; base: string }> = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    out.push({ arg: line, base });
  }
  return out;
}

/** Arguments first, in the order given, then the list file's lines; folders sorted inside. */
export async function expandInputs(args: string[], opts: ExpandOptions): Promise<Expanded> {
  const cwd = opts.cwd;
  const entries: InputEntry[] = [];
  const skipped: Expanded['skipped'] = [];
  for (const a of args) await expandOne(a, cwd, entries, skipped);
  if (opts.fromFile !== undefined) {
    const lines = await readListFile(opts.fromFile, cwd);
    if (lines.length === 0 && args.length === 0) throw new UsageError(`--from-file ${opts.fromFile}: the list names no inputs`);
    for (const l of lines) await expandOne(l.arg, l.base, entries, skipped);
  }
  if (entries.length === 0) throw new UsageError('no inputs given', 'name image files, folders, https URLs, `-` for standard input, or --from-file LIST');
  return { entries, skipped };
}
