/**
 * Claim checks on the batch engine: every claimed image is located unscoped (the
 * claim never steers the model: api-spec.md "the scope is never evidence"), one batch per depth, so
 * an image already answered with the same request is reused free from the store; with --scoped,
 * one more batch per claimed place (and depth) sends the images claimed there with the claim as
 * their scope. All the batches are one plan (units.ts): the cost is said before anything is sent,
 * with the usual consent, --max-credits and --dry-run. Each claim then gets its evidence and
 * verdict (claims/): the rules never see the store or the network.
 */
import type { Depth, Scope } from '../api/schemas.js';
import { evidenceFor } from '../claims/evidence.js';
import { judge, scopeRadiusKm } from '../claims/rules.js';
import type { Claim, ClaimEvidence, Judgement } from '../claims/types.js';
import { sha256Hex } from '../evidence/custody.js';
import type { ProvenanceRecord } from '../evidence/record-types.js';
import { adviceOf } from '../eval/advice.js';
import type { StoreApi } from '../store/index.js';
import type { Consent } from './consent.js';
import type { Evidence } from './evidence.js';
import type { BudgetName } from './plan.js';
import type { BatchDeps, BatchResult } from './run.js';
import type { BatchEvent, BatchPlan, BatchRecord, BatchSummary } from './types.js';
import { type Unit, runUnits } from './units.js';

/** One claim checked at one depth: what was asked, what came back, the evidence and the verdict. */
export interface CheckedClaim {
  claim: Claim;
  depth: Depth;
  answer: BatchRecord;
  scoped?: BatchRecord;
  evidence: ClaimEvidence;
  judgement: Judgement;
  /** The stored provenance of the unscoped answer (exports, the report, custody), when there is one. */
  record?: ProvenanceRecord;
  scopedRecord?: ProvenanceRecord;
  /** sha256 of the raw answer as stored (custody's answer_sha256), and the scoped one's. */
  answerSha256: string | null;
  scopedAnswerSha256: string | null;
  /** The answer was the sandbox's: simulated, never evidence. */
  sandbox: boolean;
}

export interface ClaimChecksOptions {
  depths: readonly Depth[];
  scoped: boolean;
  dryRun?: boolean;
  fresh?: boolean;
  /** false (--no-store): answers are kept for their claims only, not listed in history. */
  listed?: boolean;
  concurrency?: number;
  maxCredits?: number;
  budgetName?: BudgetName;
  yes?: boolean;
  confirmThreshold?: number;
  consent: Consent;
  /** The engine's deps (client, store, account, exif hook…); onEvent is added per batch. */
  deps: Omit<BatchDeps, 'onEvent' | 'confirm' | 'noPrompt'>;
  evidence: Evidence;
  store: StoreApi;
  say: (line: string) => void;
  /** Every batch event (the case custody observer, notices, progress). */
  onEvent?: (e: BatchEvent) => void;
  /** "12 claims": what consent names. */
  what: string;
}

export type ClaimChecksRan =
  /** `labels`: each batch's name in the plan lines ("depth 1", "depth 1, scoped to Kharkiv (20 km)"). */
  | { dryRun: true; plans: BatchPlan[]; labels: string[] }
  | { dryRun: false; checked: CheckedClaim[]; plans: BatchPlan[]; summaries: BatchSummary[]; reused: number };

/** The scope a --scoped request carries for a claim: its place, its tolerance as the radius, its time. */
export function scopeOf(c: Claim): Scope {
  const name = c.at.place?.split(',')[0]?.trim() || c.at.text;
  return { name, lat: c.at.lat, lng: c.at.lng, radius_km: scopeRadiusKm(c.toleranceKm), ...(c.capturedAt !== undefined ? { captured_at: c.capturedAt } : {}) };
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

interface Plan {
  units: Unit[];
  /** Per unit: its depth, and the scope key it sends (undefined: unscoped). */
  keys: Array<{ depth: Depth; scope?: string }>;
}

function planUnits(claims: readonly Claim[], o: ClaimChecksOptions): Plan {
  const units: Unit[] = [];
  const keys: Plan['keys'] = [];
  const shared = { ...(o.fresh ? { fresh: true } : {}), ...(o.listed === false ? { listed: false } : {}), ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}) };
  for (const depth of o.depths) {
    units.push({ options: { inputs: unique(claims.map((c) => c.path)), depth, ...shared }, label: `depth ${depth}` });
    keys.push({ depth });
    if (!o.scoped) continue;
    const byScope = new Map<string, { scope: Scope; paths: string[] }>();
    for (const c of claims) {
      const scope = scopeOf(c);
      const key = JSON.stringify(scope);
      const g = byScope.get(key) ?? { scope, paths: [] };
      g.paths.push(c.path);
      byScope.set(key, g);
    }
    for (const [key, g] of byScope) {
      units.push({ options: { inputs: unique(g.paths), depth, scope: g.scope, ...shared }, label: `depth ${depth}, scoped to ${g.scope.name} (${g.scope.radius_km} km)` });
      keys.push({ depth, scope: key });
    }
  }
  return { units, keys };
}

export async function checkClaims(claims: readonly Claim[], o: ClaimChecksOptions): Promise<ClaimChecksRan> {
  const { units, keys } = planUnits(claims, o);
  // Which stored answer each record is, and whether the sandbox gave it (the store keeps that flag).
  const stored = new Map<BatchRecord, { record: ProvenanceRecord; sandbox: boolean }>();
  const storedIds = new Map<BatchRecord, { record: ProvenanceRecord; id: number }>();
  let reused = 0;
  const ran = await runUnits(units, {
    ...(o.maxCredits !== undefined ? { maxCredits: o.maxCredits } : {}), ...(o.budgetName ? { budgetName: o.budgetName } : {}),
    ...(o.yes ? { yes: true } : {}), ...(o.dryRun ? { dryRun: true } : {}), ...(o.confirmThreshold !== undefined ? { confirmThreshold: o.confirmThreshold } : {}),
    consent: o.consent, what: o.what, say: o.say,
    deps: () => ({ ...o.deps, onEvent: (e) => o.evidence.onEvent(e) }),
    onEvent: (_i, e) => {
      if (e.type === 'finished' && e.stored) storedIds.set(e.record, { record: e.stored.record, id: e.stored.id });
      if (e.type === 'finished' && (e.reused || e.fromJournal)) reused++;
      o.onEvent?.(e);
    },
  });
  if (ran.dryRun) return { dryRun: true, plans: ran.plans, labels: units.map((u) => u.label) };
  // The store is asynchronous (a team's PostgreSQL): the sandbox flags are read once the run is over.
  for (const [rec, s] of storedIds) stored.set(rec, { record: s.record, sandbox: (await o.store.result(s.id))?.sandbox ?? false });
  const byKey = new Map<string, Map<string, BatchRecord>>();
  ran.runs.forEach((r: BatchResult, i) => byKey.set(JSON.stringify(keys[i]), new Map(r.records.map((rec) => [rec.input, rec]))));
  const checked: CheckedClaim[] = [];
  for (const depth of o.depths) {
    const plain = byKey.get(JSON.stringify({ depth }));
    for (const claim of claims) {
      // A batch that stopped early (budget, auth…) leaves later batches unrun: their claims are not checked.
      const answer = plain?.get(claim.path);
      if (!answer) continue;
      const scopedRun = o.scoped ? byKey.get(JSON.stringify({ depth, scope: JSON.stringify(scopeOf(claim)) })) : undefined;
      const scoped = o.scoped ? (scopedRun?.get(claim.path) ?? { input: claim.path, sha256: null, ok: false, error: { code: 'not_sent', message: 'the scoped request was not sent: the run stopped first' }, exif: null }) : undefined;
      checked.push(judged(claim, depth, answer, scoped, (r) => {
        const s = stored.get(r);
        return s ? { record: o.evidence.provenance.get(r) ?? s.record, sandbox: s.sandbox } : undefined;
      }));
    }
  }
  return { dryRun: false, checked, plans: ran.plans, summaries: ran.runs.map((r) => r.summary), reused };
}

type StoredOf = (r: BatchRecord) => { record: ProvenanceRecord; sandbox: boolean } | undefined;

function judged(claim: Claim, depth: Depth, answer: BatchRecord, scoped: BatchRecord | undefined, storedOf: StoredOf): CheckedClaim {
  const body = answer.ok ? (answer.result as { calibration?: unknown; confidence?: unknown } | undefined) : undefined;
  const advice = body && typeof body.confidence === 'number' ? adviceOf(body.calibration, body.confidence) : undefined;
  const evidence = evidenceFor(claim, answer, { ...(scoped ? { scoped } : {}), ...(advice ? { advice } : {}) });
  const s = storedOf(answer);
  const ss = scoped ? storedOf(scoped) : undefined;
  const shaOf = (r: ProvenanceRecord | undefined) => (r ? sha256Hex(r.response.raw ?? '') : null);
  return {
    claim, depth, answer, ...(scoped ? { scoped } : {}), evidence, judgement: judge(evidence),
    ...(s ? { record: s.record } : {}), ...(ss ? { scopedRecord: ss.record } : {}),
    answerSha256: shaOf(s?.record), scopedAnswerSha256: shaOf(ss?.record), sandbox: Boolean(s?.sandbox || ss?.sandbox),
  };
}
