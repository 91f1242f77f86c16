/**
 * `geo keys add [name]`: the key comes from a hidden prompt or stdin, never argv (argv shows in
 * `ps` and shell history). It is checked with a free credits call before it is stored, in the OS
 * keyring unless none answers or --insecure-storage says otherwise (config/key-storage.ts).
 */
import type { Readable } from 'node:stream';
import { ApiClient, normalizeBaseUrl } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { forgetKeyringKey, placeKey, preflight } from '../../config/key-storage.js';
import { checkKeyText } from '../../config/key-text.js';
import { DEFAULT_BASE_URL, maskKey } from '../../config/resolve.js';
import type { KeyStorage } from '../../config/profiles.js';
import type { Ctx } from '../../context.js';
import { DeclinedError, UsageError } from '../../errors.js';
import { redact } from '../../output/sanitize.js';

export interface AddOptions {
  name?: string;
  stdin?: boolean;
  verify?: boolean;
  baseUrl?: string;
  /** Keep the key in the 0600 config file, not the OS keyring. */
  insecureStorage?: boolean;
}

export interface AddResult {
  name: string;
  key: string; // masked
  baseUrl: string;
  active: boolean;
  verified: boolean;
  balance?: number;
  replaced: boolean;
  /** Where the key is kept now. */
  storage: KeyStorage;
  /** Lines to show once: why the key went to the file, or that an old keyring entry could not be deleted. */
  notices: string[];
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

  const checked = checkKeyText(await readKey(ctx, opts));
  if ('problem' in checked) throw new UsageError(`the key ${checked.problem}: nothing was stored or sent`, checked.problem === 'is empty' ? (opts.stdin ? 'pipe the key into --stdin' : 'paste the key at the prompt') : 'give exactly one key, as the service issued it');
  const key = checked.key;
  const baseUrl = await chooseBaseUrl(ctx, opts, existing?.baseUrl);
  const insecure = Boolean(opts.insecureStorage);
  // GEO_KEYRING=required: no keyring, no request (the check below would send the key).
  await preflight(ctx.vault, insecure);

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

  const placed = await placeKey(ctx.vault, name, key, { insecure, file: ctx.config.path });
  const notices = placed.storage === 'file' && placed.notice ? [placed.notice] : [];
  await ctx.config.saveProfile(placed.storage === 'keyring' ? { name, baseUrl, keyring: placed.keyring, masked: maskKey(key) } : { name, baseUrl, key });
  // The replaced key must not linger in the keyring once this one went to the file.
  if (existing?.storage === 'keyring' && placed.storage === 'file') {
    const left = await forgetKeyringKey(ctx.vault, existing.keyring!);
    if (left) notices.push(left);
  }
  return {
    name,
    key: maskKey(key),
    baseUrl,
    active: ctx.config.activeName() === name,
    verified: verify,
    ...(balance !== undefined ? { balance } : {}),
    replaced: Boolean(existing),
    storage: placed.storage,
    notices,
  };
}
