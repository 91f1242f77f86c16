/**
 * The configured service: which base URL and where it comes from, offline by default. `--online`
 * asks GET /api/v1/docs, which needs no key (api-spec.md "Authentication" 1), so nothing secret
 * goes out; `--auth` sends the key to GET /api/v1/credits, which proves it works and costs nothing.
 * Doctor asks once, without the retry table: it reports, it does not insist.
 */
import { ApiClient, normalizeBaseUrl } from '../../api/client.js';
import { describe } from '../../output/errors.js';
import type { Check } from './check-types.js';

const NO_RETRY = { max: { refused: 0, reset: 0, timeout: 0, truncated: 0, bad_body: 0, rate_limited: 0, server_error: 0, unavailable: 0, gateway_timeout: 0 } };
const WAIT_MS = 10_000;

export const serviceCheck: Check = async (ctx) => {
  const r = ctx.resolved();
  const base = r.baseUrl.value;
  const where = `${base} (from ${r.baseUrl.source})`;
  try {
    normalizeBaseUrl(base);
  } catch (err) {
    return { name: 'service', status: 'fail', detail: `${where}: ${describe(err).message}`, hint: describe(err).hint ?? 'geo keys show says where it comes from' };
  }
  if (!ctx.online) return { name: 'service', status: 'ok', detail: `${where}; not contacted (doctor is offline: --online checks it answers, --auth checks the key)` };
  if (ctx.auth && !r.key) return { name: 'service', status: 'fail', detail: `${where}: --auth needs a key, and none is configured`, hint: 'geo keys add, or GEO_API_KEY' };
  const client = new ApiClient({
    baseUrl: base, apiKey: ctx.auth ? (r.key!.value ?? (async () => (await ctx.key())!)) : '', timeoutMs: Math.min(WAIT_MS, (ctx.globals.timeout ?? 180) * 1000), userAgent: `geo-cli/${ctx.version}`,
    sleep: ctx.sleep, now: ctx.now, signal: ctx.signal, retry: NO_RETRY, debug: (line) => ctx.debug(line),
  });
  try {
    if (!ctx.auth) {
      await client.docs();
      return { name: 'service', status: 'ok', detail: `${where}: answers (GET /api/v1/docs; no key sent)` };
    }
    const credits = await client.credits();
    return { name: 'service', status: 'ok', detail: `${where}: the key works (GET /api/v1/credits: ${credits.data.data?.total_available ?? '?'} credits available)` };
  } catch (err) {
    const d = describe(err);
    return { name: 'service', status: 'fail', detail: `${where}: ${d.message}`, hint: d.hint ?? 'check --base-url and your network' };
  }
};
