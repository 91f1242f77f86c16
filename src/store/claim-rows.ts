/**
 * Claims and batches in the shapes the store's interface (api.ts) gives and takes them: each
 * engine (sqlite/, postgres/) reads its own tables into these, so the interface owns them.
 */

export interface FailedError {
  code: string;
  message: string;
  status?: number;
  final: boolean;
}

export type Acquired =
  /** This process holds the claim: send with `key` (a takeover resends an earlier key). */
  | { kind: 'send'; key: string; takeover: boolean; createdAt: number }
  /** Another live process holds it: wait for its answer. */
  | { kind: 'wait'; key: string }
  | { kind: 'answered'; key: string; resultId: number; batch: string | null; createdAt: number }
  | { kind: 'failed'; key: string; error: FailedError; createdAt: number };

export interface ClaimRow {
  key: string;
  fp: string;
  state: 'open' | 'answered' | 'failed';
  owner: string | null;
  lease_until: number | null;
  created_at: number;
  batch: string | null;
  input: string | null;
  result_id: number | null;
  error: string | null;
  credits: number | null;
  /** Whether its lease had not run out by the store's clock when the row was read (StoreApi engines set it). */
  leased?: boolean;
}

export interface BatchRow {
  id: string;
  head: Record<string, unknown>;
  created_at: number;
  updated_at: number;
}
