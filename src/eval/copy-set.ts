/**
 * A calibration set of copies, as `geo eval --copies DIR` reads it: DIR/originals/ holds distinct
 * pictures, and every other folder of DIR one kind of copy (its name is the kind: jpeg-q70,
 * screenshot, ...), each copy named as its original, whatever its extension. The repository's
 * fixtures/make-copies.js makes such a set; an analyst can lay out their own the same way.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';

export interface CopySet {
  originals: Array<{ name: string; path: string }>;
  /** One entry per kind, in name order; `original` is an index into originals. */
  kinds: Array<{ kind: string; copies: Array<{ original: number; path: string }> }>;
  /** Files in a kind's folder with no original of their name: left out, listed. */
  orphans: string[];
}

const HINT = 'a set is DIR/originals/NAME.jpg and DIR/KIND/NAME.* (one folder per kind of copy); fixtures/make-copies.js in the geo repository makes one';

/** A file's name without its last extension: how a copy finds its original. */
const stem = (name: string) => name.replace(/\.[^.]*$/, '');

function entries(dir: string) {
  return readdirSync(dir, { withFileTypes: true }).filter((e) => !e.name.startsWith('.')).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The set at `dir`, or a usage error (exit 2) saying what of the layout is missing. */
export function readCopySet(dir: string): CopySet {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`--copies ${dir}: no such folder`, HINT);
  }
  if (!isDir) throw new UsageError(`--copies ${dir}: not a folder`, HINT);
  const top = entries(dir);
  if (!top.some((e) => e.isDirectory() && e.name === 'originals')) throw new UsageError(`--copies ${dir}: no originals/ folder, so not a set of copies`, HINT);
  const originals = entries(join(dir, 'originals')).filter((e) => e.isFile()).map((e) => ({ name: stem(e.name), path: join(dir, 'originals', e.name) }));
  if (originals.length < 2) throw new UsageError(`--copies ${dir}: ${originals.length} original${originals.length === 1 ? '' : 's'} in originals/; distinct pairs need at least 2`, HINT);
  const byStem = new Map(originals.map((o, i) => [o.name, i]));
  if (byStem.size !== originals.length) throw new UsageError(`--copies ${dir}: two originals share a name (less their extension), so their copies cannot be told apart`, HINT);
  const orphans: string[] = [];
  const kinds: CopySet['kinds'] = [];
  for (const k of top.filter((e) => e.isDirectory() && e.name !== 'originals')) {
    const copies: CopySet['kinds'][number]['copies'] = [];
    for (const f of entries(join(dir, k.name)).filter((e) => e.isFile())) {
      const original = byStem.get(stem(f.name));
      if (original === undefined) orphans.push(join(k.name, f.name));
      else copies.push({ original, path: join(dir, k.name, f.name) });
    }
    if (copies.length > 0) kinds.push({ kind: k.name, copies });
  }
  if (kinds.length === 0) throw new UsageError(`--copies ${dir}: no folder of copies beside originals/ (none holds a file named as an original)`, HINT);
  return { originals, kinds, orphans };
}
