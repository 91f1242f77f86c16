/**
 * The Idempotency-Key state table of api-spec.md "States and transitions", per API key:
 *   unseen --POST--> in progress --success--> completed (response stored)
 *   in progress + same key            -> 409 idempotency_in_progress
 *   completed + identical payload      -> stored response replayed (Idempotent-Replayed: true), free
 *   in progress|completed + different  -> 409 idempotency_key_reused (code chosen by the sandbox)
 * A failed attempt (any non-2xx after the key was taken) releases the key back to unseen, so the
 * same key may be retried: the spec stores a response only on success.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../evidence/canonical-json.js';
import type { Account } from './state.js';

/** Key order or whitespace never makes "a different payload". */
export function payloadHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export type IdemDecision =
  | { kind: 'new' }
  | { kind: 'in_progress' }
  | { kind: 'conflict' }
  | { kind: 'replay'; status: number; body: unknown };

/** Counts the request and decides; on 'new' the key is now in progress. */
export function beginIdempotent(acct: Account, key: string, hash: string): IdemDecision {
  acct.idemRequests.set(key, (acct.idemRequests.get(key) ?? 0) + 1);
  const rec = acct.idem.get(key);
  if (!rec) {
    acct.idem.set(key, { state: 'in_progress', hash });
    return { kind: 'new' };
  }
  if (rec.hash !== hash) return { kind: 'conflict' };
  if (rec.state === 'in_progress') return { kind: 'in_progress' };
  return { kind: 'replay', status: rec.response!.status, body: rec.response!.body };
}

export function completeIdempotent(acct: Account, key: string, status: number, body: unknown): void {
  const rec = acct.idem.get(key);
  if (rec) Object.assign(rec, { state: 'completed', response: { status, body } });
}

export function releaseIdempotent(acct: Account, key: string): void {
  if (acct.idem.get(key)?.state === 'in_progress') acct.idem.delete(key);
}
