/**
 * One claim check run as data, for every front end: `geo claims check` prints it
 * (handler.ts), `geo mcp`'s check_claim tool returns it. The claims are gathered and settled
 * locally first (a bad row is named, nothing sent for it); then the batch engine locates the
 * images (batch/claim-checks.ts: stored answers reused free, one plan, consent, --max-credits,
 * --dry-run); then each claim gets its verdict, and with --case a claim_checked custody entry.
 */
import { resolve } from 'node:path';
import { type CaseCustody, openCaseCustody } from '../../batch/case-custody.js';
import { caseSigner } from '../../batch/case-sign.js';
import { type CheckedClaim, checkClaims } from '../../batch/claim-checks.js';
import { claimRecord, problemRecord } from '../../batch/claim-record.js';
import type { ClaimRecord } from '../../claims/record.js';
import type { Consent } from '../../batch/consent.js';
import { Evidence } from '../../batch/evidence.js';
import { clientForPlan } from '../../batch/keyless.js';
import type { BudgetName } from '../../batch/plan.js';
import type { BatchEvent, BatchPlan, BatchSummary } from '../../batch/types.js';
import { isProblem } from '../../claims/resolve.js';
import { type Claim, type ClaimProblem, whereOf } from '../../claims/types.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { type GatherOptions, gatherClaims } from './inputs.js';
import type { ClaimsSettings } from './options.js';

export { type ClaimsSettings, parseClaims } from './options.js';
export type { ClaimRecord } from '../../claims/record.js';
export { CLAIM_FIELDS } from '../../claims/record.js';

export interface PreparedClaims {
  settings: ClaimsSettings;
  claims: Claim[];
  problems: ClaimProblem[];
  /** Claims and problems in the order given (the output's order). */
  items: Array<Claim | ClaimProblem>;
  skipped: Array<{ path: string; reason: string }>;
  single: boolean;
}

/**
 * The claims, settled locally: nothing is sent. `confine` (geo mcp) vets every image path before it is read. When none can be checked, the one problem (or a
 * count of them, each said on `say`) is a UsageError: exit 2, nothing sent.
 */
export async function prepareClaims(s: ClaimsSettings, say: (line: string) => void, opts: GatherOptions = {}): Promise<PreparedClaims> {
  const g = await gatherClaims(s.args, { ...(s.at !== undefined ? { at: s.at } : {}), ...(s.withinKm !== undefined ? { withinKm: s.withinKm } : {}), ...(s.capturedAt !== undefined ? { capturedAt: s.capturedAt } : {}) }, resolve('.'), opts);
  const claims = g.items.filter((i): i is Claim => !isProblem(i));
  const problems = g.items.filter(isProblem);
  if (claims.length === 0) {
    const only = problems.length === 1 ? problems[0]! : undefined;
    if (only) throw new UsageError(`${only.file !== undefined ? `${whereOf(only)}: ` : ''}${only.message}; nothing was sent`, only.hint);
    for (const p of problems) say(lineOf(p));
    throw new UsageError(`no claim could be checked (${problems.length} with problems, named above); nothing was sent`, 'fix the rows named above and run it again');
  }
  return { settings: s, claims, problems, items: g.items, skipped: g.skipped, single: g.single };
}

/** A problem in one line: where it is, what is wrong, the hint. */
export function lineOf(p: ClaimProblem): string {
  const where = p.file !== undefined ? `${whereOf(p)}: ` : '';
  return `not checked: ${where}${p.message}${p.hint ? ` (${p.hint})` : ''}; nothing sent for it`;
}

export interface ClaimsDeps {
  consent: Consent;
  /** Plan lines and notices for stderr. */
  say: (line: string) => void;
  onEvent?: (e: BatchEvent) => void;
  /** geo mcp's guards in place of --max-credits (plan.ts BudgetName names them in the refusal). */
  budget?: { maxCredits: number; name: BudgetName };
  signal?: AbortSignal;
}

export type ClaimsOutcome =
  | { dryRun: true; plans: BatchPlan[]; labels: string[] }
  | {
      dryRun: false;
      /** In the order given: the checked claims and the problems (verdict null). */
      records: ClaimRecord[];
      /** The same, each with the check it was made from (absent for problems). */
      entries: Array<{ record: ClaimRecord; checked?: CheckedClaim }>;
      checked: CheckedClaim[];
      plans: BatchPlan[];
      summaries: BatchSummary[];
      /** Answers reused from earlier runs (journal or stored results): not sent, not charged. */
      reused: number;
      sandbox: boolean;
      custody?: CaseCustody;
      evidence: Evidence;
    };

export async function runClaims(ctx: Ctx, p: PreparedClaims, deps: ClaimsDeps): Promise<ClaimsOutcome> {
  const s = p.settings;
  const client = clientForPlan(() => ctx.client(), () => ctx.resolved().baseUrl.value, s.dryRun);
  const account = await ctx.account();
  const evidence = new Evidence(ctx, { store: s.store && !s.dryRun });
  // --case: found before anything is sent (an unknown case is exit 2, nothing charged). Its head
  // is signed after the run's appends when a signing key is chosen, as locate's is.
  const say = (l: string) => deps.say(sanitizeInline(l));
  const custody = s.caseRef !== undefined && !s.dryRun
    ? await caseSigner(ctx, say).then(async (signer) => openCaseCustody({ store: await ctx.storeApi(), version: ctx.version, actor: await signer.actor(), now: ctx.now, cwd: resolve('.'), onCleanup: ctx.onCleanup, say, sign: (id) => signer.auto(id) }, s.caseRef!))
    : undefined;
  const n = p.claims.length;
  const maxCredits = deps.budget?.maxCredits ?? s.maxCredits;
  const release = ctx.keepRunningOnClosedOutput();
  let ran;
  try {
    ran = await checkClaims(p.claims, {
      depths: [s.depth], scoped: s.scoped, ...(s.dryRun ? { dryRun: true } : {}), ...(s.fresh ? { fresh: true } : {}), ...(s.store ? {} : { listed: false }),
      ...(s.concurrency !== undefined ? { concurrency: s.concurrency } : {}), ...(maxCredits !== undefined ? { maxCredits } : {}), ...(deps.budget ? { budgetName: deps.budget.name } : {}),
      ...(ctx.globals.yes && !deps.budget ? { yes: true } : {}), ...(s.confirmThreshold !== undefined ? { confirmThreshold: s.confirmThreshold } : {}),
      consent: deps.consent, evidence, store: await ctx.storeApi(), say: deps.say, what: `${n} claim${n === 1 ? '' : 's'} at depth ${s.depth}${s.scoped ? ' (with --scoped)' : ''}`,
      deps: {
        client, env: ctx.env, now: ctx.now, sleep: ctx.sleep, signal: deps.signal ?? ctx.signal, cwd: resolve('.'), exif: evidence.exif, store: await ctx.storeApi(), version: ctx.version,
        origin: ctx.serviceId(), stopSending: ctx.outputClosed, ...(account !== undefined ? { account } : {}), ...(custody ? { caseId: custody.kase.id } : {}), ...(ctx.frugalMemory ? { frugalMemory: ctx.frugalMemory } : {}),
      },
      onEvent: (e) => {
        custody?.onEvent(e);
        deps.onEvent?.(e);
      },
    });
  } finally {
    release();
  }
  if (ran.dryRun) return { dryRun: true, plans: ran.plans, labels: ran.labels };
  for (const c of ran.checked) custody?.claimChecked(custodyEntry(c));
  const byClaim = new Map(ran.checked.map((c) => [c.claim, c]));
  const entries = p.items.flatMap((i) => {
    if (isProblem(i)) return [{ record: problemRecord(i) }];
    const c = byClaim.get(i);
    return c ? [{ record: claimRecord(c), checked: c }] : [];
  });
  const records = entries.map((e) => e.record);
  const sandbox = client.servedBySandbox === true || ran.checked.some((c) => c.sandbox);
  return { dryRun: false, records, entries, checked: ran.checked, plans: ran.plans, summaries: ran.summaries, reused: ran.reused, sandbox, evidence, ...(custody ? { custody } : {}) };
}

function custodyEntry(c: CheckedClaim) {
  return {
    claim: { input: c.claim.input, input_sha256: c.answer.sha256, at: c.claim.at.text, lat: c.claim.at.lat, lng: c.claim.at.lng, place: c.claim.at.place },
    tolerance_km: c.claim.toleranceKm, verdict: c.judgement.verdict, rule: c.judgement.rule, answer_sha256: c.answerSha256,
    ...(c.scopedAnswerSha256 ? { scoped_answer_sha256: c.scopedAnswerSha256 } : {}),
  };
}
