/**
 * A geolocate POST through `geo api` goes through the same claims and results as geo locate
 *: the same image bytes and fields for the same account and service are never paid
 * twice, by a rerun, by another command or by another process at the same time. The body is sent
 * exactly as given (no metadata removal: it is the caller's), so its image is the base64 decoded,
 * and its fingerprint says so (keepMetadata).
 *
 * What is answered already is printed from the store, exactly as received, with a note.
 */
import { createHash } from 'node:crypto';
import type { RawResponse } from '../../api/client.js';
import { SANDBOX_HEADER } from '../../api/routes.js';
import { Ledger, type LedgerJob } from '../../batch/ledger.js';
import { answerRecord } from '../../batch/provenance.js';
import { otherKeyLine, waitForClaim } from '../../batch/wait-claim.js';
import type { Ctx } from '../../context.js';
import { StoreError, UsageError } from '../../errors.js';
import { asResultBody } from '../../evidence/record-types.js';
import { requestParams } from '../../evidence/records.js';
import { KEY_REUSED, type StoredResult } from '../../store/index.js';

export interface ApiClaim {
  ledger: Ledger;
  job: LedgerJob;
}

/** The claim a geolocate body stands for, or undefined when the body is not one (the service says why). */
export async function apiClaim(ctx: Pick<Ctx, 'storeApi' | 'account' | 'serviceId'>, body: Buffer | undefined): Promise<ApiClaim | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body?.toString('utf8') ?? '');
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const o = parsed as Record<string, unknown>;
  let job: LedgerJob;
  if (typeof o.image_b64 === 'string' && o.image_b64 !== '') {
    const sha = createHash('sha256').update(Buffer.from(o.image_b64, 'base64')).digest('hex');
    job = { id: sha, sha256: sha, inputs: ['geo api'], source: { kind: 'image' } };
  } else if (typeof o.image_url === 'string' && o.image_url !== '') {
    job = { id: `url:${o.image_url}`, sha256: null, inputs: [o.image_url], source: { kind: 'url', url: o.image_url } };
  } else return undefined;
  const account = await ctx.account();
  const ledger = new Ledger({
    store: await ctx.storeApi(), ...(account !== undefined ? { account } : {}), origin: ctx.serviceId(), keepMetadata: true, downscale: false,
    request: requestParams(o), async: o.async === true,
  });
  return { ledger, job };
}

/** A stored answer as `geo api` prints it: the body exactly as received. */
export function storedResponse(s: StoredResult): RawResponse {
  const raw = s.record.response.raw ?? '';
  return { status: s.record.response.status ?? 200, headers: { 'content-type': 'application/json' }, raw, rawBytes: s.raw ?? Buffer.from(raw, 'utf8') };
}

export type Turn = { send: string } | { stored: StoredResult; why: 'results' | 'others' };

/**
 * Before sending: an answer already held, or the key to send with (a live claim elsewhere is waited
 * for). A key of the caller's own (-H Idempotency-Key) for a request held under another key is not
 * sent: `say` gets the one line that says so.
 */
export async function takeTurn(ctx: Pick<Ctx, 'sleep' | 'signal' | 'now'>, c: ApiClaim, keys: { user?: string; planned: string }, say: (line: string) => void = () => undefined): Promise<Turn> {
  let said = false;
  const other = (how: 'waiting' | 'resent' | 'reused', key: string | undefined) => {
    if (keys.user === undefined || key === keys.user || said) return;
    said = true;
    say(otherKeyLine(c.job.inputs[0]!, how, key, keys.user));
  };
  const held = await c.ledger.held(c.job);
  if (held.kind === 'answer' && held.resultId !== undefined && held.how === 'results') {
    const stored = (await c.ledger.store.result(held.resultId))!;
    other('reused', stored.record.idempotency_key);
    return { stored, why: 'results' };
  }
  for (;;) {
    const acq = await c.ledger.acquire(c.job, keys.user, keys.planned);
    if (acq.kind === 'send') {
      if (acq.takeover) other('resent', acq.key);
      return { send: acq.key };
    }
    if (acq.kind === 'answered') {
      const r = await c.ledger.store.result(acq.resultId);
      if (r) {
        other('reused', acq.key);
        return { stored: r, why: 'others' };
      }
    }
    // The caller's key, used before for another body: refused here, as the service would (409).
    if (acq.kind === 'failed' && acq.error.code === KEY_REUSED) throw new UsageError(`${acq.error.message}; nothing was sent`, 'an Idempotency-Key names one request: give a new key for this body, or resend exactly the body it was first used for');
    // A final failure recorded earlier is not replayed by geo api: the claim is sent again (the
    // caller's own key, or a new one), and the service answers again (a refused request is not charged).
    if (acq.kind !== 'wait') {
      const again = await c.ledger.store.acquire(c.ledger.fingerprint(c.job), { since: ctx.now() + 1, input: c.job.inputs[0]!, ...(keys.user !== undefined ? { key: keys.user } : { newKey: keys.planned }) });
      if (again.kind === 'send') return { send: again.key };
      continue;
    }
    other('waiting', acq.key);
    if ((await waitForClaim(c.ledger.store, acq.key, { sleep: ctx.sleep, signal: ctx.signal })) === 'cancelled') throw ctx.signal.reason;
  }
}

/** After the answer: a 2xx is stored with its claim (and a failure to store it said); a 4xx is final; the rest releases the key. */
export async function settleClaim(ctx: Pick<Ctx, 'version' | 'now'>, c: ApiClaim, key: string, res: RawResponse | undefined, spend: number, warn: (l: string) => void): Promise<void> {
  const store = c.ledger.store;
  try {
    if (res && res.status >= 200 && res.status < 300) {
      let body: unknown;
      try {
        body = JSON.parse(res.raw);
      } catch {
        body = res.raw;
      }
      const usable = asResultBody(body);
      const record = answerRecord({ request: c.ledger.o.request, baseUrl: c.ledger.o.origin, ...(c.ledger.o.account !== undefined ? { account: c.ledger.o.account } : {}), version: ctx.version, now: ctx.now }, c.job, {
        response: { raw: res.raw, status: res.status, headers: res.headers, idempotencyKey: key, ...(res.receivedSha256 ? { receivedSha256: res.receivedSha256 } : {}) }, replayed: res.headers['idempotent-replayed'] === 'true',
        ...(usable ? { result: usable } : { unusable: 'the answer has no usable coordinates' }),
      });
      await store.answer(key, { record, origin: c.ledger.o.origin, sandbox: res.headers[SANDBOX_HEADER] !== undefined, listed: true }, spend);
    } else if (res && res.status >= 400 && res.status < 500 && res.status !== 409 && res.status !== 429) {
      await store.fail(key, { code: `http_${res.status}`, message: `the service answered ${res.status}`, status: res.status, final: true });
    } else await store.release(key);
  } catch (err) {
    if (err instanceof StoreError && res) warn(`the answer above was printed but NOT stored (${err.message}); the same body with -H 'Idempotency-Key: ${key}' replays it free`);
    else if (!(err instanceof StoreError)) throw err;
  }
}
