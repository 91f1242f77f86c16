/**
 * `geo cases sign <case> [--key REF]`: signs the case's custody head as it is
 * now with the chosen signing key (or REF), and appends head_signed. The case must verify first
 * (a signature over a rewritten log would vouch for it); the entries the signature newly covers
 * (appended since the last signature, or all of them) are said, so whoever signs sees what they
 * vouch for. Signing a head this key has signed already appends nothing.
 *
 * Also the handlers of `cases sign` and `cases stamp` (stamp.ts holds the work).
 */
import { type HeadSignature, signHead } from '../../batch/case-sign.js';
import { vouchedOrRefuse } from '../../batch/case-results.js';
import { openSigningKey } from '../../config/signing-keys.js';
import type { Ctx } from '../../context.js';
import { NotVerifiedError } from '../../errors.js';
import { type SignedHead, checkSignatures } from '../../evidence/custody-sign.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { SANDBOX_TIME } from '../../output/views/trust-rows.js';
import { findCase } from '../../store/find.js';
import type { Handler } from '../types.js';
import { runStamp, stampFailure } from './stamp.js';
import { shellQuote } from '../../files/shell.js';

export interface SignResult {
  case: { id: string; name: string };
  signature: HeadSignature;
  /** The entries this signature covers that no earlier signature did (null: none, it had signed them). */
  newly: { from: number; to: number; events: string[] } | null;
}

export async function runSign(ctx: Pick<Ctx, 'storeApi' | 'now' | 'version' | 'config' | 'vault'>, ref: string, opts: { key?: string } = {}): Promise<SignResult> {
  const store = await ctx.storeApi();
  const c = await findCase(store, ref);
  const ev = await vouchedOrRefuse(store, c, 'nothing is signed');
  const entries = ev.entries.map((x) => x.e);
  const broken = checkSignatures(entries).signatures.find((s) => !s.ok);
  if (broken) throw new NotVerifiedError(`case ${c.id} does not verify, so nothing is signed: entry ${broken.entry} (head_signed): ${broken.problem}`, `geo cases verify ${c.id} lists what fails`);
  const before = Math.max(0, ...entries.filter((e) => e.event === 'head_signed').map((e) => (e.data.signature as SignedHead).seq));
  const key = await openSigningKey({ config: ctx.config, vault: ctx.vault }, opts.key);
  const signature = await signHead({ store, version: ctx.version, now: ctx.now, signing: { config: ctx.config, vault: ctx.vault } }, c.id, key);
  const fresh = entries.slice(before, signature.seq).filter((e) => e.event !== 'head_signed');
  return {
    case: { id: c.id, name: ev.vouch.case.name || c.id },
    signature,
    newly: signature.appended && fresh.length ? { from: fresh[0]!.seq, to: fresh.at(-1)!.seq, events: [...new Set(fresh.map((e) => e.event))] } : null,
  };
}

export const sign: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx, ['table', 'json']);
  const res = await runSign(ctx, args[0] as string, { ...(typeof opts.key === 'string' ? { key: opts.key } : {}) });
  const s = res.signature;
  const human = () => [
    s.appended ? `signed case ${sanitizeInline(res.case.id)} (${sanitizeInline(res.case.name)}): entry ${s.entry} signs the head of entry ${s.seq}` : `case ${sanitizeInline(res.case.id)}: this key signed its head (entry ${s.seq}) already, at entry ${s.entry}: nothing appended`,
    `  signer   ${sanitizeInline(s.principal)}, key ${s.fingerprint}`,
    `  head     ${s.head}`,
    ...(res.newly ? [`  covers   ${res.newly.from === res.newly.to ? `entry ${res.newly.from}` : `entries ${res.newly.from} to ${res.newly.to}`} (${res.newly.events.join(', ')}), unsigned until now`] : []),
    // Where the allowed_signers file comes from, as commands that run: this key's line, then the check.
    `  check    geo keys signing show${typeof opts.key === 'string' ? ` ${shellQuote(sanitizeInline(opts.key))}` : ''} --jq .allowedSigners >> allowed_signers`,
    `           geo cases verify ${shellQuote(sanitizeInline(res.case.id))} --allowed-signers allowed_signers`,
    '           (a file of the keys you trust, one allowed_signers line each: only they count)',
  ].join('\n');
  await render(ctx, { data: res, human }, ['table', 'json']);
};

export const stamp: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx, ['table', 'json']);
  const say = (line: string) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`);
  const tsa = Array.isArray(opts.tsa) ? (opts.tsa as string[]) : [];
  const out = await runStamp(ctx, args[0] as string | undefined, { tsa, pending: Boolean(opts.pending), ...(typeof opts.tsaCa === 'string' ? { tsaCa: opts.tsaCa } : {}) }, say);
  const line = (o: (typeof out)[number]) => {
    const at = `case ${sanitizeInline(o.case)}, head of entry ${o.seq ?? '?'} (${o.head.slice(0, 16)}…), ${sanitizeInline(o.tsa)}`;
    if (o.state === 'stamped') return `stamped   ${at}: existed by ${o.gen_time}, says ${sanitizeInline(o.authority ?? '')}${o.entry ? ` (entry ${o.entry}, head_stamped)` : ''}${o.sandbox ? `; ${SANDBOX_TIME}` : ''}${o.error ? `; ${sanitizeInline(o.error)}` : ''}`;
    if (o.state === 'already') return `already   ${at}${o.gen_time ? `: existed by ${o.gen_time}` : ''}`;
    if (o.state === 'queued') return `queued    ${at}: ${sanitizeInline(o.error ?? 'not sent')}`;
    return `failed    ${at}: ${sanitizeInline(o.error ?? '')}`;
  };
  await render(ctx, { data: { stamps: out }, human: () => out.map(line).join('\n') }, ['table', 'json']);
  const failed = stampFailure(out);
  if (failed) throw failed;
};
