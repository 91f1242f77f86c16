/**
 * `geo keys signing create | show | use | list | test`: the Ed25519 key that signs case
 * heads (SSHSIG, namespace geo-custody), and the line that lets anyone check it with
 * `ssh-keygen -Y verify`. What these return is public: keys, fingerprints, references. The private
 * key is only ever read by `test` (to sign a throwaway message), and never returned.
 */
import { randomBytes } from 'node:crypto';
import { fingerprint, parsePublicKeyLine, publicKeyLine } from '../../evidence/ssh-key.js';
import { allowedSignerLine } from '../../evidence/allowed-signers.js';
import { CUSTODY_NAMESPACE, checkSshsig, signSshsig } from '../../evidence/sshsig.js';
import { checkPrincipal, describeSigningKey, normalizeRef, openSigningKey, signingPrincipal, type SigningKeyInfo } from '../../config/signing-keys.js';
import { type SigningDeps, createSigningKey } from '../../config/signing-store.js';
import type { Ctx } from '../../context.js';
import { KeyringError } from '../../errors.js';

const deps = (ctx: Ctx): SigningDeps => ({ config: ctx.config, vault: ctx.vault });

/** What `show`, `use` and `create` print about a key. */
export interface SigningKeyView {
  ref: string;
  source: SigningKeyInfo['source'];
  fingerprint: string;
  publicKey: string;
  principal: string;
  signsIn: SigningKeyInfo['signsIn'];
  path?: string;
  /** The line for an allowed_signers file. */
  allowedSigners: string;
  /** Is this the key that signs by default? */
  active: boolean;
}

function view(ctx: Ctx, k: SigningKeyInfo & { principal: string }): SigningKeyView {
  return {
    ref: k.ref,
    source: k.source,
    fingerprint: k.fingerprint,
    publicKey: publicKeyLine(k.publicKey),
    principal: k.principal,
    signsIn: k.signsIn,
    ...(k.path ? { path: k.path } : {}),
    allowedSigners: allowedSignerLine(k.principal, k.publicKey, CUSTODY_NAMESPACE),
    active: ctx.config.signing().use === k.ref,
  };
}

export interface CreateOptions {
  name?: string;
  principal?: string;
  insecureStorage?: boolean;
}

export interface CreateResult extends SigningKeyView {
  name: string;
  /** Where the private key is kept: the keyring entry (service / account) or the 0600 file. */
  storedAt: string;
  /** Why the key went to the file, when it did (shown once). */
  notices: string[];
}

export async function runSigningCreate(ctx: Ctx, opts: CreateOptions): Promise<CreateResult> {
  const name = opts.name ?? 'default';
  const principal = opts.principal !== undefined ? checkPrincipal(opts.principal) : signingPrincipal(deps(ctx));
  const made = await createSigningKey(deps(ctx), name, { insecure: Boolean(opts.insecureStorage), comment: principal });
  if (opts.principal !== undefined) await ctx.config.saveSigning({ ...ctx.config.signing(), principal });
  const k = await describeSigningKey(deps(ctx), name);
  return { name, ...view(ctx, k), storedAt: made.place, notices: made.notice ? [made.notice] : [] };
}

export async function runSigningShow(ctx: Ctx, ref?: string): Promise<SigningKeyView> {
  return view(ctx, await describeSigningKey(deps(ctx), ref));
}

export interface UseResult extends SigningKeyView {
  /** Why it cannot sign right now (a key only ssh-agent can sign with, which the agent does not hold). */
  warning?: string;
}

/**
 * Checks the key first (readable, Ed25519; an agent:… key held by the agent), then makes it the
 * default. A passphrase-protected key file is chosen even when the agent does not hold it yet
 * (`ssh-add` may come later), with a warning saying so.
 */
export async function runSigningUse(ctx: Ctx, ref: string, opts: { principal?: string } = {}): Promise<UseResult> {
  const principal = opts.principal === undefined ? undefined : checkPrincipal(opts.principal);
  const stored = normalizeRef(deps(ctx), ref);
  const k = await describeSigningKey(deps(ctx), stored);
  let warning: string | undefined;
  if (k.source === 'path' && k.signsIn === 'ssh-agent') {
    try {
      await openSigningKey(deps(ctx), stored);
    } catch (err) {
      if (!(err instanceof KeyringError)) throw err;
      warning = `warning: it cannot sign yet: ${err.message}${err.hint ? ` (${err.hint})` : ''}`;
    }
  }
  await ctx.config.saveSigning({ ...ctx.config.signing(), use: k.ref, ...(principal ? { principal } : {}) });
  return { ...view(ctx, { ...k, principal: signingPrincipal(deps(ctx)) }), ...(warning ? { warning } : {}) };
}

export interface SigningRow {
  ref: string;
  fingerprint: string;
  source: SigningKeyInfo['source'];
  active: boolean;
}

/** The keys geo made, and the chosen key when it is yours (a file or an agent key). Reads no private key. */
export function runSigningList(ctx: Ctx): SigningRow[] {
  const s = ctx.config.signing();
  const rows: SigningRow[] = Object.entries(s.keys)
    .map(([name, k]) => ({ ref: name, fingerprint: fingerprintOfLine(k.publicKey), source: k.keyring !== undefined ? ('keyring' as const) : ('file' as const), active: s.use === name }))
    .sort((a, b) => a.ref.localeCompare(b.ref));
  if (s.use && !s.keys[s.use]) rows.push({ ref: s.use, fingerprint: s.use.startsWith('agent:') ? s.use.slice(6) : '-', source: s.use.startsWith('agent:') ? 'agent' : 'path', active: true });
  return rows;
}

/** The config's own lines were written by geo; a hand-edited one shows as unreadable, not a crash. */
function fingerprintOfLine(line: string): string {
  try {
    return fingerprint(parsePublicKeyLine(line));
  } catch {
    return '(unreadable)';
  }
}

export interface SigningTestResult {
  ok: true;
  ref: string;
  fingerprint: string;
  signsIn: SigningKeyInfo['signsIn'];
  principal: string;
}

/** Signs a throwaway message with the key (through the agent when it holds it) and checks the signature. */
export async function runSigningTest(ctx: Ctx, ref?: string): Promise<SigningTestResult> {
  const k = await openSigningKey(deps(ctx), ref);
  const message = Buffer.concat([Buffer.from('geo keys signing test\n'), randomBytes(32)]);
  const sig = await signSshsig(message, k.signer, CUSTODY_NAMESPACE);
  const checked = checkSshsig(message, sig, CUSTODY_NAMESPACE);
  if (!checked.ok) throw new Error(`the test signature did not verify: ${checked.problem}`);
  return { ok: true, ref: k.ref, fingerprint: k.fingerprint, signsIn: k.signsIn, principal: k.principal };
}
