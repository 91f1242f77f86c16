/**
 * Glue for `geo api`: stdout gets the answer (with -i, its status line and headers first), stderr
 * what it cost and the one error line. The body is printed as received: byte for byte into a pipe
 * (so `| jq` sees what the server sent), escaped on a terminal (sanitize.ts), never reformatted.
 * The exit code is the status's, through the one table in cli.ts; an error body is printed too.
 */
import { STATUS_CODES } from 'node:http';
import type { RawResponse } from '../../api/client.js';
import { chargeOf } from '../../api/charge.js';
import { ApiError, ContractError, NetworkError, TimeoutError } from '../../api/errors.js';
import type { Depth } from '../../api/schemas.js';
import { holdCredits, settleCredits } from '../../batch/team-budget.js';
import type { Spent } from '../../batch/spend-guard.js';
import type { Handler } from '../types.js';
import type { Ctx } from '../../context.js';
import { BudgetError, ServiceAnswerError } from '../../errors.js';
import { describe } from '../../output/errors.js';
import { sanitize, sanitizeInline, sanitizeJsonText } from '../../output/sanitize.js';
import { requireSpendConsent } from './cost.js';
import { normalizeBaseUrl } from '../../api/client.js';
import { apiClaim, settleClaim, storedResponse, takeTurn } from './claim.js';
import { MAX_PAGES, firstPage, nextPage } from './paginate.js';
import { type ApiOptions, type ApiPlan, planApi, runApi } from './run.js';

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

function optionsOf(path: unknown, opts: Record<string, unknown>): ApiOptions {
  return {
    path: String(path ?? ''),
    fields: list(opts.rawField),
    typedFields: list(opts.field),
    headers: list(opts.header),
    ...(typeof opts.method === 'string' ? { method: opts.method } : {}),
    ...(typeof opts.inputFile === 'string' ? { input: opts.inputFile } : {}),
  };
}

/** `HTTP/1.1 200 OK` and one `name: value` line per header: always escaped, they are not data. */
function head(res: RawResponse): string {
  const lines = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd()];
  for (const [k, v] of Object.entries(res.headers)) lines.push(sanitizeInline(`${k}: ${v}`));
  return lines.join('\n') + '\n\n';
}

function body(ctx: Pick<Ctx, 'io'>, res: RawResponse): string {
  if (!ctx.io.stdoutIsTTY) return res.raw;
  const json = /json/i.test(res.headers['content-type'] ?? '');
  const text = json ? sanitizeJsonText(res.raw) : sanitize(res.raw);
  return text === '' || text.endsWith('\n') ? text : text + '\n';
}

/**
 * A geolocate that got no answer may have run and been paid: the way to settle it is the same
 * body under the same key, which replays a completed analysis free. The generic hint says "rerun
 * the same command", but a rerun of `geo api` draws a new key unless it is given with -H.
 */
function withKeyHint(err: unknown, plan: ApiPlan): unknown {
  const mayHaveRun = err instanceof TimeoutError || err instanceof ContractError || (err instanceof NetworkError && err.mayHaveRun);
  if (!plan.idempotencyKey || !mayHaveRun) return err;
  const key = sanitizeInline(plan.idempotencyKey);
  return new ServiceAnswerError(describe(err).message, `the analysis may have run: send the same body again with -H 'Idempotency-Key: ${key}' to get its answer without paying twice`);
}

/** Prints one answer: status and headers with -i (on stderr when stdout holds filtered JSON), then the body. */
function print(ctx: Ctx, res: RawResponse, opts: Record<string, unknown>): void {
  const filtered = ctx.globals.jq !== undefined || ctx.globals.jsonFields !== undefined;
  if (opts.include) (filtered ? ctx.io.stderr : ctx.io.stdout).write(head(res));
  if (!opts.silent) ctx.io.stdout.write(body(ctx, res));
  // An error status (ApiError, RedirectError): its exit code and one line on stderr, from cli.ts.
  if (res.error) throw res.error;
}

/**
 * A geolocate goes through the store's claims (claim.ts): answered before (by any command, or by
 * another process meanwhile), it is printed from the store; otherwise sent with its claim's key,
 * and the answer stored.
 */
async function geolocate(ctx: Ctx, plan: ApiPlan, opts: Record<string, unknown>): Promise<void> {
  const claim = await apiClaim(ctx, plan.body);
  const say = (line: string) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(`${sanitizeInline(line)}\n`);
  };
  const turn = claim ? await takeTurn(ctx, claim, { ...(plan.userKey !== undefined ? { user: plan.userKey } : {}), planned: plan.idempotencyKey! }, say) : undefined;
  if (turn && 'stored' in turn) {
    if (!ctx.globals.quiet) ctx.io.stderr.write(`${turn.why === 'others' ? 'answered by another geo process that sent the same request' : 'this request was answered before'}: printed from the store (${turn.stored.record.stored_at}), nothing sent, not charged\n`);
    return print(ctx, storedResponse(turn.stored), opts);
  }
  // An open claim of an earlier run is resent with its own key, which the service replays free.
  if (turn) plan.headers['idempotency-key'] = plan.idempotencyKey = turn.send;
  // The store's budget, as for geo locate (batch/team-budget.ts): held before the send, at the
  // body's depth (the most, when it does not say one); nothing is sent when it has no room.
  const depth: Depth = plan.spend!.depth ?? 3;
  if (claim && turn) {
    const full = await holdCredits(claim.ledger.store, plan.idempotencyKey!, depth);
    if (full !== undefined) {
      await claim.ledger.store.release(plan.idempotencyKey!).catch(() => undefined);
      throw new BudgetError(`${full}; nothing was sent`, 'geo store budget set N raises the cap');
    }
  }
  if (!ctx.globals.quiet) {
    const said = plan.spend!.depth ? `depth ${plan.spend!.depth}` : 'depth not given as 1-3';
    ctx.io.stderr.write(`geolocate (${said}): up to ${plan.spend!.credits} credits · Idempotency-Key ${sanitizeInline(plan.idempotencyKey)}\n`);
  }
  let sent: RawResponse | undefined;
  try {
    sent = await runApi(ctx, plan);
  } catch (err) {
    throw withKeyHint(err, plan);
  } finally {
    const credits = sent && sent.headers['idempotent-replayed'] !== 'true' ? (plan.spend?.credits ?? 0) : 0;
    if (claim && turn) {
      await settleClaim(ctx, claim, plan.idempotencyKey!, sent, credits, (l) => ctx.io.stderr.write(`${sanitizeInline(l)}\n`));
      await settleCredits(claim.ledger.store, plan.idempotencyKey!, keyCost(sent, depth));
    }
  }
  print(ctx, sent, opts);
}

/**
 * What the key cost, for the store's budget: an answer, its own depth's cost (a replay too: the
 * service charged the key once); an error status nothing (api-spec.md: failed analyses are not
 * charged), but 409 in progress, which is still running; no answer at all (a dropped connection,
 * Ctrl-C), unknown, so the reservation stays until the same body is sent again.
 */
function keyCost(sent: RawResponse | undefined, asked: Depth): Spent {
  if (!sent) return 'unknown';
  if (sent.error) return sent.error instanceof ApiError && sent.error.code === 'idempotency_in_progress' ? 'unknown' : 0;
  let data: unknown;
  try {
    data = JSON.parse(sent.raw);
  } catch {
    data = undefined;
  }
  return chargeOf({ askedDepth: asked, data, replayed: sent.headers['idempotent-replayed'] === 'true', attempts: 1, firstSend: false }).keyCredits;
}

export const api: Handler = async (ctx, args, opts) => {
  const plan = await planApi(ctx, optionsOf(args[0], opts));
  if (plan.spend) {
    await requireSpendConsent(ctx, plan.spend);
    return geolocate(ctx, plan, opts);
  }
  const paging = opts.paginate ? firstPage(plan) : undefined;
  if (paging && !ctx.globals.quiet) ctx.io.stderr.write(`${sanitizeInline(paging.note)}\n`);
  let request = paging?.plan ?? plan;
  for (let page = 1; ; page++) {
    let res: RawResponse;
    try {
      res = await runApi(ctx, request);
    } catch (err) {
      throw withKeyHint(err, plan);
    }
    print(ctx, res, opts);
    const next = paging && page < MAX_PAGES ? nextPage(res.headers, normalizeBaseUrl(ctx.resolved().baseUrl.value)) : undefined;
    if (next === undefined) return;
    request = { ...request, path: next };
  }
};
