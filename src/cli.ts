/**
 * The commander program: global flags, lazily loaded commands, and main(), which runs one argv and
 * maps its failure to an exit code (cli/exit-codes.ts, DESIGN.md "Exit codes"). Only this file and
 * bin/ touch process.*: the pieces under cli/ take what they need of it as parameters.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { frugalMemory } from './api/v8-tuning.js';
import { realSleep } from './api/sleep.js';
import type { Runtime } from './context.js';
import type { ProcessProbe } from './store/index.js';
import type { Act, NounLine, Register } from './commands/types.js';
import NOUN_LIST from '../bin/nouns.json' with { type: 'json' };
import { CancelledError, PartialFailureError } from './errors.js';
import { type Env, type IO, decideColor, stderrColumns } from './output/io.js';
import { invokedNoun, normalizeArgv, settleJsonValue } from './argv.js';
import { listNouns, nounLines } from './root-help.js';
import { PIPED_HELP_WIDTH, helpConfiguration } from './help/command.js';
import { showHelp } from './help/dispatch.js';
import { generatedTopics } from './help/reference.js';
import { listTopics } from './help/topics.js';
import { NOUN_LINES, ONLY_NOUN, REGISTERS } from './registry.js';
import { EXIT, EXIT_MEANINGS, exitCodeFor, isCommanderError } from './cli/exit-codes.js';
import { newProgram } from './cli/global-flags.js';
import { childHostOf, probeOf, terminalIO } from './cli/process-host.js';
import { commandRunner } from './cli/run-command.js';

// bin/load-cli.js registers its code-cache save here (the bundle's exports are main and this).
export { onBeforeV8Tuning } from './api/v8-tuning.js';
export { EXIT, EXIT_MEANINGS, exitCodeFor } from './cli/exit-codes.js';

export type { Act, Handler, Register } from './commands/types.js';

export const NOUN_NAMES: readonly string[] = NOUN_LIST;
/** The nouns this file can register (a test compares them with bin/nouns.json). */
export const REGISTERED_NOUNS = Object.keys(REGISTERS);
const NOUNS: Record<string, Register> = Object.fromEntries(NOUN_LIST.flatMap((n) => (REGISTERS[n] ? [[n, REGISTERS[n]]] : [])));

/**
 * Whether this bundle runs `argv`: the full CLI runs everything; a bundle built for one noun
 * (registry-history.ts, bin/load-cli.js) only that noun's commands, never help, which
 * lists every noun. bin/load-cli.js guesses the noun before loading anything and asks this once
 * loaded (a value such as `--profile history` must not pick the wrong bundle).
 */
export function handles(argv: string[]): boolean {
  if (ONLY_NOUN === undefined) return true;
  const args = normalizeArgv(argv);
  // The root help's bundle ('') runs what names no noun: `geo`, `geo --help`.
  if (ONLY_NOUN === '') return invokedNoun(args) === undefined;
  return invokedNoun(args) === ONLY_NOUN && !args.some((a) => a === '--help' || a === '-h');
}

/** The root help's line for each noun, in bin/nouns.json's order (the build records them for dist/cli-root.js). */
export function rootNounLines(): NounLine[] {
  return nounLines(Object.values(NOUNS), () => async () => undefined);
}

export function readVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

export interface MainDeps {
  io: IO;
  env: Env;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal: AbortSignal;
  probe: ProcessProbe;
}

/** This process for the store's claims (cli/process-host.ts). */
export function processProbe(): ProcessProbe {
  return probeOf(process);
}

/** The program with every command registered in full: what the reference and the man pages describe. */
export function definitions(rt: Pick<Runtime, 'io' | 'version'> = { io: silentIO(), version: readVersion() }): Command {
  const program = newProgram(rt);
  program.configureHelp(helpConfiguration());
  const act: Act = () => async () => undefined;
  for (const register of Object.values(NOUNS)) register(program, act);
  return program;
}

function silentIO(): IO {
  const sink = { write: () => true } as unknown as IO['stdout'];
  return { stdin: process.stdin, stdout: sink, stderr: sink, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, colorOut: false, colorErr: false, columns: PIPED_HELP_WIDTH };
}

export async function buildProgram(rt: Runtime, argv: string[], onExit: (code: number) => void): Promise<Command> {
  const program = newProgram(rt);
  const topics = () => listTopics(generatedTopics(() => definitions(rt), EXIT_MEANINGS));
  program.configureHelp(helpConfiguration({ rootSections: () => [{ heading: 'Help topics: (geo help TOPIC)', items: topics().map((t) => [t.name, t.summary]) }] }));

  const act = commandRunner(rt, program, onExit);

  // `geo help NOUN` shows NOUN's own help, so NOUN is registered in full.
  const first = invokedNoun(argv);
  const noun = first === 'help' ? invokedNoun(argv.slice(argv.indexOf('help') + 1)) : first;
  // Own names only: `geo help __proto__` must not find Object's.
  if (noun && Object.hasOwn(NOUNS, noun)) NOUNS[noun]!(program, act);
  else listNouns(program, NOUN_LINES ?? nounLines(Object.values(NOUNS), act));
  // gh's `gh help TOPIC`: topics beside the commands (src/help/dispatch.ts).
  program
    .command('help')
    .argument('[name...]')
    .description('show a help topic (listed below) or the help of a command')
    .addHelpText('after', '\nExamples:\n  $ geo help formatting         # a topic\n  $ geo help cases create       # a command\'s flags and examples')
    .action((words: string[]) => showHelp(program, words, topics(), { write: (s) => rt.io.stdout.write(s), columns: rt.io.stdoutIsTTY ? rt.io.columns : PIPED_HELP_WIDTH }));
  return program;
}

/** Runs the CLI; returns the exit code. Tests call this in-process with injected deps. */
export async function main(argv: string[], deps?: Partial<MainDeps>): Promise<number> {
  const ownSignal = !deps?.signal;
  const controller = new AbortController();
  const io: IO = deps?.io ?? terminalIO(process);
  const env = deps?.env ?? process.env;
  let sigints = 0;
  const onSigint = () => {
    if (++sigints > 1) process.exit(EXIT.cancelled);
    controller.abort(new CancelledError('interrupted'));
  };
  if (ownSignal) process.on('SIGINT', onSigint);
  // `geo … | head` (and `2>&1 | head`): the reader left, so stop quietly with exit 0 instead of
  // dying on EPIPE with a stack, whichever stream noticed first and whatever wrote to it
  // (journaled work is safe; a rerun picks up the rest).
  // A command doing paid work (a batch) asks to finish first: it stops sending, lets what is in
  // flight arrive and be stored, and says so on stderr; any other command exits at once.
  const closing = new AbortController();
  let holds = 0;
  const onPipeClosed = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') return;
    if (holds === 0) process.exit(EXIT.ok);
    if (!closing.signal.aborted) closing.abort(new CancelledError('the output was closed'));
  };
  if (!deps?.io) for (const stream of [process.stdout, process.stderr]) stream.on('error', onPipeClosed);
  const rt: Runtime = {
    io,
    env,
    now: deps?.now ?? Date.now,
    sleep: deps?.sleep ?? realSleep,
    signal: deps?.signal ?? controller.signal,
    version: readVersion(),
    probe: deps?.probe ?? processProbe(),
    children: childHostOf(process),
    outputClosed: closing.signal,
    keepRunningOnClosedOutput: () => {
      holds++;
      let released = false;
      return () => {
        if (!released) holds--;
        released = true;
      };
    },
    execPath: process.execPath,
    node: process.versions.node,
    // Only for geo's own process: tests that run commands in-process keep their worker's V8 as is.
    ...(deps?.io ? {} : { frugalMemory }),
  };
  let exitCode = 0;
  const debug = argv.includes('--debug') || Boolean(env.GEO_DEBUG && env.GEO_DEBUG !== '0');
  try {
    const args = normalizeArgv(argv);
    const program = await buildProgram(rt, args, (code) => (exitCode = code));
    await program.parseAsync(settleJsonValue(args, (path) => subcommandsOf(program, path), (word) => existsSync(word)), { from: 'user' });
  } catch (err) {
    exitCode = exitCodeFor(err);
    // `geo` or `geo cases` without a command: commander has already printed the help to stderr.
    const helpShown = isCommanderError(err) && err.code === 'commander.help';
    if (exitCode !== 0 && !helpShown && !(err instanceof PartialFailureError)) {
      const { describeError } = await import('./output/errors.js');
      const columns = io.stderrIsTTY ? stderrColumns(io) : undefined;
      io.stderr.write(describeError(err, { color: decideColor(io.stderrIsTTY, env, argv.includes('--no-color')), ...(columns !== undefined ? { columns } : {}) }) + '\n');
      // The stack's first line is the message, which may quote the server: escaped like the rest.
      if (debug && err instanceof Error && err.stack) io.stderr.write((await import('./output/sanitize.js')).sanitize(err.stack) + '\n');
    }
  } finally {
    if (ownSignal) process.off('SIGINT', onSigint);
  }
  return exitCode;
}

/** The subcommand names (and aliases) under `path` (`['cases']` -> list, ls, create). */
function subcommandsOf(program: Command, path: readonly string[]): string[] {
  let cmd: Command | undefined = program;
  for (const word of path) cmd = cmd?.commands.find((c) => c.name() === word || c.aliases().includes(word));
  return cmd ? cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]) : [];
}
