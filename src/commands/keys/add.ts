/**
 * `geo keys add [name]`: the key comes from a hidden prompt or stdin, never argv (argv shows in
 * `ps` and shell history). It is checked with a free credits call before it is stored.
 */
import type { Readable } from 'node:stream';
import { ApiClient, normalizeBaseUrl } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { DEFAULT_BASE_URL, maskKey } from '../../config/resolve.js';
import type { Ctx } from '../../context.js';
import { DeclinedError, UsageError } from '../../errors.js';
import { redact } from '../../output/sanitize.js';

export interface AddOptions {
  name?: string;
  stdin?: boolean;
  verify?: boolean;
  baseUrl?: string;
}

export interface AddResult {
  name: string;
  key: string; // masked
  baseUrl: string;
  active: boolean;
  verified: boolean;
  balance?: number;
  replaced: boolean;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function readKey(ctx: Ctx, opts: AddOptions): Promise<string> {
  if (opts.stdin) return (await readAll(ctx.io.stdin)).trim();
  if (!ctx.interactive) {
    throw new UsageError('no key given: keys are read from a hidden prompt or --stdin, never from arguments', 'in scripts: printf %s "$KEY" | geo keys add NAME --stdin');
  }
  return (await ctx.prompt.password('API key (input hidden)')).trim();
}

async function chooseBaseUrl(ctx: Ctx, opts: AddOptions, existing?: string): Promise<string> {
  if (opts.baseUrl) return normalizeBaseUrl(opts.baseUrl.trim());
  const fallback = ctx.env.GEO_BASE_URL || existing || DEFAULT_BASE_URL;
  // stdin may already be consumed by --stdin, so only ask on a terminal without it.
  if (ctx.interactive && !opts.stdin) {
    for (;;) {
      const answer = await ctx.prompt.input('Base URL', { default: fallback });
      try {
        return normalizeBaseUrl((answer || fallback).trim());
      } catch (err) {
        ctx.io.stderr.write(`${(err as Error).message}\n`);
      }
    }
  }
  return normalizeBaseUrl(fallback);
}

export async function runAdd(ctx: Ctx, opts: AddOptions): Promise<AddResult> {
  const name = opts.name ?? 'default';
  if (!NAME.test(name)) throw new UsageError(`"${name}" is not a usable profile name`, 'use letters, digits, dot, dash and underscore (up to 64)');
  const existing = ctx.config.profile(name);
  if (existing && !ctx.globals.yes) {
    if (!ctx.interactive) throw new UsageError(`a profile named "${name}" already exists`, `pass --yes to replace it, or pick another name`);
    if (!(await ctx.prompt.confirm(`Replace the key of profile "${name}"?`, false))) throw new DeclinedError(`you said no: profile "${name}" keeps its key`, 'add --yes to replace it without asking');
  }

  const key = await readKey(ctx, opts);
  if (!key) throw new UsageError('the key is empty', opts.stdin ? 'pipe the key into --stdin' : 'paste the key at the prompt');
  if (/\s/.test(key)) throw new UsageError('the key contains spaces or line breaks', 'give exactly one key');
  const baseUrl = await chooseBaseUrl(ctx, opts, existing?.baseUrl);

  let balance: number | undefined;
  const verify = opts.verify !== false;
  if (verify) {
    const client = new ApiClient({
      baseUrl,
      apiKey: key,
      timeoutMs: (ctx.globals.timeout ?? 180) * 1000,
      userAgent: `geo-cli/${ctx.version}`,
      sleep: ctx.sleep,
      now: ctx.now,
      signal: ctx.signal,
      // This key is not the resolved one, so ctx.debug does not know it yet: redact it here too.
      debug: (line: string) => ctx.debug(redact(line, [key])),
    });
    try {
      // Any 2xx verifies the key; the figure is shown only when the snapshot carries it as a number.
      const total = ((await client.credits()).data as { data?: { total_available?: unknown } }).data?.total_available;
      balance = typeof total === 'number' ? total : undefined;
    } catch (err) {
      const why = err instanceof ApiError && (err.status === 401 || err.status === 403) ? 'the service refused it' : 'it could not be checked (use --no-verify to store it unchecked)';
      ctx.io.stderr.write(`key not saved: ${why}\n`);
      throw err;
    }
  }

  await ctx.config.saveProfile({ name, key, baseUrl });
  return {
    name,
    key: maskKey(key),
    baseUrl,
    active: ctx.config.activeName() === name,
    verified: verify,
    ...(balance !== undefined ? { balance } : {}),
    replaced: Boolean(existing),
  };
}
