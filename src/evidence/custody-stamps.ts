/**
 * Trusted timestamps of a case's custody head: which CA a token is trusted
 * under, and how a log's head_stamped entries are checked.
 *
 * What is stamped: the head itself, the 32 bytes of an entry's hash, as the token's SHA-256
 * message imprint; `openssl ts -verify -digest <head hex>` checks it as it is.
 *
 * Which CA: at stamp time, the one you name (`--tsa-ca FILE`, `geo config set tsa-ca FILE`), else
 * the self-signed root the TSA's reply carries. The token must chain to it and every certificate
 * be valid at the token's genTime; that CA is then kept beside the token, and the sha256 of its
 * DER is logged in head_stamped, so a later swap of token or CA is named. What a pinned CA proves:
 * the token is the one that TSA (under that CA) gave when the analyst stamped, nothing about
 * whether you trust that TSA; a verifier who does gives its CA with --tsa-ca, and then nothing
 * pinned is taken on trust.
 */
import { createHash } from 'node:crypto';
import type { CustodyEntry, CustodyEvents } from './custody.js';
import { TimestampError, type TimestampFailure } from './tsa-errors.js';
import { type Cert, chainToAnchor, checkValidAt, pemCertificates } from './tsa-chain.js';
import { type TimestampFacts, readToken, verifyTimestamp } from './tsa-verify.js';

export type StampedHead = CustodyEvents['head_stamped']['stamp'];

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export const certPem = (der: Uint8Array) => `-----BEGIN CERTIFICATE-----\n${Buffer.from(der).toString('base64').replace(/.{64}(?=.)/g, '$&\n')}\n-----END CERTIFICATE-----\n`;

const selfSigned = (c: Cert) => {
  try {
    return c.x509.ca && c.x509.checkIssued(c.x509) && c.x509.verify(c.x509.publicKey);
  } catch {
    return false;
  }
};

export interface Pinned {
  facts: TimestampFacts;
  /** The CA the token chains to, as PEM: kept beside it. */
  caPem: string;
  /** sha256 of that CA certificate's DER: logged in head_stamped. */
  caSha256: string;
}

/**
 * A reply over `head` checked at stamp time: against `trusted` (PEM, your CA for the TSA) when
 * given, else the self-signed root the reply carries; throws the TimestampError that names why not.
 */
export function pinStamp(reply: Uint8Array, head: string, trusted?: string): Pinned {
  const read = readToken(reply, { digest: Buffer.from(head, 'hex') });
  const anchors = trusted !== undefined ? pemCertificates(trusted, 'the tsa-ca file') : read.certificates.filter(selfSigned);
  if (anchors.length === 0) {
    throw new TimestampError('untrusted-tsa', `${read.facts.tsa} sent no root CA certificate with its token, and no CA is configured for it`, 'give its CA certificate: --tsa-ca FILE, or geo config set tsa-ca FILE');
  }
  const chain = chainToAnchor(read.signer, read.certificates, anchors);
  checkValidAt(chain, new Date(read.facts.genTime));
  const anchor = chain.at(-1)!;
  return { facts: read.facts, caPem: certPem(anchor.der), caSha256: sha256(anchor.der) };
}

/** What is kept beside a head_stamped entry: the reply as received and the CA pinned for it. */
export interface KeptToken {
  reply: Uint8Array;
  caPem: string;
}

export interface StampTrust {
  /** Your CA certificates for the TSAs (--tsa-ca FILE, or the tsa-ca setting), as PEM: only these are trusted. */
  tsaCa?: string;
  /** --require-timestamp: a log with no timestamp that holds fails. */
  required?: boolean;
  /** Where the tokens are kept, for messages: "the store", "the bundle". */
  where: string;
}

export interface TimestampCheck {
  /** The head_stamped entry's position. */
  entry: number;
  /** What it stamps: the head of entry `seq`. */
  seq: number;
  head: string;
  /** The TSA's URL, as logged. */
  tsa: string;
  /** The TSA's certificate subject and the token's genTime, when the token could be read. */
  authority?: string;
  gen_time?: string;
  /** The token is `geo sandbox`'s test authority's: sandbox time, not evidence. */
  sandbox?: true;
  /** tsa-ca: checked against your CA; pinned: against the CA pinned at stamp time (the log binds it). */
  trust: 'tsa-ca' | 'pinned';
  ok: boolean;
  /** The named failure (tsa-errors.ts), or why the token is not the one logged. */
  failure?: TimestampFailure | 'not-kept' | 'rewritten' | 'other-token' | 'other-ca';
  problem?: string;
}

export interface TimestampsSection {
  stamped: boolean;
  ok: boolean;
  checked: boolean;
  trust: 'tsa-ca' | 'pinned';
  stamps: TimestampCheck[];
  /** Requests still waiting for a TSA (the store only). */
  pending: number;
  required: boolean;
  failures: string[];
}

const short = (h: string) => `${h.slice(0, 16)}…`;

function check(entries: readonly CustodyEntry[], n: number, token: (n: number, s: StampedHead) => KeptToken | undefined, trust: StampTrust): TimestampCheck {
  const d = (entries[n - 1]!.data.stamp ?? {}) as Partial<StampedHead>;
  const base: TimestampCheck = { entry: n, seq: Number(d.seq), head: String(d.head ?? ''), tsa: String(d.tsa ?? ''), trust: trust.tsaCa !== undefined ? 'tsa-ca' : 'pinned', ok: false };
  const bad = (failure: TimestampCheck['failure'], problem: string, more: Partial<TimestampCheck> = {}): TimestampCheck => ({ ...base, ...more, failure, problem });
  if (!Number.isInteger(d.seq) || d.seq! < 1 || d.seq! >= n || typeof d.head !== 'string' || !/^[0-9a-f]{64}$/.test(d.head)) return bad('rewritten', 'it does not name an earlier entry and its head');
  const kept = token(n, d as StampedHead);
  if (!kept) return bad('not-kept', `its token (sha256 ${short(String(d.token_sha256))}) is not in ${trust.where}`);
  let facts: TimestampFacts;
  try {
    facts = verifyTimestamp(kept.reply, { digest: Buffer.from(d.head, 'hex') }, { trusted: trust.tsaCa ?? kept.caPem });
  } catch (err) {
    if (!(err instanceof TimestampError)) throw err;
    return bad(err.failure, err.message);
  }
  const more = { authority: facts.tsa, gen_time: facts.genTime, ...(facts.sandbox ? { sandbox: true as const } : {}) };
  if (sha256(kept.reply) !== d.token_sha256) return bad('other-token', `the token in ${trust.where} is not the one it logged (sha256 ${short(String(d.token_sha256))}): replaced`, more);
  if (trust.tsaCa === undefined) {
    const pinned = pemCertificates(kept.caPem, 'the CA kept beside the token')[0];
    if (!pinned || sha256(pinned.der) !== d.ca_sha256) return bad('other-ca', `the CA certificate kept beside its token is not the one it pinned (sha256 ${short(String(d.ca_sha256))}): replaced`, more);
  }
  if (entries[d.seq! - 1]!.hash !== d.head) return bad('rewritten', `it stamps head ${short(d.head)} as entry ${d.seq}'s, but entry ${d.seq}'s hash is ${short(entries[d.seq! - 1]!.hash)}: the log was rewritten after it was stamped`, more);
  return { ...base, ...more, ok: true };
}

/** Every head_stamped entry checked: its token (`token` finds it) over the head it claims, under the CA trusted. */
export function checkStamps(entries: readonly CustodyEntry[], token: (n: number, s: StampedHead) => KeptToken | undefined, trust: StampTrust, pending = 0): TimestampsSection {
  const stamps: TimestampCheck[] = [];
  entries.forEach((e, i) => {
    if (e.event === 'head_stamped') stamps.push(check(entries, i + 1, token, trust));
  });
  const failures = stamps.filter((s) => !s.ok).map((s) => `entry ${s.entry} (head_stamped), the token from ${s.tsa}: ${s.problem}`);
  if (trust.required && !stamps.some((s) => s.ok)) failures.push('no timestamp holds (--require-timestamp): geo cases stamp asks a TSA for one');
  return { stamped: stamps.length > 0, ok: failures.length === 0, checked: true, trust: trust.tsaCa !== undefined ? 'tsa-ca' : 'pinned', stamps, pending, required: Boolean(trust.required), failures };
}

export function uncheckedStamps(required = false): TimestampsSection {
  return { stamped: false, ok: !required, checked: false, trust: 'pinned', stamps: [], pending: 0, required, failures: required ? ['the timestamps could not be checked (--require-timestamp)'] : [] };
}

/** Your tsa-ca file's text, checked to hold at least one certificate; a TimestampError naming the file otherwise. */
export function readTsaCa(text: string, file: string): string {
  const certs = pemCertificates(text, file);
  if (certs.length === 0) throw new TimestampError('untrusted-tsa', `${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return text;
}
