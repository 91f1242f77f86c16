/**
 * Seeded keys, tiers, balances and the ledger (DESIGN.md "Sandbox surface").
 *
 * Funding: the spec gives two statements (api-spec.md "Authentication", last paragraph). The sandbox
 * models the DEDICATED API-ONLY one: every debit comes from api_balance; balance (the shared app
 * balance) is reported but never touched; total_available = api_balance; total_used = credits
 * debited minus credits refunded.
 */
import type { Depth } from '../api/schemas.js';

export type Tier = 'free' | 'starter' | 'pro' | 'enterprise';

/** api-spec.md "Authentication" rule 3, the tier grants table. */
export const TIER_GRANTS: Record<Tier, readonly string[]> = {
  free: ['geolocate:d1'],
  starter: ['geolocate:d1', 'geolocate:d2'],
  pro: ['geolocate:d1', 'geolocate:d2', 'geolocate:d3', 'cases:read', 'cases:write'],
  enterprise: ['geolocate:d1', 'geolocate:d2', 'geolocate:d3', 'cases:read', 'cases:write', 'batch:submit'],
};

export function tierMaxDepth(tier: Tier): Depth {
  const g = TIER_GRANTS[tier];
  return g.includes('geolocate:d3') ? 3 : g.includes('geolocate:d2') ? 2 : 1;
}

/** Requests per window. The spec gives free 5, pro 30, enterprise 120 a minute; starter is silent: 15. */
export const TIER_RATE: Record<Tier, number> = { free: 5, starter: 15, pro: 30, enterprise: 120 };

export interface SeedKey {
  key: string;
  tier: Tier;
  /** Shared app balance: reported, never debited (dedicated-credit statement). */
  balance: number;
  apiBalance: number;
  history: boolean;
  depthCap?: Depth;
  prepaidExhausted?: boolean;
  note: string;
}

/** Balances are generous so test suites never run dry; `geo sandbox` prints this table. */
export const SEED_KEYS: readonly SeedKey[] = [
  { key: 'orca_sandbox_free', tier: 'free', balance: 0, apiBalance: 1_000, history: true, note: 'depth 1 only; 5 req/min' },
  { key: 'orca_sandbox_starter', tier: 'starter', balance: 0, apiBalance: 1_000, history: true, note: 'depth 1-2; 15 req/min' },
  { key: 'orca_sandbox_pro', tier: 'pro', balance: 500, apiBalance: 10_000, history: true, note: 'depth 1-3, cases; 30 req/min' },
  { key: 'orca_sandbox_enterprise', tier: 'enterprise', balance: 0, apiBalance: 100_000, history: true, note: 'everything; owns batch_sandbox; 120 req/min' },
  { key: 'orca_sandbox_nohistory', tier: 'pro', balance: 0, apiBalance: 10_000, history: false, note: 'history off: analysis_id null, async -> 422' },
  { key: 'orca_sandbox_exhausted', tier: 'enterprise', balance: 0, apiBalance: 0, history: true, prepaidExhausted: true, note: 'prepaid spent: geolocate -> 402 prepaid_credits_exhausted' },
  { key: 'orca_sandbox_broke', tier: 'pro', balance: 0, apiBalance: 0, history: true, note: 'no credits: geolocate -> 402 payment_required' },
  { key: 'orca_sandbox_d1cap', tier: 'pro', balance: 0, apiBalance: 10_000, history: true, depthCap: 1, note: 'key capped at depth 1: depth 2+ -> 403' },
];

/** The one batch the sandbox knows, bound to the enterprise key (api-spec.md rule 6). */
export const SANDBOX_BATCH = { id: 'batch_sandbox', key: 'orca_sandbox_enterprise' } as const;

export interface LedgerEntry {
  kind: 'debit' | 'refund';
  amount: number;
  depth: Depth;
  idempotency_key: string | null;
  analysis_id: string | null;
  at: string;
  reason?: string;
}

export interface IdemRecord {
  state: 'in_progress' | 'completed';
  hash: string;
  response?: { status: number; body: unknown };
}

export interface AnalysisRecord {
  analysis_id: string;
  created_at: string;
  filename: string | null;
  depth: Depth;
  latitude: number;
  longitude: number;
  country: string;
  city: string;
  city_slug: string;
  neighborhood: string;
  confidence: number;
  [k: string]: unknown;
}

export interface CaseRecord {
  id: string;
  name: string;
  description: string;
  teamId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface JobRecord {
  job_id: string;
  analysis_id: string | null;
  status: 'queued' | 'completed' | 'failed';
  depth: Depth;
  submitted_at: string;
  finished_at?: string;
  error?: string;
}

export class Account {
  readonly tier: Tier;
  readonly balance: number;
  apiBalance: number;
  readonly purchased: number;
  used = 0;
  modelCalls = 0;
  readonly entries: LedgerEntry[] = [];
  readonly idem = new Map<string, IdemRecord>();
  /** Every request that carried each key, kept even when a failed attempt released the key. */
  readonly idemRequests = new Map<string, number>();
  readonly analyses: AnalysisRecord[] = [];
  readonly cases: CaseRecord[] = [];
  /** Async jobs (shape not shown by the spec; the sandbox's own). */
  readonly jobs: JobRecord[] = [];
  /** Requests in the current meter (usage snapshot). */
  requests = 0;

  constructor(readonly seed: SeedKey) {
    this.tier = seed.tier;
    this.balance = seed.balance;
    this.apiBalance = seed.apiBalance;
    this.purchased = seed.apiBalance;
  }

  get history(): boolean {
    return this.seed.history;
  }
  /** The lower of the tier's maximum and the key's own cap. */
  get maxDepth(): Depth {
    const t = tierMaxDepth(this.tier);
    return this.seed.depthCap !== undefined && this.seed.depthCap < t ? this.seed.depthCap : t;
  }
  can(grant: string): boolean {
    return TIER_GRANTS[this.tier].includes(grant);
  }

  debit(e: Omit<LedgerEntry, 'kind'>): void {
    this.apiBalance -= e.amount;
    this.used += e.amount;
    this.entries.push({ kind: 'debit', ...e });
  }
  refund(e: Omit<LedgerEntry, 'kind'>): void {
    this.apiBalance += e.amount;
    this.used -= e.amount;
    this.entries.push({ kind: 'refund', ...e });
  }
}

export interface KeyLedger {
  tier: Tier;
  balance: number;
  api_balance: number;
  total_used: number;
  history: boolean;
  max_depth: Depth;
  debits: number;
  refunds: number;
  entries: LedgerEntry[];
  model_calls: number;
  /** Authenticated requests of any kind, refused ones too (a 403 reached the service). */
  requests: number;
  idempotency: Record<string, { requests: number; state: IdemRecord['state'] | 'unseen' }>;
  analyses: number;
  jobs: JobRecord[];
}
export interface Ledger {
  keys: Record<string, KeyLedger>;
}

export class SandboxState {
  readonly accounts = new Map<string, Account>();
  constructor() {
    for (const s of SEED_KEYS) this.accounts.set(s.key, new Account(s));
  }
  account(key: string | undefined): Account | undefined {
    return key === undefined ? undefined : this.accounts.get(key);
  }
  ledger(): Ledger {
    const keys: Record<string, KeyLedger> = {};
    for (const [k, a] of this.accounts) {
      const idempotency: KeyLedger['idempotency'] = {};
      for (const [ik, n] of a.idemRequests) idempotency[ik] = { requests: n, state: a.idem.get(ik)?.state ?? 'unseen' };
      keys[k] = {
        tier: a.tier, balance: a.balance, api_balance: a.apiBalance, total_used: a.used, history: a.history, max_depth: a.maxDepth,
        debits: a.entries.filter((e) => e.kind === 'debit').length, refunds: a.entries.filter((e) => e.kind === 'refund').length,
        entries: a.entries.map((e) => ({ ...e })), model_calls: a.modelCalls, requests: a.requests, idempotency, analyses: a.analyses.length,
        jobs: a.jobs.map((j) => ({ ...j })),
      };
    }
    return { keys };
  }
}
