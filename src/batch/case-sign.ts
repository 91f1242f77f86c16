/**
 * Signing a case's custody head: the head is signed as it is (custody-sign.ts's
 * message), and head_signed lands right after the entry it signs, or is made again over the new
 * head when another process appended in between. Commands that append sign at their end when a
 * signing key is chosen (`geo keys signing use`): `locate --case`, `eval --case`, `cases link`,
 * `cases bundle`, `cases stamp`, `export --case`, `cases create`; `geo cases sign` signs on demand.
 *
 * Signing never costs what was appended: an automatic signature that cannot be made (agent gone,
 * keyring locked, key file unreadable) is said on stderr, and the entries stay, unsigned until
 * `geo cases sign`. The key is opened once per command.
 */
import { StoreError } from '../errors.js';
import { describeSigningKey, openSigningKey, type SigningKey } from '../config/signing-keys.js';
import type { SigningDeps } from '../config/signing-store.js';
import { type Actor, type CustodyEntry, parseEntry } from '../evidence/custody.js';
import { CustodyMovedError, currentActor } from '../evidence/custody-log.js';
import { type SignedHead, custodyMessage } from '../evidence/custody-sign.js';
import { signSshsig } from '../evidence/sshsig.js';
import { publicKeyLine } from '../evidence/ssh-key.js';
import type { StoreApi } from '../store/index.js';
import { caseLog } from './case-custody.js';

export interface SignDeps {
  store: StoreApi;
  version: string;
  now: () => number;
  signing: SigningDeps;
}

export interface HeadSignature {
  /** The head_signed entry's position, and what it signs: the head of entry `seq`. */
  entry: number;
  seq: number;
  head: string;
  fingerprint: string;
  principal: string;
  /** false: this key had signed that head already; nothing was appended. */
  appended: boolean;
}

const signed = (e: CustodyEntry) => e.data.signature as Partial<SignedHead> | undefined;

/** The signature this key already made over the head (nothing but signatures after the entry it covers). */
function already(entries: readonly CustodyEntry[], fingerprint: string): CustodyEntry | undefined {
  const lastOther = entries.findLastIndex((e) => e.event !== 'head_signed') + 1;
  return entries.find((e, i) => i + 1 > lastOther && e.event === 'head_signed' && signed(e)?.fingerprint === fingerprint && (signed(e)?.seq ?? 0) >= lastOther);
}

/**
 * Signs the case's head with `key`: head_signed, right after the entry signed. `onlyAfter`: sign
 * that head or nothing (a bundle's seal), CustodyMovedError when another entry came first.
 */
export async function signHead(d: SignDeps, caseId: string, key: SigningKey, onlyAfter?: string): Promise<HeadSignature> {
  const log = caseLog(d.store, currentActor(d.version, key.fingerprint), d.now);
  for (let attempt = 0; attempt < 5; attempt++) {
    const entries = (await d.store.cases.lines(caseId)).map(parseEntry);
    const last = entries.at(-1);
    if (!last) throw new StoreError(`case ${caseId} has no custody log to sign`, 'other');
    const done = already(entries, key.fingerprint);
    if (done && onlyAfter === undefined) {
      return { entry: done.seq, seq: signed(done)!.seq!, head: signed(done)!.head!, fingerprint: key.fingerprint, principal: signed(done)!.principal ?? key.principal, appended: false };
    }
    if (onlyAfter !== undefined && last.hash !== onlyAfter) throw new CustodyMovedError(caseId);
    const sshsig = await signSshsig(custodyMessage(caseId, last.seq, last.hash), key.signer);
    const signature: SignedHead = { seq: last.seq, head: last.hash, sshsig, fingerprint: key.fingerprint, public_key: publicKeyLine({ key: key.publicKey.key }), principal: key.principal };
    try {
      const e = await log.append(caseId, { event: 'head_signed', data: { signature } }, { after: last.hash });
      return { entry: e.seq, seq: last.seq, head: last.hash, fingerprint: key.fingerprint, principal: key.principal, appended: true };
    } catch (err) {
      if (!(err instanceof CustodyMovedError) || onlyAfter !== undefined) throw err;
    }
  }
  throw new StoreError(`the custody log of case ${caseId} kept moving while its head was being signed`, 'busy', `geo cases sign ${caseId} once the other geo commands are done`);
}

const reason = (err: unknown) => {
  const e = err as { message?: string; hint?: string };
  return `${e.message ?? String(err)}${e.hint ? ` (${e.hint})` : ''}`;
};

/**
 * The chosen signing key, opened once, for the automatic signatures of one command. Nothing is
 * opened (no keyring, no agent) until a case is to be signed, and not at all when no key is chosen.
 */
export class CaseSigner {
  private key?: Promise<SigningKey>;
  private who?: Promise<Actor>;

  constructor(
    private readonly d: SignDeps,
    private readonly say: (line: string) => void,
  ) {}

  /** Who this command's custody entries name (caseActor), read once. */
  actor(): Promise<Actor> {
    this.who ??= caseActor(this.d);
    return this.who;
  }

  /** Whether a key is chosen (geo keys signing use). */
  get chosen(): boolean {
    return this.d.signing.config.signing().use !== undefined;
  }

  /** The chosen key, opened (once): it throws what openSigningKey throws. */
  open(): Promise<SigningKey> {
    this.key ??= openSigningKey(this.d.signing);
    return this.key;
  }

  /**
   * Signs the case's head after the command's appends, if a key is chosen; never throws. Without a
   * key, a case that carries signatures gets a line saying what is now unsigned.
   */
  async auto(caseId: string): Promise<HeadSignature | undefined> {
    try {
      if (!this.chosen) {
        this.sayUnsigned(caseId, await this.d.store.cases.lines(caseId), 'no signing key is chosen (geo keys signing use)');
        return undefined;
      }
      return await signHead(this.d, caseId, await this.open());
    } catch (err) {
      this.say(`custody: case ${caseId} is not signed: ${reason(err)}; the entries are appended, unsigned until geo cases sign ${caseId}`);
      return undefined;
    }
  }

  /** Signs exactly this head (a bundle's seal), with the chosen key; throws when it cannot. */
  async signExactly(caseId: string, head: string): Promise<HeadSignature> {
    return signHead(this.d, caseId, await this.open(), head);
  }

  private sayUnsigned(caseId: string, lines: readonly string[], why: string): void {
    const entries = lines.map(parseEntry);
    const lastSig = entries.findLastIndex((e) => e.event === 'head_signed');
    if (lastSig < 0) return;
    const covered = signed(entries[lastSig]!)?.seq ?? 0;
    const first = entries.findIndex((e, i) => i + 1 > covered && e.event !== 'head_signed');
    if (first >= 0) this.say(`custody: case ${caseId} is signed, but ${why}: entries from ${first + 1} on are unsigned until geo cases sign ${caseId}, and geo cases verify fails them`);
  }
}

/**
 * Who a command's custody entries name (on a team store several analysts append to one
 * case): this OS user and host, geo's version, and the chosen signing key's fingerprint when one is
 * chosen. Only public facts are read (no keyring, no passphrase); a chosen key that cannot be
 * described now is left out rather than holding up an entry.
 */
export async function caseActor(d: { version: string; signing: SigningDeps }): Promise<Actor> {
  if (d.signing.config.signing().use === undefined) return currentActor(d.version);
  const fp = await describeSigningKey(d.signing).then((k) => k.fingerprint, () => undefined);
  return currentActor(d.version, fp);
}

/** What a command has that signing needs (a Ctx has all of it). */
export interface SignerCtx {
  storeApi(): Promise<StoreApi>;
  version: string;
  now: () => number;
  config: SigningDeps['config'];
  vault: SigningDeps['vault'];
}

/** The command's signer, its lines said through `say` (sanitized by the caller). */
export async function caseSigner(ctx: SignerCtx, say: (line: string) => void): Promise<CaseSigner> {
  return new CaseSigner({ store: await ctx.storeApi(), version: ctx.version, now: ctx.now, signing: { config: ctx.config, vault: ctx.vault } }, say);
}
