/**
 * Verifying an RFC 3161 time-stamp token for what it claims to stamp:
 *   (a) its TSTInfo's message imprint is the hash of those bytes (a token lifted from other bytes
 *       is "token for another head"),
 *   (b) its nonce is the request's, when the request is at hand ("nonce mismatch"),
 *   (c) its CMS signature holds (tsa-signature.ts: "bad signature"),
 *   (d) its signer is a TSA (critical extendedKeyUsage timeStamping) that chains to a CA the
 *       verifier trusts ("signed by an untrusted TSA"), every certificate valid at genTime
 *       ("TSA certificate expired at genTime"); tsa-chain.ts.
 * What it proves then: the TSA saw that hash at genTime, so the head existed by then. Not who made
 * the head, and nothing about the location (README "Security").
 */
import { createHash } from 'node:crypto';
import { SignedData, TSTInfo } from './asn1.js';
import { HASHES, OID, certificatesDer, parseDer, tokenOf, u8 } from './tsa-asn1.js';
import { type Cert, chainToAnchor, checkTsaCertificate, checkValidAt, pemCertificates, readCert, subjectOf } from './tsa-chain.js';
import { isSandboxTime } from './tsa-sandbox.js';
import { checkSignature } from './tsa-signature.js';
import { TimestampError } from './tsa-errors.js';

/** What a token is said to stamp: a SHA-256 digest (a custody head as bytes), or the bytes themselves. */
export type StampSubject = { digest: Uint8Array } | { data: Uint8Array };

/** What a token that verifies says, as plain data. */
export interface TimestampFacts {
  /** When the TSA says it saw the hash (TSTInfo genTime), ISO-8601 UTC. */
  genTime: string;
  /** The TSA's certificate subject, on one line. */
  tsa: string;
  /** The token's serial number (TSTInfo serialNumber), lowercase hex. */
  serial: string;
  /** The TSA policy it was issued under (an OID). */
  policy: string;
  /** The message imprint's hash algorithm, as node:crypto names it ("sha256"). */
  hashAlg: string;
  /** The message imprint, lowercase hex: for a custody head, the head itself. */
  imprint: string;
  /** The nonce the token carries, lowercase hex (absent when the request had none). */
  nonce?: string;
  /** Issued by `geo sandbox`'s test authority (tsa-sandbox.ts): sandbox time, shown as such, never evidence. */
  sandbox?: true;
}

/** A token read and checked for (a)-(c) and the TSA certificate's purpose, not yet for trust. */
export interface ReadToken {
  facts: TimestampFacts;
  signer: Cert;
  /** The certificates the token carries (the signer's, and often its CA's). */
  certificates: Cert[];
}

export interface ReadOptions {
  /** The nonce of the request this token answers (tsa-request.ts), when it is at hand. */
  nonce?: Uint8Array;
  /** Certificates to find the signer among when the token does not carry it. */
  extraCertificates?: readonly Cert[];
}

/** An unsigned big-endian integer's bytes without leading zeros, as hex (the same number, however encoded). */
const intHex = (b: Uint8Array) => Buffer.from(b).toString('hex').replace(/^(00)+(?=.)/, '');

/** (a): the imprint is the subject's hash, with the token's hash algorithm. */
function checkImprint(tst: TSTInfo, subject: StampSubject): { hashAlg: string; imprint: Buffer } {
  const hashAlg = HASHES[tst.messageImprint.hashAlgorithm.algorithm];
  const imprint = u8(tst.messageImprint.hashedMessage.buffer);
  if (!hashAlg || hashAlg === 'sha1') throw new TimestampError('unsupported', `message imprint hashed with ${tst.messageImprint.hashAlgorithm.algorithm}`);
  let expected: Buffer;
  if ('digest' in subject) {
    if (tst.messageImprint.hashAlgorithm.algorithm !== OID.sha256) throw new TimestampError('another-head', `it stamps a ${hashAlg} hash, not the SHA-256 head`);
    expected = Buffer.from(subject.digest);
  } else {
    expected = createHash(hashAlg).update(subject.data).digest();
  }
  if (!imprint.equals(expected)) throw new TimestampError('another-head', `it stamps ${hashAlg} ${imprint.toString('hex')}, not ${expected.toString('hex')}`);
  return { hashAlg, imprint };
}

/** Reads `bytes` (a TSA reply or a bare token) and checks (a), (b), (c) and the signer's purpose. */
export function readToken(bytes: Uint8Array, subject: StampSubject, opts: ReadOptions = {}): ReadToken {
  const token = tokenOf(bytes);
  if (token.contentType !== OID.signedData) throw new TimestampError('unreadable', `the token's content is ${token.contentType}, not CMS SignedData`);
  const sdDer = new Uint8Array(token.content);
  const sd = parseDer(sdDer, SignedData, 'the token\'s SignedData');
  if (sd.encapContentInfo.eContentType !== OID.tstInfo) throw new TimestampError('unreadable', `the token encapsulates ${sd.encapContentInfo.eContentType}, not a TSTInfo`);
  const content = sd.encapContentInfo.eContent?.single;
  if (!content) throw new TimestampError('unreadable', 'the token carries no TSTInfo');
  const tstDer = u8(content.buffer);
  const tst = parseDer(tstDer, TSTInfo, 'the token\'s TSTInfo');
  if (tst.version !== 1) throw new TimestampError('unsupported', `TSTInfo version ${tst.version}`);
  const certificates = certificatesDer(sdDer).map((der, i) => readCert(der, `certificate ${i + 1} of the token`));
  const signer = checkSignature(sd, sdDer, tstDer, [...certificates, ...(opts.extraCertificates ?? [])]);
  const { hashAlg, imprint } = checkImprint(tst, subject);
  const nonce = tst.nonce ? intHex(u8(tst.nonce)) : undefined;
  if (opts.nonce && nonce !== intHex(opts.nonce)) {
    throw new TimestampError('nonce-mismatch', `the reply carries nonce ${nonce ?? '(none)'}, the request sent ${intHex(opts.nonce)} (a replayed or misdirected reply)`);
  }
  checkTsaCertificate(signer);
  const facts: TimestampFacts = {
    genTime: tst.genTime.toISOString(),
    tsa: subjectOf(signer),
    serial: intHex(u8(tst.serialNumber)),
    policy: tst.policy,
    hashAlg,
    imprint: imprint.toString('hex'),
    ...(nonce !== undefined ? { nonce } : {}),
    ...(isSandboxTime(tst.policy) ? { sandbox: true as const } : {}),
  };
  return { facts, signer, certificates };
}

export interface VerifyOptions extends ReadOptions {
  /** The CA certificates to trust, as PEM (one or several): the TSA's chain must end in one. */
  trusted: string;
}

/**
 * Verifies `bytes` (the TSA's reply as stored, or a bare token) as a timestamp of `subject` by a
 * TSA that chains to `trusted`; returns what it says, or throws the TimestampError that names why not.
 */
export function verifyTimestamp(bytes: Uint8Array, subject: StampSubject, opts: VerifyOptions): TimestampFacts {
  const anchors = pemCertificates(opts.trusted);
  if (anchors.length === 0) throw new TimestampError('untrusted-tsa', 'no trusted CA certificate was given (a PEM file with at least one CERTIFICATE)');
  const read = readToken(bytes, subject, { ...opts, extraCertificates: [...(opts.extraCertificates ?? []), ...anchors] });
  const chain = chainToAnchor(read.signer, read.certificates, anchors);
  checkValidAt(chain, new Date(read.facts.genTime));
  return read.facts;
}

/**
 * Whether `bytes` (a reply as kept, or a bare token) names the sandbox TSA's policy: for a view
 * that lists a case's timestamps without checking them (geo cases show). Unreadable: false.
 */
export function isSandboxToken(bytes: Uint8Array): boolean {
  try {
    const sd = parseDer(new Uint8Array(tokenOf(bytes).content), SignedData, 'the token\'s SignedData');
    const content = sd.encapContentInfo.eContent?.single;
    return content !== undefined && isSandboxTime(parseDer(u8(content.buffer), TSTInfo, 'the token\'s TSTInfo').policy);
  } catch {
    return false;
  }
}

/** The certificates a token carries, as PEM: what to keep beside it so it can be checked elsewhere. */
export function tokenCertificatesPem(bytes: Uint8Array): string {
  const sdDer = new Uint8Array(tokenOf(bytes).content);
  return certificatesDer(sdDer).map((der) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}(?=.)/g, '$&\n')}\n-----END CERTIFICATE-----\n`).join('');
}
