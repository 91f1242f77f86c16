/**
 * Where custody logs live, as an interface: the store (src/store/, SQLite) implements
 * CustodyStorage; MemoryCustodyStorage is the one tests use. CustodyLog seals entries
 * (custody.ts) on top of any storage, so sealing is written once and the storage only keeps lines.
 */
import { hostname, userInfo } from 'node:os';
import { StoreError } from '../errors.js';
import { type Actor, type CustodyEntry, type CustodyEvent, parseEntry, sealEntry, serializeEntry } from './custody.js';
import { type ChainExpectation, type ChainReport, verifyChain } from './custody-verify.js';

/**
 * A case's log as stored lines (each entry's canonical JSON, custody.ts's serializeEntry), kept
 * byte for byte: verification reads exactly what was stored.
 */
export interface CustodyStorage {
  /** The case's lines in append order; [] for a case with no log. */
  lines(caseId: string): Promise<string[]>;
  /**
   * Appends the line `make` builds from the case's current last line (undefined when it has
   * none), atomically: no other append to this case may come between reading that line and
   * storing the new one, across processes (SQLite: one BEGIN IMMEDIATE transaction, with
   * UNIQUE(case, seq) as the backstop). If `make` throws, nothing is stored and the error propagates.
   * `role`: who the storage's server says appends (a team store's database role, read in the same
   * transaction; the server refuses an entry naming another), undefined where there is none.
   */
  append(caseId: string, make: (lastLine: string | undefined, role?: string) => string): Promise<string>;
}

export class MemoryCustodyStorage implements CustodyStorage {
  private readonly logs = new Map<string, string[]>();

  async lines(caseId: string): Promise<string[]> {
    return [...(this.logs.get(caseId) ?? [])];
  }

  async append(caseId: string, make: (lastLine: string | undefined) => string): Promise<string> {
    const log = this.logs.get(caseId) ?? [];
    const line = make(log.at(-1));
    log.push(line);
    this.logs.set(caseId, log);
    return line;
  }

  /** Tests only: the stored lines themselves, to alter, remove or swap. */
  raw(caseId: string): string[] {
    const log = this.logs.get(caseId) ?? [];
    this.logs.set(caseId, log);
    return log;
  }
}

/**
 * The OS user and host name, geo's version and the chosen signing key's fingerprint when given. A
 * user without a name (no passwd entry) is its uid.
 */
export function currentActor(geoVersion: string, key?: string): Actor {
  let user: string;
  try {
    const u = userInfo();
    user = u.username || `uid ${u.uid}`;
  } catch {
    user = 'unknown';
  }
  return { user, host: hostname(), geo: geoVersion, ...(key ? { key } : {}) };
}

/**
 * Another entry landed after the head a signature was made over: sign the new head instead. A
 * StoreError, so the store hands it back as it is (store/open.ts storeError).
 */
export class CustodyMovedError extends StoreError {
  constructor(readonly caseId: string) {
    super(`the custody log of case ${caseId} moved on while its head was being signed`, 'other');
  }
}

export class CustodyLog {
  constructor(
    private readonly storage: CustodyStorage,
    private readonly actor: Actor,
    private readonly now: () => number,
  ) {}

  /**
   * Seals `ev` after the case's last entry and stores it. Refuses to append after a damaged last
   * line; with `after`, refuses (CustodyMovedError) unless the last entry's hash is still that one:
   * a signature over a head lands right after it, or not at all.
   */
  async append(caseId: string, ev: CustodyEvent, opts: { after?: string } = {}): Promise<CustodyEntry> {
    const line = await this.storage.append(caseId, (last, role) => {
      let prev: CustodyEntry | undefined;
      if (last !== undefined) {
        try {
          prev = parseEntry(last);
        } catch (e) {
          throw new Error(`the custody log of case ${caseId} is damaged at its last entry (${e instanceof Error ? e.message : String(e)}): nothing appended; geo cases verify names what is wrong`);
        }
      }
      if (opts.after !== undefined && prev?.hash !== opts.after) throw new CustodyMovedError(caseId);
      return serializeEntry(sealEntry(prev, caseId, ev, role !== undefined ? { ...this.actor, role } : this.actor, new Date(this.now())));
    });
    return parseEntry(line);
  }

  async lines(caseId: string): Promise<string[]> {
    return this.storage.lines(caseId);
  }

  async verify(caseId: string, expect: Omit<ChainExpectation, 'caseId'> = {}): Promise<ChainReport> {
    return verifyChain(await this.storage.lines(caseId), { ...expect, caseId });
  }
}
