/**
 * Claims: so no two processes pay for one request.
 *
 * A claim is an idempotency key bound to a fingerprint of what is sent (fingerprint()). Before a
 * geolocate POST the sender acquires the request's claim in one BEGIN IMMEDIATE transaction, so of
 * two processes that ask at once exactly one gets "send" and the other "wait". The claim (key
 * included) is committed before the request leaves; its answer is committed with it (answered) or
 * its final error (failed). A claim left open by a process that is gone (its pid no longer runs,
 * or its lease ran out) is taken over and its key resent: the service replays a finished key free
 * and runs one that never arrived once (api-spec.md "States and transitions").
 *
 * A claim is found by what is sent, never by a key alone: a caller who brings a key of
 * its own for a request another key already holds waits for or reuses that key's answer, so one
 * request has at most one open claim and one paid answer, whoever asks and with whatever key.
 *
 * Owners are "host:pid:start:nonce": start is the process's start time (a reused pid is not the
 * same process), the nonce tells two geo runs inside one process apart (tests, geo mcp).
 */
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { canonicalRequest } from '../canonical.js';
import type { Sql } from './sqlite.js';

/** What the store needs to know of processes (cli.ts supplies it: only it touches process). */
export interface ProcessProbe {
  pid: number;
  /** The process's start time as the OS reports it ('' where unknown). */
  start: string;
  /** Whether pid still runs and, when start is known, is still the process that started then. */
  alive(pid: number, start: string): boolean;
}

/** A claim's lease: an owner that stops renewing it for this long is taken for gone. */
export const LEASE_MS = 60_000;

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

export interface FingerprintParts {
  account: string | undefined;
  origin: string;
  /** sha256 of the file, or the URL the service fetches. */
  image: string;
  /** How the bytes that go out are made from it: metadata removed or kept, downscaled. */
  upload: { keepMetadata: boolean; downscale?: boolean };
  /** The request fields, or their canonicalRequest() text (a batch computes it once). */
  request: Record<string, unknown> | string;
}

/** The request's identity: the same fingerprint means the same bytes and fields to the same account and service. */
export function fingerprint(p: FingerprintParts): string {
  const request = typeof p.request === 'string' ? p.request : canonicalRequest(p.request);
  const text = `${JSON.stringify([p.account ?? null, p.origin, p.image, p.upload.keepMetadata, Boolean(p.upload.downscale)])}\n${request}`;
  return createHash('sha256').update(text).digest('hex');
}

/** The code of a caller's own key already used for another request (refused before anything is sent). */
export const KEY_REUSED = 'key_reused';

export function newKey(): string {
  return `geo-${randomUUID()}`;
}

/**
 * This process as the holder of claims. Its name is made when it first takes one: a process that
 * never claims (geo history, cases verify, store status) has nothing to release when it closes, so
 * it writes nothing then. Releasing by a name every process had made was an UPDATE at every close,
 * and a look-up behind another process's write lock waited out the whole busy timeout (10 s) for it.
 */
export class Owner {
  #id: string | undefined;
  private readonly host = hostname();
  constructor(private readonly probe: ProcessProbe) {}

  /** The name written on this process's claims (made on first use). */
  get id(): string {
    return (this.#id ??= `${this.host}:${this.probe.pid}:${this.probe.start}:${randomUUID().slice(0, 8)}`);
  }

  /** Whether this process has a name yet, that is, may hold claims to release. */
  get named(): boolean {
    return this.#id !== undefined;
  }

  /** Whether `id` names this process (never while it has no name). */
  isMe(id: string | null): boolean {
    return this.#id !== undefined && id === this.#id;
  }

  /** Whether the owner named `id` may still be sending (leases decide for other hosts). */
  mayBeAlive(id: string, leaseUntil: number | null, now: number): boolean {
    return this.mayHold(id, leaseUntil !== null && leaseUntil > now);
  }

  /**
   * The same, with the lease already judged by the store's own clock (a team store's now(): the
   * laptops' clocks never decide). A pid means something only on this host.
   */
  mayHold(id: string, leased: boolean): boolean {
    if (this.isMe(id)) return true;
    if (!leased) return false;
    const [nonce, start, pid, ...host] = id.split(':').reverse();
    if (nonce === undefined || host.join(':') !== this.host) return true;
    return this.probe.alive(Number(pid), start ?? '');
  }
}

export interface AcquireOptions {
  owner: Owner;
  now: number;
  batch?: string;
  input?: string;
  /** Only claims made at or after this time count as answers (a --fresh batch). */
  since?: number;
  /** The caller's own key (--idempotency-key, geo api -H): sent only if no other key holds this request (see acquire). */
  key?: string;
  /** The key a new claim gets when the caller has none of its own (default a fresh UUID). */
  newKey?: string;
}

const ROW = 'key, fp, state, owner, lease_until, created_at, batch, input, result_id, error, credits';

/** The claim that speaks for a request: its open one if any (it goes first, whatever its key), else the newest. */
export function currentClaim(sql: Sql, fp: string): ClaimRow | undefined {
  return sql.one<ClaimRow>(`SELECT ${ROW} FROM claims WHERE fp = ? ORDER BY state = 'open' DESC, created_at DESC, rowid DESC LIMIT 1`, fp);
}

/** The current claim of each fingerprint that has one, in one query per 500 (a batch plan's look-up). */
export function currentClaims(sql: Sql, fps: readonly string[]): Map<string, ClaimRow> {
  const out = new Map<string, ClaimRow>();
  for (let i = 0; i < fps.length; i += 500) {
    const chunk = fps.slice(i, i + 500);
    const rows = sql.all<ClaimRow & { rid: number }>(`SELECT ${ROW}, rowid AS rid FROM claims WHERE fp IN (${chunk.map(() => '?').join(',')})`, ...chunk);
    for (const r of rows) {
      const had = out.get(r.fp) as (ClaimRow & { rid: number }) | undefined;
      // As currentClaim: an open claim first, else the newest.
      const rank = (c: ClaimRow & { rid: number }) => [c.state === 'open' ? 1 : 0, c.created_at, c.rid] as const;
      if (!had || newer(rank(r), rank(had))) out.set(r.fp, r);
    }
  }
  return out;
}

function newer(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

export function claimByKey(sql: Sql, key: string): ClaimRow | undefined {
  return sql.one<ClaimRow>(`SELECT ${ROW} FROM claims WHERE key = ?`, key);
}

/** This request's open claim, whatever key it holds (acquire never lets a second one open). */
export function openClaim(sql: Sql, fp: string): ClaimRow | undefined {
  return sql.one<ClaimRow>(`SELECT ${ROW} FROM claims WHERE fp = ? AND state = 'open' ORDER BY created_at, rowid LIMIT 1`, fp);
}

/**
 * The one step that decides who sends (module comment). A claim is found by what is sent (issue
 * 30): the request's fingerprint, never the key a caller brings. A caller's own key (geo locate
 * --idempotency-key, geo api -H) used before for another request is refused (the service would
 * answer 409); otherwise this fingerprint's open claim goes first, whatever key it holds: a live
 * holder is waited for, an orphan is resent with ITS key (the service replays it free if it
 * finished), and the caller's key is never sent beside it. Then the caller's own claim of this
 * request (answered: replayed from the store; --fresh: resent), then any answer of it under
 * another key, and only then a new claim under the caller's key. The caller compares the key that
 * comes back with its own to say that another key answered.
 */
export function acquire(sql: Sql, fp: string, o: AcquireOptions): Acquired {
  return sql.tx(() => {
    const mine = o.key !== undefined ? claimByKey(sql, o.key) : undefined;
    if (mine && mine.fp !== fp) {
      return { kind: 'failed', key: mine.key, createdAt: mine.created_at, error: { code: KEY_REUSED, message: `the idempotency key ${mine.key} was already used for another request (another image or other fields)`, final: true } };
    }
    const open = openClaim(sql, fp);
    if (open) {
      if (open.owner !== null && open.owner !== o.owner.id && o.owner.mayBeAlive(open.owner, open.lease_until, o.now)) return { kind: 'wait', key: open.key };
      sql.run('UPDATE claims SET owner = ?, lease_until = ?, updated_at = ? WHERE key = ?', o.owner.id, o.now + LEASE_MS, o.now, open.key);
      return { kind: 'send', key: open.key, takeover: true, createdAt: open.created_at };
    }
    const cur = mine ?? currentClaim(sql, fp);
    if (cur && (o.since === undefined || cur.created_at >= o.since)) {
      if (cur.state === 'answered' && cur.result_id !== null) return { kind: 'answered', key: cur.key, resultId: cur.result_id, batch: cur.batch, createdAt: cur.created_at };
      if (cur.state === 'failed') return { kind: 'failed', key: cur.key, error: parseError(cur.error), createdAt: cur.created_at };
    }
    // --fresh with the caller's own key: that key is sent again (the service replays what it holds).
    if (mine) {
      sql.run("UPDATE claims SET state = 'open', owner = ?, lease_until = ?, updated_at = ? WHERE key = ?", o.owner.id, o.now + LEASE_MS, o.now, mine.key);
      return { kind: 'send', key: mine.key, takeover: true, createdAt: mine.created_at };
    }
    const key = o.key ?? o.newKey ?? newKey();
    sql.run(
      'INSERT INTO claims (key, fp, state, owner, lease_until, created_at, updated_at, batch, input) VALUES (?, ?, \'open\', ?, ?, ?, ?, ?, ?)',
      key, fp, o.owner.id, o.now + LEASE_MS, o.now, o.now, o.batch ?? null, o.input ?? null,
    );
    return { kind: 'send', key, takeover: false, createdAt: o.now };
  });
}

export function parseError(text: string | null): FailedError {
  try {
    const e = JSON.parse(text ?? '') as FailedError;
    if (typeof e?.code === 'string' && typeof e.message === 'string') return { ...e, final: true };
  } catch {
    /* below */
  }
  return { code: 'failed', message: 'failed (the stored error is unreadable)', final: true };
}

/** The answer is stored: the claim is done. `credits`: what this key's answer cost (0 for a replay). */
export function markAnswered(sql: Sql, key: string, resultId: number, credits: number, now: number): void {
  sql.run("UPDATE claims SET state = 'answered', result_id = ?, credits = coalesce(credits, ?), owner = NULL, lease_until = NULL, updated_at = ? WHERE key = ?", resultId, credits, now, key);
}

/** A final failure (422 and the like): resending cannot change it. */
export function markFailed(sql: Sql, key: string, error: FailedError, now: number): void {
  sql.run("UPDATE claims SET state = 'failed', error = ?, owner = NULL, lease_until = NULL, updated_at = ? WHERE key = ? AND state = 'open'", JSON.stringify(error), now, key);
}

/** No final outcome (5xx after retries, Ctrl-C): open, unowned, so the next taker resends the key at once. */
export function release(sql: Sql, key: string, owner: Owner, now: number): void {
  sql.run("UPDATE claims SET owner = NULL, lease_until = NULL, updated_at = ? WHERE key = ? AND owner = ? AND state = 'open'", now, key, owner.id);
}

/** Every open claim of this owner released (the process is ending). */
export function releaseAll(sql: Sql, owner: Owner, now: number): number {
  if (!owner.named) return 0;
  return sql.run("UPDATE claims SET owner = NULL, lease_until = NULL, updated_at = ? WHERE owner = ? AND state = 'open'", now, owner.id).changes;
}

/** Keeps this owner's claims alive while their requests are in flight. */
export function renew(sql: Sql, owner: Owner, now: number): void {
  sql.run("UPDATE claims SET lease_until = ? WHERE owner = ? AND state = 'open'", now + LEASE_MS, owner.id);
}
