/**
 * `geo cases stamp <case> [--tsa URL …] [--tsa-ca FILE]` and `geo cases stamp --pending [<case>]`
 *: trusted timestamps (RFC 3161) of a case's custody head.
 *
 * Each TSA (the ones named with --tsa, else `geo config get tsa`; none is contacted otherwise) is
 * asked for a token over the head as it is now: the 32 bytes of the last entry's hash (what
 * `openssl ts -verify -digest <head>` checks). The request is recorded in the store before it is
 * sent; a TSA that cannot be reached in a short time (10 s, one try, never a loop) leaves it
 * pending for `--pending`. A reply is checked (its imprint, nonce and signature) and trusted under
 * your CA for it (--tsa-ca, the tsa-ca setting) or else the root it carries, pinned
 * (evidence/custody-stamps.ts); it is kept byte for byte with that CA, and head_stamped is
 * appended to the log (then signed, when a signing key is chosen).
 */
import { readFileSync } from 'node:fs';
import { caseLog } from '../../batch/case-custody.js';
import { caseActor, caseSigner } from '../../batch/case-sign.js';
import { vouchedOrRefuse } from '../../batch/case-results.js';
import type { Ctx } from '../../context.js';
import { NotVerifiedError, UsageError } from '../../errors.js';
import { parseEntry, sha256Hex } from '../../evidence/custody.js';
import { pinStamp, readTsaCa } from '../../evidence/custody-stamps.js';
import { TimestampError, configuredTsas, isUnreachable, parseTsaList, requestTimestamp } from '../../evidence/timestamp.js';
import { findCase } from '../../store/find.js';
import type { TimestampRow } from '../../store/index.js';

/** One try per TSA per run, this long at most: nothing waits on a TSA. */
const TSA_TIMEOUT_MS = 10_000;

export interface StampOutcome {
  case: string;
  tsa: string;
  /** The head stamped (or to be), and the entry it is the hash of. */
  head: string;
  seq: number | null;
  /** stamped now; already (stamped before); queued (unreachable: pending); failed (refused, or a reply that did not hold). */
  state: 'stamped' | 'already' | 'queued' | 'failed';
  gen_time?: string;
  authority?: string;
  /** The token is `geo sandbox`'s test authority's: sandbox time, not evidence. */
  sandbox?: true;
  /** The head_stamped entry appended. */
  entry?: number;
  error?: string;
}

export interface StampOptions {
  tsa?: string[];
  tsaCa?: string;
  pending?: boolean;
}

type Say = (line: string) => void;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function trustedCa(ctx: Pick<Ctx, 'config'>, flag: string | undefined): string | undefined {
  const file = flag ?? ctx.config.getDefault('tsa_ca');
  if (file === undefined || file === '') return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the TSA CA file ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`, "--tsa-ca takes the TSA's CA certificate(s), PEM");
  }
  try {
    return readTsaCa(text, file);
  } catch (err) {
    if (err instanceof TimestampError) throw new UsageError(err.message, "--tsa-ca takes the TSA's CA certificate(s), PEM");
    throw err;
  }
}

/** Sends one recorded request; its outcome, with head_stamped appended when a token was kept. */
async function send(ctx: Pick<Ctx, 'storeApi' | 'now' | 'version' | 'signal' | 'config' | 'vault'>, row: TimestampRow, trusted: string | undefined): Promise<StampOutcome> {
  const store = await ctx.storeApi();
  const t = store.timestamps;
  const base: StampOutcome = { case: row.case_id, tsa: row.tsa, head: row.head, seq: row.seq, state: 'queued' };
  let pinned;
  let reply: Buffer;
  try {
    reply = (await requestTimestamp(row.tsa, Buffer.from(row.head, 'hex'), { timeoutMs: TSA_TIMEOUT_MS, signal: ctx.signal })).reply;
    pinned = pinStamp(reply, row.head, trusted);
  } catch (err) {
    if (isUnreachable(err)) {
      await t.unreachable(row.id, message(err));
      return { ...base, error: `${message(err)}: queued, geo cases stamp --pending sends it later` };
    }
    if (!(err instanceof TimestampError)) throw err;
    await t.failed(row.id, message(err));
    return { ...base, state: 'failed', error: message(err) };
  }
  if (!(await t.stamped(row.id, { reply, caPem: pinned.caPem, genTime: pinned.facts.genTime }))) return { ...base, state: 'already' };
  const lines = await store.cases.lines(row.case_id);
  const seq = row.seq ?? lines.map(parseEntry).find((e) => e.hash === row.head)?.seq;
  const done = { ...base, state: 'stamped' as const, gen_time: pinned.facts.genTime, authority: pinned.facts.tsa, ...(pinned.facts.sandbox ? { sandbox: true as const } : {}) };
  if (seq === undefined) return { ...done, error: 'its head is no entry of the case\'s log any more: the token is kept, not logged' };
  const stamp = { seq, head: row.head, tsa: row.tsa, gen_time: pinned.facts.genTime, token_sha256: sha256Hex(reply), ca_sha256: pinned.caSha256 };
  const entry = await caseLog(store, await caseActor({ version: ctx.version, signing: { config: ctx.config, vault: ctx.vault } }), ctx.now).append(row.case_id, { event: 'head_stamped', data: { stamp } });
  return { ...done, seq, entry: entry.seq };
}

export async function runStamp(ctx: Pick<Ctx, 'storeApi' | 'now' | 'version' | 'signal' | 'config' | 'vault'>, ref: string | undefined, opts: StampOptions, say: Say): Promise<StampOutcome[]> {
  const store = await ctx.storeApi();
  const trusted = trustedCa(ctx, opts.tsaCa);
  let rows: TimestampRow[];
  if (opts.pending) {
    if (opts.tsa?.length) throw new UsageError('--pending sends the requests already recorded, to their own TSAs: --tsa does not go with it', 'geo cases stamp --pending, or geo cases stamp CASE --tsa URL');
    rows = await store.timestamps.pending(ref === undefined ? undefined : (await findCase(store, ref)).id);
    if (rows.length === 0) say('no timestamp request is pending');
  } else {
    if (ref === undefined) throw new UsageError('name the case to stamp', 'geo cases stamp CASE (or --pending to send the queued requests)');
    const c = await findCase(store, ref);
    const tsas = opts.tsa?.length ? parseTsaList(opts.tsa.join(',')) : configuredTsas(ctx.config.getDefault('tsa'));
    if (tsas.length === 0) throw new UsageError('no time-stamp authority is configured or named, so none is contacted', 'geo config set tsa https://freetsa.org/tsr, or geo cases stamp CASE --tsa URL');
    // A log that does not verify is not stamped: a token would vouch for when a forged head existed.
    const ev = await vouchedOrRefuse(store, c, 'nothing is stamped');
    const last = ev.entries.at(-1)!.e;
    rows = await Promise.all(tsas.map((tsa) => store.timestamps.queue({ caseId: c.id, head: last.hash, seq: last.seq, tsa })));
  }
  const out: StampOutcome[] = [];
  for (const row of rows) {
    if (row.state === 'stamped') out.push({ case: row.case_id, tsa: row.tsa, head: row.head, seq: row.seq, state: 'already', ...(row.gen_time ? { gen_time: row.gen_time } : {}) });
    else out.push(await send(ctx, row, trusted));
  }
  const signer = await caseSigner(ctx, say);
  for (const id of new Set(out.filter((o) => o.entry !== undefined).map((o) => o.case))) await signer.auto(id);
  return out;
}

/** Exit 1 when a TSA refused or its reply did not hold (after every outcome is shown); queued is not a failure. */
export function stampFailure(out: readonly StampOutcome[]): NotVerifiedError | undefined {
  const failed = out.filter((o) => o.state === 'failed');
  if (failed.length === 0) return undefined;
  return new NotVerifiedError(`${failed.length} of ${out.length} timestamp${out.length === 1 ? '' : 's'} failed: ${failed[0]!.tsa}: ${failed[0]!.error}`, 'a TSA whose reply does not hold gives no timestamp; geo cases stamp asks again, --tsa-ca FILE names the CA to trust');
}
