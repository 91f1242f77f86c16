/**
 * `--case` on a run (geo locate, geo eval, the MCP locate tool): an observer of the
 * batch's events that links each answered result to the case and appends its custody entries:
 * input hashed, request sent, answer received, result linked; and for a copy of a photo located
 * before, copy_linked (case-copies.ts). It only reads what the engine has
 * already done: a 'finished' event comes after the answer was committed to the store (worker.ts),
 * so a custody append that fails never costs a paid answer; its failure is collected, said at the
 * end, and the command exits non-zero (CaseCustody.failures).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { StoreError } from '../errors.js';
import { type Actor, type CustodyEvent, type CustodyEvents, sha256Hex } from '../evidence/custody.js';
import { CustodyLog, type CustodyStorage, currentActor } from '../evidence/custody-log.js';
import { isResultBody } from '../evidence/record-types.js';
import { findCase } from '../store/find.js';
import type { CaseRow, StoreApi, StoredResult } from '../store/index.js';
import type { BatchEvent, CopyOf } from './types.js';
import { copyKey, copyLinkedData, loggedCopies } from './case-copies.js';

type Finished = Extract<BatchEvent, { type: 'finished' }>;
type Started = Extract<BatchEvent, { type: 'started' }>;

/**
 * The custody log of the store's cases, appended by this user, host and geo (`who`: geo's version),
 * or by the Actor given (case-sign.ts caseActor: with the chosen signing key's fingerprint).
 */
export function caseLog(store: StoreApi, who: string | Actor, now: () => number, storage: CustodyStorage = store.cases): CustodyLog {
  return new CustodyLog(storage, typeof who === 'string' ? currentActor(who) : who, now);
}

/**
 * answer_received for a stored answer: its raw body exactly as the store keeps it (and a bundle
 * carries it). An answer the key was masked out of (api/secret.ts) is logged by the bytes kept, the
 * ones anyone can check later, and says so with the sha256 of the bytes as received beside.
 */
function answerEvent(s: StoredResult, fromStore: boolean): CustodyEvent {
  const rec = s.record;
  const raw = rec.response.raw ?? '';
  const aid = (rec.response.body as { analysis_id?: unknown } | undefined)?.analysis_id;
  const requestId = rec.headers?.request_id;
  return {
    event: 'answer_received',
    data: {
      answer: {
        sha256: sha256Hex(raw), size: Buffer.byteLength(raw), status: rec.response.status ?? 200, service: rec.cli?.base_url ?? '',
        analysis_id: typeof aid === 'string' ? aid : null, ...(requestId ? { request_id: requestId } : {}), sandbox: s.sandbox, ...(fromStore ? { stored_at: rec.stored_at } : {}),
        ...(rec.response.masked && rec.response.received_sha256 ? { masked: true, received_sha256: rec.response.received_sha256 } : {}),
      },
    },
  };
}

/**
 * Links a stored result to a case: answer_received (its raw answer as the store keeps it), then
 * result_linked, appended in the same transaction as the link itself.
 */
export async function linkStored(store: StoreApi, actor: { version: string; now: () => number; actor?: Actor }, caseId: string, s: StoredResult, fromStore: boolean): Promise<void> {
  const answer = answerEvent(s, fromStore).data as { answer: { sha256: string; analysis_id: string | null; service: string; sandbox: boolean } };
  await caseLog(store, actor.actor ?? actor.version, actor.now).append(caseId, { event: 'answer_received', data: answer } as CustodyEvent);
  // The pair it binds, and what it is shown with that the answer cannot say: verification holds the store to these.
  const a = answer.answer;
  const result = { input_sha256: s.record.input.sha256, answer_sha256: a.sha256, analysis_id: a.analysis_id, input_path: s.record.input.path, service: a.service, sandbox: a.sandbox };
  await caseLog(store, actor.actor ?? actor.version, actor.now, store.cases.linking(s.id)).append(caseId, { event: 'result_linked', data: { result } });
}

export interface CaseCustodyDeps {
  store: StoreApi;
  version: string;
  /** Who the entries name (case-sign.ts caseActor); default this user and host, no key. */
  actor?: Actor;
  now: () => number;
  /** Where relative paths start. */
  cwd: string;
  /** The size of stdin's bytes, once read (Evidence.stdinSize). */
  stdinSize?: () => number | undefined;
  /** Runs before the store closes (Ctx.onCleanup). */
  onCleanup: (fn: () => Promise<void>) => void;
  /** A line on stderr (sanitized by the caller). */
  say: (line: string) => void;
  /**
   * Runs once the run's appends have landed, when it appended anything: signs the case's head
   * (case-sign.ts CaseSigner.auto); it never throws, so a paid answer is never held up by a key.
   */
  sign?: (caseId: string) => Promise<unknown>;
}

/**
 * --case REF on a run: the case is found now, before anything is read or sent (an unknown one is
 * a UsageError, exit 2, nothing charged); its appends are awaited, and any that failed said,
 * before the store closes, however the command ends.
 */
export async function openCaseCustody(d: CaseCustodyDeps, ref: string): Promise<CaseCustody> {
  const custody = new CaseCustody(d.store, await findCase(d.store, ref), d);
  d.onCleanup(async () => {
    await custody.close(d.say);
    if (custody.appended && d.sign) await d.sign(custody.kase.id);
  });
  return custody;
}

export class CaseCustody {
  readonly failures: string[] = [];
  /** Results linked to the case by this run. */
  linked = 0;
  private chain: Promise<void> = Promise.resolve();
  private readonly hashed = new Set<string>();
  /** Requests this run sent, by input, until they finish. */
  private readonly started = new Map<string, Started>();
  private said = false;
  /** Whether any entry of this run landed (then the head is signed at the end). */
  appended = false;
  private readonly log: CustodyLog;
  /** The copies the case's log records, read on the first copy met (a rerun appends none again). */
  private copies: Set<string> | undefined;

  constructor(
    private readonly store: StoreApi,
    readonly kase: CaseRow,
    private readonly o: { version: string; actor?: Actor; now: () => number; cwd: string; stdinSize?: () => number | undefined },
  ) {
    this.log = caseLog(store, o.actor ?? o.version, o.now);
  }

  /** The batch's onEvent: answered jobs are logged in the order they finish, and requests that failed. */
  onEvent = (e: BatchEvent): void => {
    if (e.type === 'started') this.started.set(e.input, e);
    if (e.type !== 'finished') return;
    const sent = this.started.get(e.record.input);
    this.started.delete(e.record.input);
    if (e.stored) this.queue(`the answer for ${e.record.input}`, () => this.record(e));
    else if (!e.record.ok && sent) this.queue(`the failed request for ${e.record.input}`, () => this.failed(e, sent));
  };

  /** An export or report written for the case (its bytes as written; path "-" for stdout). */
  fileWritten(kind: 'report' | 'export', format: string, path: string, bytes: string | Uint8Array): void {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    const file = { kind, format, path: path === '-' ? '-' : resolve(this.o.cwd, path), sha256: sha256Hex(data), size: data.length };
    this.queue(`the ${kind} ${path}`, () => this.log.append(this.kase.id, { event: 'file_written', data: { file } }).then(() => undefined));
  }

  /** A claim checked on this case's results: queued after the entries of the answer it was judged on. */
  claimChecked(data: CustodyEvents['claim_checked']): void {
    this.queue(`the check of ${data.claim.input}`, () => this.log.append(this.kase.id, { event: 'claim_checked', data }).then(() => undefined));
  }

  /** Waits for every append; the failures, one line each (empty when all landed). */
  async done(): Promise<string[]> {
    await this.chain;
    return this.failures;
  }

  /**
   * Waits for every append and says, once, each that failed; the error the command ends with when
   * any did (exit 1), after its answers were shown and stored.
   */
  async close(say: (line: string) => void): Promise<StoreError | undefined> {
    const failed = await this.done();
    if (failed.length === 0 || this.said) return undefined;
    this.said = true;
    for (const f of failed) say(`custody: not appended to case ${this.kase.id}: ${f}`);
    const n = failed.length;
    return new StoreError(
      `${n} custody ${n === 1 ? 'entry' : 'entries'} of case ${this.kase.id} could not be appended (see above); the answers themselves are stored`,
      'other',
      `geo history shows them; geo cases link ${this.kase.id} REF… links them to the case once the store takes writes again`,
    );
  }

  private queue(what: string, fn: () => Promise<void>): void {
    this.chain = this.chain.then(fn).then(() => {
      this.appended = true;
    }, (err: unknown) => {
      this.failures.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  private async record(e: Finished): Promise<void> {
    if (e.copyOf?.reused) return this.reused(e, e.copyOf);
    await this.answered(e);
    if (e.copyOf) await this.copyLinked(e, e.copyOf);
  }

  /**
   * A copy that took an earlier result's answer: that result is what the case gets (linked as a
   * stored answer, unless it is in already), then the copy's input, then copy_linked saying so.
   */
  private async reused(e: Finished, c: CopyOf): Promise<void> {
    const of = await this.store.result(c.result);
    // Already in the case (a rerun): nothing new happened to it.
    if (!of || e.record.sha256 === null || (await this.copyLogged(e.record.sha256, of, c))) return;
    if (!(await this.store.cases.isLinked(this.kase.id, of.id))) {
      await linkStored(this.store, this.o, this.kase.id, of, true);
      this.linked++;
    }
    await this.logInput(e, e.record.sha256);
    await this.copyLinked(e, c, of);
  }

  /** Whether the case's log records this copy of that image, the same way, already (read once a run). */
  private async copyLogged(sha256: string, of: StoredResult, c: CopyOf): Promise<boolean> {
    this.copies ??= loggedCopies(await this.store.cases.lines(this.kase.id));
    return this.copies.has(copyKey(sha256, of.record.input.sha256, c.reused));
  }

  /** copy_linked for a copy met by this run, once per copy, earlier image and way (case-copies.ts); `known`: the earlier result, when read already. */
  private async copyLinked(e: Finished, c: CopyOf, known?: StoredResult): Promise<void> {
    const sha256 = e.record.sha256;
    const of = known ?? (await this.store.result(c.result));
    if (sha256 === null || !of || (await this.copyLogged(sha256, of, c))) return;
    const data = await copyLinkedData(this.store, { path: e.path ?? e.record.input, sha256 }, of, c);
    if (!data) return;
    await this.log.append(this.kase.id, { event: 'copy_linked', data });
    this.copies!.add(copyKey(sha256, of.record.input.sha256, c.reused));
  }

  private async answered(e: Finished): Promise<void> {
    const id = this.kase.id;
    const s = await this.store.result(e.stored!.id);
    if (!s) return;
    const usable = e.record.ok && isResultBody(e.record.result);
    // Already in the case (a rerun): nothing new happened to it.
    if (usable && (await this.store.cases.isLinked(id, s.id))) return;
    await this.logInput(e, s.record.input.sha256);
    const rec = s.record;
    const sentNow = Boolean(e.sentNow);
    if (sentNow) {
      const sent = rec.sent;
      await this.log.append(id, {
        event: 'request_sent',
        data: { request: { input_sha256: rec.input.sha256, ...(sent ? { sha256: sent.sha256, size: sent.size } : {}), fields: rec.request ?? {}, service: rec.cli?.base_url ?? '', idempotency_key: rec.idempotency_key ?? e.response?.idempotencyKey ?? '' } },
      });
    }
    if (!usable) {
      // A paid answer without coordinates: on the record, but no result to link.
      await this.log.append(id, answerEvent(s, !sentNow));
      return;
    }
    await linkStored(this.store, this.o, id, s, !sentNow);
    this.linked++;
  }

  /**
   * A request this run sent that ended without an answer to keep: the file it was read from
   * (input_hashed, once), then request_failed. Nothing was stored, so nothing is linked.
   */
  private async failed(e: Finished, s: Started): Promise<void> {
    if (s.sha256 !== null) await this.logInput(e, s.sha256);
    const err = e.record.error;
    const requestId = (e.cause as { requestId?: unknown } | undefined)?.requestId;
    await this.log.append(this.kase.id, {
      event: 'request_failed',
      data: {
        failure: {
          input: e.record.input, input_sha256: s.sha256, service: s.service, idempotency_key: s.idempotencyKey, status: err?.status ?? null,
          code: err?.code ?? 'error', message: err?.message ?? '', ...(typeof requestId === 'string' ? { request_id: requestId } : {}),
        },
      },
    });
  }

  /** input_hashed for the original an answer or failure came from (with what it said about itself), once per file and sha256 in a run. */
  private async logInput(e: Finished, sha256: string): Promise<void> {
    const input = await this.inputOf(e, sha256);
    if (!input || this.hashed.has(`${input.path}\0${input.sha256}`)) return;
    this.hashed.add(`${input.path}\0${input.sha256}`);
    // What the original said about itself, kept before its upload was stripped (batch/embedded.ts).
    const kept = await this.store.embedded(input.sha256);
    // A photo geo fetched: how this run got its bytes (each redirect, when, what the host said of them).
    const fetched = e.fetched?.sha256 === input.sha256 ? { fetched: e.fetched } : {};
    // Its perceptual hash, kept before its upload (batch/perceptual.ts).
    const p = await this.store.perceptual.get(input.sha256);
    await this.log.append(this.kase.id, { event: 'input_hashed', data: { input, ...(kept ? { metadata_json: JSON.stringify(kept.metadata), c2pa: kept.c2pa } : {}), ...fetched, ...(p ? { pdq: { hash: p.pdq, quality: p.quality } } : {}) } });
  }

  /**
   * The original as read (`sha256`: the image's): a video's file for its frames, the image file, a
   * photo geo fetched (its URL as given, the size of the bytes received), or stdin's bytes; none for
   * a URL the service fetched.
   */
  private async inputOf(e: Finished, sha256: string): Promise<{ path: string; sha256: string; size: number } | undefined> {
    const video = e.origin && 'video' in e.origin ? e.origin.video : undefined;
    const sizeOf = (p: string) => stat(resolve(this.o.cwd, p)).then((st) => st.size, () => undefined);
    if (video) {
      const size = await sizeOf(video.path);
      return size === undefined ? undefined : { path: resolve(this.o.cwd, video.path), sha256: video.sha256, size };
    }
    if (e.path) {
      const size = await sizeOf(e.path);
      return size === undefined ? undefined : { path: e.path, sha256, size };
    }
    if (e.fetched) return { path: e.fetched.url, sha256, size: e.fetched.size };
    const stdin = e.record.input === '-' ? this.o.stdinSize?.() : undefined;
    return stdin === undefined ? undefined : { path: '-', sha256, size: stdin };
  }
}
