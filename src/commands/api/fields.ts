/**
 * `-f key=value` and `-F key=value` as `gh api` reads them: -f is always a string; -F is typed
 * (true, false, null, a number, `@file` for a file's contents, `@-` for stdin's), else a string.
 * Keys may nest: `scope[lat]=48.8` builds {"scope": {"lat": 48.8}}, `tags[]=a` appends to an array.
 * Where gh only types integers, -F here also takes decimals: the spec's coordinates need them.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';

export interface Field {
  key: string;
  value: unknown;
}

/** What reading `@-` needs: stdin, read at most once per command. */
export interface FieldSources {
  readStdin(): Promise<string>;
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const FIELD_HINT = 'for example -f name="Harbour fire" or -F depth=2 or -F scope[lat]=48.85';

function split(arg: string, flag: string): [string, string] {
  const at = arg.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} takes key=value, got "${arg}"`, FIELD_HINT);
  return [arg.slice(0, at), arg.slice(at + 1)];
}

async function typed(value: string, src: FieldSources): Promise<unknown> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (JSON_NUMBER.test(value)) return Number(value);
  if (value === '@-') return src.readStdin();
  if (value.startsWith('@')) {
    try {
      return await readFile(value.slice(1), 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${value.slice(1)} for -F (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`, 'give a readable file after @, or @- for stdin');
    }
  }
  return value;
}

/** The fields in command-line order: -f ones are strings, -F ones typed. */
export async function readFields(raw: readonly string[], typedRaw: readonly string[], src: FieldSources): Promise<Field[]> {
  const out: Field[] = raw.map((a) => {
    const [key, value] = split(a, '-f');
    return { key, value };
  });
  for (const a of typedRaw) {
    const [key, value] = split(a, '-F');
    out.push({ key, value: await typed(value, src) });
  }
  return out;
}

/** "a[b][]" -> ["a", "b", ""]; a key that is not of that form is one segment. */
function segments(key: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) throw new UsageError(`the field name "${key}" is malformed`, FIELD_HINT);
  return [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON body the fields describe. A key given twice keeps its last value (as gh does). */
export function fieldsToBody(fields: readonly Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { key, value } of fields) {
    const path = segments(key);
    const append = path.length > 1 && path[path.length - 1] === '';
    const names = append ? path.slice(0, -1) : path;
    if (names.includes('')) throw new UsageError(`the field name "${key}" has [] before its end`, FIELD_HINT);
    let node = body;
    for (const name of names.slice(0, -1)) {
      if (!isObject(node[name])) node[name] = {};
      node = node[name] as Record<string, unknown>;
    }
    const leaf = names[names.length - 1]!;
    if (!append) node[leaf] = value;
    else if (Array.isArray(node[leaf])) (node[leaf] as unknown[]).push(value);
    else node[leaf] = [value];
  }
  return body;
}

/** Fields as query parameters (GET, or beside --input): keys are kept literally, values as text. */
export function fieldsToQuery(fields: readonly Field[], into: URLSearchParams): void {
  for (const { key, value } of fields) into.append(key, value === null ? '' : String(value));
}
