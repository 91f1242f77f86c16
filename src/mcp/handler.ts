/** Glue for `geo mcp`: the guard flags are checked (exit 2 before serving), then the server runs. */
import { resolve } from 'node:path';
import type { Handler } from '../commands/types.js';
import { UsageError } from '../errors.js';
import { AllowedDirs, Budget } from './guards.js';
import { serve } from './server.js';

export const DEFAULT_MAX_CREDITS_PER_CALL = 10;

function credits(v: unknown, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  if (!/^\d+$/.test(s)) throw new UsageError(`${flag} must be a whole number of credits, got "${String(v)}"`, 'depth costs: 1, 2 or 10 credits per image');
  return Number(s);
}

export const mcp: Handler = async (ctx, _args, opts) => {
  const perCall = credits(opts.maxCreditsPerCall, '--max-credits-per-call') ?? DEFAULT_MAX_CREDITS_PER_CALL;
  const total = credits(opts.maxCredits, '--max-credits');
  // Default: the folder geo was started in (an MCP client starts it in the project or home folder).
  const dirs = await AllowedDirs.open((opts.allowDir as string[] | undefined) ?? ['.'], resolve('.'));
  await serve(ctx, { dirs, budget: new Budget({ perCall, ...(total !== undefined ? { total } : {}) }), readOnly: Boolean(opts.readOnly) });
};
