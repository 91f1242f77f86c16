/**
 * Reading the command line before commander does: which noun was invoked (only that one is
 * registered, issue 7) and the forms commander does not take as gh does (issue 13).
 */

/** Global flags that take a value, so their value is not mistaken for the noun. */
const VALUE_FLAGS = new Set(['--format', '--profile', '--base-url', '--timeout']);

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
 * - `geo` alone prints the help on stdout and exits 0 (clig.dev: a bare command shows help).
 * - `geo help A B` is `geo A help B`: commander's help command looks up one name only, so it
 *   showed A's help; A's own help command finds B (and an unknown B is an error, as an unknown A is).
 */
export function normalizeArgv(argv: readonly string[]): string[] {
  if (argv.length === 0) return ['--help'];
  const at = firstWord(argv);
  if (at < 0 || argv[at] !== 'help' || argv.length - at < 3) return [...argv];
  return [...argv.slice(0, at), argv[at + 1]!, 'help', ...argv.slice(at + 2)];
}
