/**
 * Reading the command line before commander does: which noun was invoked (only that one is
 * registered) and the forms commander does not take as gh does.
 */

/** Global flags that take a value, so their value is not mistaken for the noun. */
const VALUE_FLAGS = new Set(['--format', '--profile', '--base-url', '--timeout', '--store']);

/** Index of the first word that is not a flag (or a global flag's value), or -1. */
function firstWord(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return -1;
    if (VALUE_FLAGS.has(a)) i++;
    else if (!a.startsWith('-')) return i;
  }
  return -1;
}

export function invokedNoun(argv: readonly string[]): string | undefined {
  const at = firstWord(argv);
  return at < 0 ? undefined : argv[at];
}

/**
 * `geo` alone prints the help on stdout and exits 0 (clig.dev: a bare command shows help).
 * (`geo help A B` is geo's own help command: src/help/dispatch.ts follows the path.)
 */
export function normalizeArgv(argv: readonly string[]): string[] {
  return argv.length === 0 ? ['--help'] : [...argv];
}

/** Field names separated by commas: what `--json` takes as its value (gh's `--json id,city`). */
const FIELD_LIST = /^[A-Za-z_][\w]*(,[A-Za-z_][\w]*)*$/;

/**
 * `--json` keeps its meaning alone and takes gh's field list when one follows it. The
 * word after `--json` is its value only when it looks like a field list, comes after the noun, is
 * not a subcommand there (`geo cases --json list`), and names no file or folder (`geo locate --json
 * shots`); otherwise `--json` becomes `--json=` (no fields) and the word stays an argument.
 */
export function settleJsonValue(argv: readonly string[], subcommandsOf: (path: readonly string[]) => readonly string[], exists: (word: string) => boolean): string[] {
  const out = [...argv];
  const path: string[] = [];
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    if (a === '--') break;
    if (VALUE_FLAGS.has(a)) i++;
    else if (a === '--json') {
      const next = out[i + 1];
      // A flag after it is no value; `-` (stdin) is an input, which commander would take as one.
      if (next === undefined || (next.startsWith('-') && next !== '-')) continue;
      const fields = path.length > 0 && FIELD_LIST.test(next) && !subcommandsOf(path).includes(next) && !exists(next);
      if (fields) i++;
      else out[i] = '--json=';
    } else if (!a.startsWith('-') && (path.length === 0 || subcommandsOf(path).includes(a))) path.push(a);
  }
  return out;
}
