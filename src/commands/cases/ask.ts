/**
 * The interactive part of `cases create` (gh's `issue create` pattern): on a terminal, ask only
 * for what the flags left out, show a summary, confirm. Without a terminal, in CI or with
 * --no-input, nothing is asked and a missing name is a usage error.
 */
import type { Ctx } from '../../context.js';
import { DeclinedError, MissingKeyError, UsageError } from '../../errors.js';
import { stderrText } from '../../output/fit.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { type CreateOptions, NO_KEY_HINT } from './create-options.js';

/** The service's client for a new case; without a key, the hint points at --local. */
export function caseClient(ctx: Ctx): ReturnType<Ctx['client']> {
  try {
    return ctx.client();
  } catch (err) {
    if (err instanceof MissingKeyError) throw new MissingKeyError(NO_KEY_HINT);
    throw err;
  }
}

export async function askMissing(ctx: Ctx, opts: CreateOptions): Promise<CreateOptions> {
  const missing = opts.name === undefined || opts.description === undefined || opts.team === undefined;
  if (!ctx.interactive || !missing) {
    if (opts.name === undefined || !opts.name.trim()) {
      throw new UsageError('a case needs a name: --name is required without a terminal (or with --no-input / CI)', 'geo cases create --name "Harbour fire" [--description TEXT] [--team ID]');
    }
    return opts;
  }
  // Make sure a key exists before asking anything: answering three questions to get "no key" is rude.
  if (!opts.local) caseClient(ctx);
  const name = opts.name?.trim() ? opts.name : await ctx.prompt.input('Case name', { required: true });
  const description = opts.description ?? (await ctx.prompt.input('Description (optional)'));
  const team = opts.team ?? (await ctx.prompt.input('Team id (optional, Enter for none)'));
  const out: CreateOptions = { name: name.trim(), description, team: team.trim(), ...(opts.local ? { local: true } : {}) };
  // Each value wrapped under its own column, to the terminal's width.
  const row = (key: string, v: string) => stderrText(ctx.io, sanitizeInline(v) || '-', ' '.repeat(15), `  ${key.padEnd(13)}`);
  ctx.io.stderr.write(['', opts.local ? 'New case (on this machine only):' : 'New case:', row('name', out.name ?? ''), row('description', out.description ?? ''), row('team', out.team ?? ''), ''].join('\n') + '\n');
  if (!ctx.globals.yes && !(await ctx.prompt.confirm('Create this case?', true))) throw new DeclinedError('you said no: no case created, nothing sent', 'add --yes to create it without asking');
  return out;
}
