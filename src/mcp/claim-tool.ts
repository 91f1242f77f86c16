/**
 * The `check_claim` tool: `geo claims check` for an agent, through the command's
 * own run.ts (the same rules, the same batch engine, the same store, so a retry never pays twice)
 * and behind the same guards as `locate`: every file it reads, the claims file and each image its
 * rows name, must be inside the allowed folders (a refusal refuses the call before anything is
 * read or sent), and the plan must fit --max-credits-per-call and what is left of --max-credits.
 */
import { type ClaimRecord, type ClaimsOutcome, parseClaims, prepareClaims, runClaims } from '../commands/claims/run.js';
import { UsageError } from '../errors.js';
import { RefusedError } from './guards.js';
import { CHECK_CLAIM, parseArgs } from './inputs.js';
import type { ToolCtx, ToolResult } from './tool.js';

function line(r: ClaimRecord): string {
  if (r.verdict === null) return `not checked: ${r.error?.message ?? ''}`;
  return `${r.input} said to be at ${r.at ?? '?'} (within ${r.tolerance_km} km): ${r.verdict.toUpperCase()} (${r.rule}): ${r.reason}`;
}

async function caseOutcome(o: Extract<ClaimsOutcome, { dryRun: false }>, log: (l: string) => void): Promise<{ text: string; data: Record<string, unknown>; failed: boolean } | undefined> {
  const c = o.custody;
  if (!c) return undefined;
  const error = await c.close(log);
  const failures = await c.done();
  return { text: `case ${c.kase.id} (${c.kase.name}): ${o.checked.length} check${o.checked.length === 1 ? '' : 's'} logged, ${c.linked} result${c.linked === 1 ? '' : 's'} linked${error ? `; ${error.message}` : ''}`, data: { id: c.kase.id, name: c.kase.name, linked: c.linked, custody_failures: failures }, failed: error !== undefined };
}

export async function checkClaimTool(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  const a = parseArgs(CHECK_CLAIM(), raw);
  if ((a.images === undefined) === (a.claims_file === undefined)) throw new UsageError('give images (with at) or claims_file, one of the two', 'images: ["photo.jpg"], at: "Kharkiv, UA"; or claims_file: "claims.csv"');
  if (a.images !== undefined && a.at === undefined) throw new UsageError('images need at: where they are said to have been taken', 'at: "Kharkiv, UA" or "49.99,36.23"');
  // Every name is vetted before it is read: the claims file, the images, and each image a row names.
  const args = a.claims_file !== undefined ? [await t.dirs.readable(a.claims_file)] : await t.dirs.inputs(a.images!);
  const s = parseClaims(t.ctx, args, {
    ...(a.at !== undefined ? { at: a.at } : {}), ...(a.within !== undefined ? { within: String(a.within) } : {}), ...(a.captured_at !== undefined ? { capturedAt: a.captured_at } : {}),
    ...(a.depth !== undefined ? { depth: String(a.depth) } : {}), ...(a.scoped ? { scoped: true } : {}), ...(a.case !== undefined ? { case: a.case } : {}),
  });
  const prepared = await prepareClaims(s, t.log, { confine: (p) => t.dirs.readable(p) });
  return t.budget.run(async (limit, charge) => {
    let o: ClaimsOutcome;
    try {
      o = await runClaims(t.ctx, prepared, {
        consent: { noPrompt: 'geo mcp asks no one: the plan must fit its credit guards' }, say: t.log, signal: t.signal,
        budget: { maxCredits: limit.maxCredits, name: limit.name },
        onEvent: (e) => e.type === 'notice' && t.log(e.message),
      });
    } catch (err) {
      // The batch engine refuses a plan above the budget in the guard's own words.
      if (err instanceof UsageError && err.message.includes(limit.name.what)) throw new RefusedError('over_budget', err.message, err.hint);
      throw err;
    }
    if (o.dryRun) return { text: 'dry run: nothing sent', data: { plans: o.plans } };
    // In flight at a cancel: may have been charged, so counted.
    const spent = o.summaries.reduce((n, x, i) => n + x.creditsSpent + x.inFlight * (o.plans[i]?.costPerImage ?? 0), 0);
    charge(spent);
    const planned = o.plans.reduce((n, p) => n + p.credits, 0);
    const left = t.budget.left;
    const kase = await caseOutcome(o, t.log);
    const stopped = o.summaries.find((x) => x.stopped)?.stopped;
    const text = [
      ...o.records.map(line),
      ...(o.sandbox ? ['(answers from a geo sandbox: simulated, never evidence)'] : []),
      `credits: ${spent} spent by this call (plan up to ${planned}; ${o.reused} answered free from earlier runs)${left !== undefined ? `, ${left} left of --max-credits` : ''}${stopped ? `; stopped: ${stopped.reason}` : ''}`,
      ...(kase ? [kase.text] : []),
    ].join('\n');
    const data = {
      claims: o.records, credits: { spent, planned, depth: s.depth, ...(left !== undefined ? { left_this_run: left } : {}) },
      ...(stopped ? { stopped: stopped.reason } : {}), ...(kase ? { case: kase.data } : {}),
    };
    return { text, data, isError: o.records.every((r) => r.verdict === null || r.rule === 'not_located') || kase?.failed === true };
  });
}
