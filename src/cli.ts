/**
 * The commander program: global flags, lazily loaded commands, and the ONE table from error to
 * exit code (DESIGN.md "Exit codes"). Only this file and bin/ touch process.*.
 */
import { existsSync, readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { InputChangedError } from './api/body.js';
import { frugalMemory } from './api/v8-tuning.js';
import { ApiError, BaseUrlError, ContractError, NetworkError, RedirectError, RequestValidationError, TimeoutError } from './api/errors.js';
import type { GlobalOptions, Runtime } from './context.js';
import type { ProcessProbe } from './store/index.js';
import type { ChildHost } from './media/run-tool.js';
import type { Act, NounLine, Register } from './commands/types.js';
import NOUN_LIST from '../bin/nouns.json' with { type: 'json' };
import { BelowConfidenceError, BudgetError, CancelledError, ClaimContradictedError, ConfigError, KeyringError, MissingKeyError, NotVerifiedError, PartialFailureError, ServiceAnswerError, StoreError, UsageError } from './errors.js';
import { type Env, type IO, decideColor, fdIsTTY, stderrColumns, withIO } from './output/io.js';
import { invokedNoun, normalizeArgv, settleJsonValue } from './argv.js';
import { checkFields, jsonFieldsOf, parseFieldList } from './output/json-fields.js';
import { JQ_DEFAULT_TIMEOUT_S } from './output/jq-limits.js';
import { listNouns, nounLines } from './root-help.js';
import { GeoCommand, PIPED_HELP_WIDTH, helpConfiguration } from './help/command.js';
import { showHelp } from './help/dispatch.js';
import { type ExitMeanings, generatedTopics } from './help/reference.js';
import { listTopics } from './help/topics.js';
import { NOUN_LINES, ONLY_NOUN, REGISTERS } from './registry.js';

// bin/load-cli.js registers its code-cache save here (the bundle's exports are main and this).
export { onBeforeV8Tuning } from './api/v8-tuning.js';

export const EXIT = {
  ok: 0, unexpected: 1, notVerified: 1, usage: 2, auth: 3, credits: 4, rateLimited: 5, service: 6, partial: 7, belowConfidence: 8, contradicted: 9, cancelled: 130,
} as const;

/**
 * What each code of EXIT means, in words: `geo help exit-codes`, the reference and the man pages
 * are made from this (test/help/topics.test.ts checks every code of EXIT is here).
 */
export const EXIT_MEANINGS: ExitMeanings = [
  [EXIT.ok, 'success'],
  [EXIT.unexpected, 'an unexpected failure (--debug shows the stack), or a check that did not verify (geo cases verify)'],
  [EXIT.usage, 'usage or invalid input: a bad flag or file, a plan above --max-credits or not confirmed; nothing was sent'],
  [EXIT.auth, 'authentication or permission: the key was refused (401, 403), missing, or the keyring would not answer'],
  [EXIT.credits, "credits: not enough (402), or the --max-credits budget or the store's budget ran out (the rest not sent)"],
  [EXIT.rateLimited, 'rate limited (429) after retries'],
  [EXIT.service, 'the service or the network failed after retries (5xx, timeout, connection reset, an unreadable answer)'],
  [EXIT.partial, 'some inputs of a batch failed or were skipped (each has its record; the others succeeded)'],
  [EXIT.belowConfidence, 'a result is below --min-confidence (it is still printed)'],
  [EXIT.contradicted, 'a claim was contradicted (geo claims check --fail-on contradicts; every verdict is still printed)'],
  [EXIT.cancelled, 'cancelled: Ctrl-C, or the output closed (a rerun of the same command finishes the work, paying nothing twice)'],
];

/** The one table from failure to exit code. */
/** Where the command's key came from (GEO_API_KEY, a profile, the sandbox), or unknown. */
function keyOrigin(ctx: { resolved(): { key?: { source: string }; profile?: { name: string } } }): { source: string; profile?: string } {
  try {
    const r = ctx.resolved();
    return { source: r.key?.source ?? 'none', ...(r.profile ? { profile: r.profile.name } : {}) };
  } catch {
    return { source: 'unknown' };
  }
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof PartialFailureError) return err.exitOverride ?? EXIT.partial;
  if (err instanceof BelowConfidenceError) return EXIT.belowConfidence;
  if (err instanceof ClaimContradictedError) return EXIT.contradicted;
  if (err instanceof CancelledError) return EXIT.cancelled;
  if (err instanceof NotVerifiedError) return EXIT.notVerified;
  // A file rewritten while it was sent is an input problem too: nothing more went out for it.
  if (err instanceof UsageError || err instanceof RequestValidationError || err instanceof ConfigError || err instanceof BaseUrlError || err instanceof InputChangedError) return EXIT.usage;
  if (err instanceof MissingKeyError || err instanceof KeyringError) return EXIT.auth;
  if (err instanceof BudgetError) return EXIT.credits;
  // A team store that cannot be reached: nothing was claimed or sent.
  if (err instanceof StoreError && err.kind === 'unreachable') return EXIT.service;
  // A team store that refused the login or what the role asked (its grants): nothing was changed.
  if (err instanceof StoreError && err.kind === 'denied') return EXIT.auth;
  if (err instanceof ApiError) {
    if (err.status === 401 || err.status === 403) return EXIT.auth;
    if (err.status === 402) return EXIT.credits;
    if (err.status === 429) return EXIT.rateLimited;
    // Still running when the deadline passed: nothing about the input is wrong; the service has it.
    if (err.status >= 500 || err.code === 'idempotency_in_progress') return EXIT.service;
    return EXIT.usage;
  }
  if (err instanceof NetworkError || err instanceof TimeoutError || err instanceof ContractError || err instanceof RedirectError || err instanceof ServiceAnswerError) return EXIT.service;
  if (isCommanderError(err)) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  return EXIT.unexpected;
}

interface CommanderErrorLike {
  code: string;
  exitCode: number;
  message: string;
}
function isCommanderError(err: unknown): err is CommanderErrorLike {
  return typeof err === 'object' && err !== null && typeof (err as CommanderErrorLike).code === 'string' && (err as CommanderErrorLike).code.startsWith('commander.');
}

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

/** A process's start time in clock ticks since boot (/proc/PID/stat field 22), '' where there is no /proc. */
function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** This process for the store's claims: a claim whose holder's pid is gone (or reused) is free. */
export function processProbe(): ProcessProbe {
  let start: string | undefined;
  return {
    pid: process.pid,
    get start() {
      return (start ??= processStart(process.pid));
    },
    alive(pid, started) {
      try {
        process.kill(pid, 0);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
      }
      const now = started ? processStart(pid) : '';
      return !(now && now !== started);
    },
  };
}

/**
 * Tools (ffmpeg, ffprobe) run in process groups of their own (media/run-tool.ts): this kills a
 * group, and kills any still running when geo exits first (a second Ctrl-C exits at once).
 */
export function childHost(): ChildHost {
  const live = new Set<number>();
  let hooked = false;
  const killGroup = (pgid: number) => {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      try {
        process.kill(pgid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  };
  return {
    pid: process.pid,
    alive: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code !== 'ESRCH';
      }
    },
    killGroup,
    track(pgid) {
      live.add(pgid);
      if (!hooked) {
        hooked = true;
        process.on('exit', () => live.forEach(killGroup));
      }
      return () => live.delete(pgid);
    },
  };
}

function parseSeconds(v: string, flag: string, example: string): number {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0)) throw new UsageError(`${flag} must be a positive number of seconds, got "${v}"`, `for example ${example}`);
  return n;
}

const parseTimeout = (v: string) => parseSeconds(v, '--timeout', '--timeout 180');

/** The program with its global flags and help, before any command is registered. */
function newProgram(rt: Pick<Runtime, 'io' | 'version'>): GeoCommand {
  const program = new GeoCommand('geo')
    .description('geo: from a photo to an evidence-backed location (Visual Geolocation API)')
    .version(rt.version, '-V, --version', 'print the version')
    .option('--json [fields]', 'JSON output; --json a,b: only those (geo help formatting)')
    .option('--jq <expr>', 'filter the JSON with jq\'s language, no jq needed')
    .addOption(new Option('--jq-timeout <s>', 'seconds --jq may run per document (then exit 2)').default(JQ_DEFAULT_TIMEOUT_S).argParser((v) => parseSeconds(v, '--jq-timeout', '--jq-timeout 30')))
    .option('--format <fmt>', 'table, json, ndjson; files: csv, geojson, kml, kmz, html')
    .option('--profile <name>', 'use this key profile (env GEO_PROFILE)')
    .option('--base-url <url>', 'API base URL (env GEO_BASE_URL; default https://oceanir.ai)')
    .option('--no-color', 'no colour (also NO_COLOR, TERM=dumb)')
    .option('-q, --quiet', 'only data and errors')
    .option('--debug', 'log HTTP to stderr, secrets redacted (env GEO_DEBUG)')
    .addOption(new Option('--timeout <s>', 'per-attempt timeout in seconds').default(180).argParser(parseTimeout))
    .option('--no-input', 'never prompt')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--sandbox', 'a sandbox for this command only, fresh each run (no account)')
    .option('--store <url>', "a team's postgres:// store, or local (env GEO_STORE_URL)")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => rt.io.stdout.write(s),
      writeErr: (s) => rt.io.stderr.write(s),
      outputError: () => {
        /* printed once by main() */
      },
      // Help fits the terminal it is printed on, and 80 columns into a pipe or a file.
      getOutHelpWidth: () => (rt.io.stdoutIsTTY ? rt.io.columns : PIPED_HELP_WIDTH),
      getErrHelpWidth: () => (rt.io.stderrIsTTY ? stderrColumns(rt.io) : PIPED_HELP_WIDTH),
    });
  program.addHelpText(
    'after',
    `
Examples (each runs as written; sample:NAME is a photo shipped with geo):
  $ geo --sandbox locate sample:paris --depth 3   # no account, no credits
  $ geo --sandbox locate sample:tokyo --json | jq .location
  $ geo inspect sample:sydney                     # offline: what the file says
  $ geo --sandbox credits --jq .data.total_available
  $ geo help locate                               # a command's flags, examples
  $ geo doctor                                    # what works, what does not

With your own key and photos:
  geo keys add work                   # store a key in the OS keyring
  geo locate photo.jpg --depth 3      # locate one image, forensic depth

Exit codes: geo help exit-codes. Environment variables: geo help environment.`,
  );
  return program;
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

  const act: Act = (load, actOpts = {}) => async (...args) => {
    const cmd = args[args.length - 1] as Command;
    const opts = cmd.optsWithGlobals() as Record<string, unknown>;
    // --json alone is true (or '' when settleJsonValue kept the next word an argument); --jq implies JSON.
    const json = opts.json !== undefined && opts.json !== false;
    const fields = typeof opts.json === 'string' && opts.json !== '' ? parseFieldList(opts.json) : undefined;
    const jq = typeof opts.jq === 'string' ? opts.jq : undefined;
    const globals: GlobalOptions = {
      ...(opts as GlobalOptions),
      json: json || jq !== undefined || opts.format === 'json',
      format: json || jq !== undefined ? 'json' : (opts.format as string | undefined),
      ...(fields ? { jsonFields: fields } : {}),
      ...(jq !== undefined ? { jq } : {}),
      // The root's --store URL|local, never a command's own --no-store (locate's, a boolean).
      store: typeof program.opts().store === 'string' ? (program.opts().store as string) : undefined,
    };
    let io: IO = withIO(rt.io, { colorOut: decideColor(rt.io.stdoutIsTTY, rt.env, opts.color === false), colorErr: decideColor(rt.io.stderrIsTTY, rt.env, opts.color === false) });
    // gh's --json FIELDS and --jq, for every command at once: a filter in front of stdout, set up
    // (fields and expression checked) before the command sends anything.
    const jqRun = jq !== undefined ? { expr: jq, timeoutMs: Number(opts.jqTimeout ?? JQ_DEFAULT_TIMEOUT_S) * 1000, signal: rt.signal } : undefined;
    const filter = fields || jqRun ? await openFilter(cmd, io, fields, jqRun) : undefined;
    if (filter) io = withIO(io, { stdout: filter.stream, colorOut: false });
    const handler = await load();
    const { createContext } = await import('./context.js');
    const ctx = await createContext({ ...rt, io }, globals, actOpts);
    let failed: unknown;
    try {
      const code = await handler(ctx, cmd.processedArgs as unknown[], opts);
      if (typeof code === 'number') onExit(code);
    } catch (err) {
      failed = err;
      // A refused key: its hint names where the key came from, not a command that reads the same key.
      if (err instanceof ApiError && err.status === 401 && err.keyFrom === undefined) err.keyFrom = keyOrigin(ctx);
    } finally {
      await ctx.cleanup();
    }
    try {
      await filter?.close();
    } catch (err) {
      // A failed selection or expression (exit 2) outranks "some inputs failed" or "below confidence".
      if (failed === undefined || failed instanceof PartialFailureError || failed instanceof BelowConfidenceError || failed instanceof ClaimContradictedError) failed = err;
    }
    if (failed !== undefined) throw failed;
  };

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
  const io: IO = deps?.io ?? {
    // A getter: Node builds process.stdin on first use (~4 ms on Node 20), and most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: fdIsTTY(0),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    colorOut: false,
    colorErr: false,
    // Each stream is fitted to its own terminal; a redirected one borrows the other's width.
    columns: process.stdout.columns || process.stderr.columns || 100,
    errColumns: process.stderr.columns || process.stdout.columns || 100,
  };
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
    sleep: deps?.sleep ?? defaultSleep,
    signal: deps?.signal ?? controller.signal,
    version: readVersion(),
    probe: deps?.probe ?? processProbe(),
    children: childHost(),
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

/**
 * The stdout filter of --json FIELDS / --jq (output/json-filter.ts) for `cmd`, after checking, before
 * anything runs, that the command prints JSON, that the fields exist and that jq can compile EXPR.
 */
async function openFilter(cmd: Command, io: IO, fields: string[] | undefined, jqRun: { expr: string; timeoutMs: number; signal: AbortSignal } | undefined) {
  const what = `geo ${commandPath(cmd)}`;
  const declared = jsonFieldsOf(commandPath(cmd));
  if (!declared) throw new UsageError(`${what} prints no JSON, so ${fields ? '--json FIELDS' : '--jq'} has nothing to work on`, 'see geo help formatting');
  if (fields) checkFields(fields, declared, what);
  let jq;
  if (jqRun) {
    const { Jq } = await import('./output/jq.js');
    jq = new Jq(jqRun.expr, jqRun);
    // Checked in its worker, bounded like every run: `def f: f; f` ends here, nothing sent.
    await jq.check().catch(async (err: unknown) => {
      await jq!.close();
      throw err;
    });
  }
  const { openJsonFilter } = await import('./output/json-filter.js');
  return openJsonFilter(io.stdout, { declared, what, tty: io.stdoutIsTTY, ...(fields ? { fields } : {}), ...(jq ? { jq } : {}) });
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
