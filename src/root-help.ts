/**
 * The root help's list of nouns (`geo`, `geo --help`, a typo), built without registering every
 * noun in full: see nounLines.
 */
import { type Command, Help } from 'commander';
import type { Act, NounLine, Register } from './commands/types.js';

/**
 * Without a known noun (`geo`, `geo --help`, a typo) commander needs each noun only for the list
 * in the root help, and for suggestions: its usage term and description. Building all twelve with
 * their flags cost ~3 ms of `geo --help` on Node 20 (bench/startup.mjs), so each
 * register runs against a recorder that keeps just those, and the nouns are added bare. The lines
 * match the full registration (test/cli/root-help.test.ts). The build records them once more for
 * dist/cli-root.js, which lists the nouns without their registers (src/registry-root.ts).
 */
export function nounLines(registers: readonly Register[], act: Act): NounLine[] {
  return registers.map((register) => {
    const seen = { term: '', description: '', args: [] as string[], hasOptions: false };
    register(recorder(seen) as unknown as Command, act);
    const [name = '', ...inline] = seen.term.split(' ');
    const term = [name, ...(seen.hasOptions ? ['[options]'] : []), ...inline, ...seen.args].join(' ');
    return { name, term, description: seen.description };
  });
}

/** The usage term each listed noun's full registration gives (test/cli/root-help.test.ts compares them). */
export let recordedTerms = new Map<Command, string>();

/** Adds each noun bare, with its description, to the root program. */
export function listNouns(program: Command, lines: readonly NounLine[]): void {
  const terms = new Map<Command, string>();
  for (const line of lines) terms.set(program.command(line.name).description(line.description), line.term);
  const help = new Help();
  // The root help lists each noun by its name (gh's layout: one line each at 80 columns);
  // \`geo NOUN --help\` gives its usage. The recorded term is kept for the tests' comparison.
  program.configureHelp({ ...program.configureHelp(), subcommandTerm: (cmd) => (terms.has(cmd) ? cmd.name() : help.subcommandTerm(cmd)) });
  recordedTerms = terms;
}

/**
 * Stands in for `program` in nounLines: records the noun's own term, description, arguments and
 * whether it has options; every other call (subcommands, help texts, actions) is accepted and ignored.
 */
function recorder(seen: { term: string; description: string; args: string[]; hasOptions: boolean }): unknown {
  const ignore: unknown = new Proxy(() => ignore, { get: () => () => ignore });
  const noun: unknown = new Proxy(
    {},
    {
      get: (_t, prop) => (...args: unknown[]) => {
        if (prop === 'description' && typeof args[0] === 'string') seen.description = args[0];
        else if (prop === 'argument' && typeof args[0] === 'string') seen.args.push(args[0]);
        else if (prop === 'option' || prop === 'addOption' || prop === 'requiredOption') seen.hasOptions = true;
        else if (prop === 'command') return ignore;
        return noun;
      },
    },
  );
  return { command: (term: string) => ((seen.term = term), noun) };
}
