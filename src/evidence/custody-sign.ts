/**
 * Signed custody: what a signature over a case's log says, and how a log's
 * signatures are checked.
 *
 * What is signed is one ASCII line, never the log itself:
 *   geo-custody/1 case=<case id> seq=<n> head=<hash of entry n>\n
 * as an SSH signature (sshsig.ts, namespace geo-custody), so `ssh-keygen -Y verify` checks it with
 * the line in a file. The case id and the seq are in the message, so a signature lifted to another
 * case or another point of the log fails; the head is entry n's hash, which chains every entry
 * before it. A signature is itself an entry, head_signed, appended right after what it covers.
 *
 * Once a log carries any signature, every entry after the last valid one (but head_signed entries
 * themselves, which carry their own proof) fails: whoever appends without the key, cuts the log
 * back past a signature, or rewrites and re-hashes it, leaves an entry no valid signature covers,
 * and the first such entry is named. With your own allowed_signers file, only its keys count.
 */
import { CUSTODY_NAMESPACE, checkSshsig } from './sshsig.js';
import { type AllowedSigners, allows, signerIdentity } from './allowed-signers.js';
import type { CustodyEntry, CustodyEvents } from './custody.js';
import { parsePublicKeyLine, sameKey } from './ssh-key.js';
import { SshFormatError } from './ssh-wire.js';

export type SignedHead = CustodyEvents['head_signed']['signature'];

/** The exact bytes a signature over entry `seq` of case `caseId` signs. */
export function custodyMessage(caseId: string, seq: number, head: string): Buffer {
  return Buffer.from(`geo-custody/1 case=${caseId} seq=${seq} head=${head}\n`, 'utf8');
}

/**
 * Whose keys count. `allowed`: your allowed_signers file (--allowed-signers): its keys are trusted,
 * under the principals it gives them, and no other key covers anything. `bundled`: a bundle's own
 * allowed_signers (the signers' word about themselves): it names principals, it trusts no one.
 */
export interface SignerTrust {
  allowed?: AllowedSigners;
  bundled?: AllowedSigners;
  /** --require-signature: a log with no valid signature (that counts) fails. */
  required?: boolean;
}

export interface SignatureCheck {
  /** The head_signed entry's position in the log. */
  entry: number;
  /** What it signs: the head of entry `seq`. */
  seq: number;
  head: string;
  fingerprint: string;
  public_key: string;
  /** From your allowed_signers, else the bundle's, else as the entry declares it (null: none). */
  principal: string | null;
  /** allowed: in your allowed_signers; bundle: listed by the bundle only; unlisted: in no file you gave. */
  trust: 'allowed' | 'bundle' | 'unlisted';
  ok: boolean;
  problem?: string;
}

export interface SignaturesSection {
  /** The log carries at least one head_signed entry. */
  signed: boolean;
  ok: boolean;
  /** The log could be read to check them. */
  checked: boolean;
  /** Which signatures count: those by a key of your allowed_signers, or any valid one (no file given). */
  counting: 'allowed-signers' | 'any-valid';
  signatures: SignatureCheck[];
  /** The last entry a valid signature that counts covers (its seq), or null. */
  covered: number | null;
  required: boolean;
  failures: string[];
}

const HEX64 = /^[0-9a-f]{64}$/;
const short = (h: string) => `${h.slice(0, 16)}…`;

/** What a signed entry carries about its signature (head_signed's signature, review_made's review). */
export interface SignedFields {
  sshsig?: unknown;
  fingerprint?: unknown;
  public_key?: unknown;
  principal?: unknown;
}

/** Whose valid signature, and how far it is trusted; or why it does not hold. */
export type SignerVerdict =
  | { ok: true; fingerprint: string; trust: SignatureCheck['trust']; principal: string | null }
  | { ok: false; fingerprint: string; problem: string };

/**
 * Is `d.sshsig` a valid signature of `message` (namespace geo-custody) by the key entry `n` names,
 * and is that key in your allowed_signers (else the bundle's)? One rule for every signed entry.
 */
export function checkSigner(message: Buffer, d: SignedFields, n: number, trust: SignerTrust): SignerVerdict {
  const declared = String(d.fingerprint ?? '');
  const principal = typeof d.principal === 'string' ? d.principal : null;
  if (typeof d.sshsig !== 'string') return { ok: false, fingerprint: declared, problem: 'it carries no signature' };
  const v = checkSshsig(message, d.sshsig, CUSTODY_NAMESPACE);
  if (!v.ok) return { ok: false, fingerprint: declared, problem: v.problem };
  try {
    if (!sameKey(parsePublicKeyLine(String(d.public_key ?? '')), v.publicKey) || declared !== v.fingerprint) {
      return { ok: false, fingerprint: v.fingerprint, problem: `it names key ${declared || '(none)'}, but the signature is by ${v.fingerprint}` };
    }
  } catch (err) {
    if (!(err instanceof SshFormatError)) throw err;
    return { ok: false, fingerprint: v.fingerprint, problem: `its public_key is not an Ed25519 key line (${err.message})` };
  }
  const listedBy = (file: AllowedSigners | undefined) => {
    if (!file) return undefined;
    // Under the identity VERIFY.md gives ssh-keygen -I: a line `*,!alice@example.org KEY` does not trust alice.
    const found = allows(file, v.publicKey, CUSTODY_NAMESPACE, { principal: signerIdentity(d.principal, n) });
    return 'principals' in found ? found.principals : undefined;
  };
  const mine = listedBy(trust.allowed);
  if (mine) return { ok: true, fingerprint: v.fingerprint, trust: 'allowed', principal: mine[0] ?? principal };
  const theirs = trust.allowed ? undefined : listedBy(trust.bundled);
  if (theirs) return { ok: true, fingerprint: v.fingerprint, trust: 'bundle', principal: theirs[0] ?? principal };
  return { ok: true, fingerprint: v.fingerprint, trust: 'unlisted', principal };
}

/** Whether a valid signature counts: any, or with your allowed_signers only its keys. */
export const countsUnder = (trust: SignerTrust, s: { ok: boolean; trust: SignatureCheck['trust'] }): boolean => s.ok && (!trust.allowed || s.trust === 'allowed');

function check(entries: readonly CustodyEntry[], n: number, trust: SignerTrust): SignatureCheck {
  const e = entries[n - 1]!;
  const d = (e.data.signature ?? {}) as Partial<SignedHead>;
  const base = {
    entry: n, seq: Number(d.seq), head: String(d.head ?? ''), fingerprint: String(d.fingerprint ?? ''), public_key: String(d.public_key ?? ''),
    principal: typeof d.principal === 'string' ? d.principal : null, trust: 'unlisted' as SignatureCheck['trust'],
  };
  const bad = (problem: string): SignatureCheck => ({ ...base, ok: false, problem });
  if (!Number.isInteger(d.seq) || d.seq! < 1 || d.seq! >= n || typeof d.head !== 'string' || !HEX64.test(d.head) || typeof d.sshsig !== 'string') {
    return bad('it does not name an earlier entry, a head and a signature');
  }
  const covered = entries[d.seq! - 1]!;
  if (covered.hash !== d.head) {
    return bad(`it signs head ${short(d.head)} as entry ${d.seq}'s, but entry ${d.seq}'s hash is ${short(covered.hash)}: the log was rewritten after it was signed`);
  }
  const v = checkSigner(custodyMessage(e.case, d.seq!, d.head), d, n, trust);
  if (!v.ok) return { ...base, fingerprint: v.fingerprint, ok: false, problem: v.problem };
  return { ...base, ok: true, fingerprint: v.fingerprint, trust: v.trust, principal: v.principal };
}

/** Every head_signed entry checked, and every entry past the last valid signature that counts named. */
export function checkSignatures(entries: readonly CustodyEntry[], trust: SignerTrust = {}): SignaturesSection {
  const signatures: SignatureCheck[] = [];
  entries.forEach((e, i) => {
    if (e.event === 'head_signed') signatures.push(check(entries, i + 1, trust));
  });
  const counting = trust.allowed ? 'allowed-signers' : 'any-valid';
  const last = signatures.filter((s) => countsUnder(trust, s)).sort((a, b) => a.seq - b.seq).at(-1);
  const covered = last?.seq ?? null;
  const failures: string[] = [];
  if (signatures.length > 0) {
    const past = entries.findIndex((e, i) => i + 1 > (covered ?? 0) && e.event !== 'head_signed');
    if (past >= 0) {
      const e = entries[past]!;
      const lastSaid = last ? `entry ${last.entry}, over entry ${last.seq}` : counting === 'allowed-signers' && signatures.some((s) => s.ok) ? 'none by a key of your allowed_signers' : 'none holds';
      failures.push(`entry ${past + 1} (${e.event}) is past the last valid signature (${lastSaid}): appended by someone without the key, or the log was rewritten`);
    }
  } else if (trust.required) {
    failures.push('the custody log carries no signature (--require-signature): geo cases sign signs its head');
  }
  for (const s of signatures) if (!s.ok) failures.push(`entry ${s.entry} (head_signed): ${s.problem}`);
  return { signed: signatures.length > 0, ok: failures.length === 0, checked: true, counting, signatures, covered, required: Boolean(trust.required), failures };
}

/** The section when the log could not be read (integrity says why). */
export function uncheckedSignatures(required = false): SignaturesSection {
  return { signed: false, ok: !required, checked: false, counting: 'any-valid', signatures: [], covered: null, required, failures: required ? ['the signatures could not be checked (--require-signature)'] : [] };
}
