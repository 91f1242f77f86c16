/**
 * How a command runs once commander has parsed it (the `act` every register wraps its handler
 * in): the global flags made GlobalOptions, the --json FIELDS / --jq filter set up in front of
 * stdout, the handler and its Ctx loaded, run, and cleaned up, whatever happens.
 */
import type { Command } from 'commander';
import { ApiError } from '../api/errors.js';
import type { Act } from '../commands/types.js';
import type { GlobalOptions, Runtime } from '../context.js';
import { BelowConfidenceError, ClaimContradictedError, PartialFailureError, UsageError } from '../errors.js';
import { type IO, decideColor, withIO } from '../output/io.js';
import { checkFields, jsonFieldsOf, parseFieldList } from '../output/json-fields.js';
import { JQ_DEFAULT_TIMEOUT_S } from '../output/jq-limits.js';

/** Where the command's key came from (GEO_API_KEY, a profile, the sandbox), or unknown. */
function keyOrigin(ctx: { resolved(): { key?: { source: string }; profile?: { name: string } } }): { source: string; profile?: string } {
  try {
    const r = ctx.resolved();
    return { source: r.key?.source ?? 'none', ...(r.profile ? { profile: r.profile.name } : {}) };
  } catch {
    return { source: 'unknown' };
  }
}

/**
 * The `act` of `program`: a handler's exit code goes to `onExit`, a failure is thrown for main()
 * to print and map (cli/exit-codes.ts).
 */
export function commandRunner(rt: Runtime, program: Command, onExit: (code: number) => void): Act {
  return (load, actOpts = {}) => async (...args) => {
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
    // The root help's bundle has no command runtime: the build swaps this import (build.ts 2c).
    const { createContext } = await import('../context.js');
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
    const { Jq } = await import('../output/jq.js');
    jq = new Jq(jqRun.expr, jqRun);
    // Checked in its worker, bounded like every run: `def f: f; f` ends here, nothing sent.
    await jq.check().catch(async (err: unknown) => {
      await jq!.close();
      throw err;
    });
  }
  const { openJsonFilter } = await import('../output/json-filter.js');
  return openJsonFilter(io.stdout, { declared, what, tty: io.stdoutIsTTY, ...(fields ? { fields } : {}), ...(jq ? { jq } : {}) });
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
