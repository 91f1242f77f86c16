/**
 * `geo api`: one raw request through the client every command uses (ApiClient.send): the
 * profile's key, base URL and timeout, the retry table, and one Idempotency-Key per geolocate POST
 * reused by each of its retries (api-spec.md "States and transitions"). A geolocate POST goes through
 * the store's claims and results like geo locate's (claim.ts): never paid twice, never lost.
 */
import type { Readable } from 'node:stream';
import { type RawResponse, normalizeBaseUrl } from '../../api/client.js';
import type { RetryClass } from '../../api/retry.js';
import { IdempotencyKeySchema, LIMITS } from '../../api/schemas.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type Spend, geolocateSpend } from './cost.js';
import { fieldsToBody, fieldsToQuery, readFields } from './fields.js';
import { isGeolocate, parseHeaders, policyFor, resolvePath } from './target.js';

export interface ApiOptions {
  path: string;
  method?: string;
  /** -f key=value */
  fields: string[];
  /** -F key=value */
  typedFields: string[];
  /** --input FILE|- */
  input?: string;
  /** -H 'Name: value' */
  headers: string[];
}

export interface ApiPlan {
  method: string;
  /** Under the base URL, query included. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  retry: RetryClass;
  auth: boolean;
  /** Geolocate only: the key every attempt carries, and what the call may spend. */
  idempotencyKey?: string;
  /** The key given with -H (the caller's own), which names its request in the store's claims. */
  userKey?: string;
  spend?: Spend;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks);
}

function methodOf(o: ApiOptions, hasPayload: boolean): string {
  if (o.method === undefined) return hasPayload ? 'POST' : 'GET';
  const m = o.method.toUpperCase();
  if (!/^[A-Z]+$/.test(m)) throw new UsageError(`-X takes an HTTP method, got "${o.method}"`, 'for example -X POST');
  return m;
}

/** Everything about the request, checked before anything is sent. */
export async function planApi(ctx: Pick<Ctx, 'io' | 'resolved'>, o: ApiOptions): Promise<ApiPlan> {
  const headers = parseHeaders(o.headers);
  const usesStdin = [o.input, ...o.typedFields.map((f) => f.slice(f.indexOf('=') + 1))].filter((v) => v === '-' || v === '@-').length;
  if (usesStdin > 1) throw new UsageError('stdin can be read once: give it to --input - or to one -F key=@-', 'put the other value in a file');
  const fields = await readFields(o.fields, o.typedFields, { readStdin: async () => (await readAll(ctx.io.stdin)).toString('utf8') });
  const method = methodOf(o, fields.length > 0 || o.input !== undefined);
  // normalizeBaseUrl first: an unusable base URL (http to a remote host) is its own error.
  let path = resolvePath(o.path, normalizeBaseUrl(ctx.resolved().baseUrl.value));
  let body: Buffer | undefined;
  // As gh does: fields form the JSON body, unless the method reads (GET, HEAD) or --input is the body.
  const fieldsInQuery = o.input !== undefined || method === 'GET' || method === 'HEAD';
  if (fields.length && fieldsInQuery) {
    const q = new URLSearchParams();
    fieldsToQuery(fields, q);
    path += (path.includes('?') ? '&' : '?') + q.toString();
  } else if (fields.length) {
    body = Buffer.from(JSON.stringify(fieldsToBody(fields)), 'utf8');
  }
  if (o.input !== undefined) {
    if (method === 'GET' || method === 'HEAD') throw new UsageError(`--input sends a body, which ${method} does not take`, 'drop -X GET (the default with --input is POST)');
    try {
      body = o.input === '-' ? await readAll(ctx.io.stdin) : await (await import('node:fs/promises')).readFile(o.input);
    } catch (err) {
      throw new UsageError(`cannot read ${o.input} for --input (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`, 'give a readable file, or - for stdin');
    }
  }
  const plan: ApiPlan = { method, path, headers, ...(body ? { body } : {}), ...policyFor(method, path) };
  if (isGeolocate(method, path)) {
    // One key per logical request, kept by every retry; a key given with -H is the user's own.
    const key = headers['idempotency-key'] ?? (await import('node:crypto')).randomUUID();
    if (!IdempotencyKeySchema.safeParse(key).success) {
      throw new UsageError(`the Idempotency-Key must be 1 to ${LIMITS.idempotencyKeyMaxChars} characters (got ${key.length})`, "for example -H 'Idempotency-Key: case-42-photo-1'");
    }
    if (headers['idempotency-key'] !== undefined) plan.userKey = key;
    headers['idempotency-key'] = key;
    plan.idempotencyKey = key;
    plan.spend = geolocateSpend(body);
  }
  return plan;
}

export async function runApi(ctx: Pick<Ctx, 'client'>, plan: ApiPlan): Promise<RawResponse> {
  const { idempotencyKey: _key, userKey: _user, spend: _spend, ...request } = plan;
  return ctx.client().send(request);
}
