/**
 * The schema version checked in the first round trip a command makes, not one of its own. Opening a
 * team store sends nothing (a command that never reads or writes it never connects); the first
 * query on the pool is written to the server right behind the version query (node-postgres's
 * pipeline mode: both on the wire before either answers), and its answer is handed over only once
 * the version passed. Queries issued while that check is on its way wait for it, so nothing is
 * read or written on a store this geo cannot use. Over a network, the check costs no round trip;
 * on a fresh backend, the first table it touches fills the caches the command's own query then finds.
 */
import type { Client, QueryResult } from 'pg';
import { StoreError } from '../../errors.js';

type Send = (this: Client, config: unknown, values?: unknown) => Promise<QueryResult>;
type Callback = (err: unknown, res?: QueryResult) => void;

export class VersionGate {
  /** True once the version passed: queries then go as the driver sends them. */
  passed = false;
  private pending: Promise<void> | undefined;

  /** judge: the version query's answer (or its error) to nothing, or a thrown StoreError. */
  constructor(readonly sql: string, private readonly judge: (r: QueryResult | undefined, err: unknown) => void) {}

  /** The query `mine`, with the version query sent first on the same connection when none was yet. */
  async through<T>(check: () => Promise<QueryResult>, mine: () => Promise<T>): Promise<T> {
    if (this.pending) {
      await this.pending;
      return mine();
    }
    const verdict = check().then((r) => this.judge(r, undefined), (err: unknown) => this.judge(undefined, err));
    this.pending = verdict;
    const answer = mine();
    try {
      await verdict;
    } catch (err) {
      answer.catch(() => undefined); // its error, if any, follows from the one reported
      // A connection that failed is no verdict on the store: the next query checks again.
      if (!(err instanceof StoreError)) this.pending = undefined;
      throw err;
    }
    this.passed = true;
    return answer;
  }
}

/** node-postgres's Client whose queries pass `gate` (the pool is made with `pipeline: true`). */
export function gatedClient(Base: typeof Client, gate: VersionGate): typeof Client {
  const send = Base.prototype.query as unknown as Send;
  class Gated extends Base {}
  const query = function (this: Client, config: unknown, values?: unknown, callback?: unknown) {
    // Query objects (cursors, which geo does not use) and every query once the version passed: as sent.
    if (gate.passed || typeof (config as { submit?: unknown } | null)?.submit === 'function') return (send as (...a: unknown[]) => unknown).call(this, config, values, callback);
    const cb = (typeof values === 'function' ? values : callback) as Callback | undefined;
    const vals = typeof values === 'function' ? undefined : values;
    const answer = gate.through(() => send.call(this, gate.sql), () => send.call(this, config, vals));
    if (!cb) return answer;
    answer.then((r) => cb(null, r), (err: unknown) => cb(err));
    return undefined;
  };
  (Gated.prototype as unknown as { query: typeof query }).query = query;
  return Gated;
}
