/**
 * Trusted timestamps (RFC 3161) for custody heads: what the rest of geo calls.
 *
 *   stamp = await requestTimestamp(url, Buffer.from(head, 'hex'))   // ask a TSA, check its reply
 *   store the reply (stamp.reply) and the certificates beside it (stamp.certificatesPem + the CA)
 *   verifyTimestamp(reply, { digest: Buffer.from(head, 'hex') }, { trusted: caPem })   // anywhere, later
 *
 * The pieces: tsa-request.ts (the query), tsa-send.ts (HTTP), tsa-asn1.ts (parsing),
 * tsa-signature.ts (CMS), tsa-chain.ts (certificates), tsa-verify.ts (the checks, named failures).
 */
import { sendTimestampQuery, type SendOptions } from './tsa-send.js';
import { timestampQuery } from './tsa-request.js';
import { type TimestampFacts, readToken, tokenCertificatesPem, verifyTimestamp } from './tsa-verify.js';

export { TIMESTAMP_FAILURES, TimestampError, type TimestampFailure } from './tsa-errors.js';
export { isUnreachable, sendTimestampQuery } from './tsa-send.js';
export { timestampQuery, type TimestampQuery } from './tsa-request.js';
export { configuredTsas, checkTsaUrl, parseTsaList } from './tsa-url.js';
export { readToken, tokenCertificatesPem, verifyTimestamp, type StampSubject, type TimestampFacts, type VerifyOptions } from './tsa-verify.js';

export interface Stamp {
  /** The TSA's reply as received (TimeStampResp DER): keep it whole; `openssl ts -verify -in` reads it. */
  reply: Buffer;
  /** What the token says, its signature, imprint and nonce already checked. */
  facts: TimestampFacts;
  /** The certificates the token carries, as PEM (the TSA's, often its CA's): keep them beside it. */
  certificatesPem: string;
}

export interface RequestOptions extends SendOptions {
  /**
   * CA certificates (PEM) to check the TSA against now. Without them the reply is checked for
   * everything but trust (signature, imprint, nonce, a TSA certificate): trust is the verifier's call.
   */
  trusted?: string;
}

/**
 * Asks the TSA at `url` to stamp `digest` (a SHA-256: a custody head as bytes) and checks the reply
 * against the request. Throws NetworkError / TimeoutError when the TSA is unreachable (isUnreachable:
 * keep the request pending), TimestampError when it refused or answered something that does not hold.
 */
export async function requestTimestamp(url: string, digest: Uint8Array, opts: RequestOptions = {}): Promise<Stamp> {
  const query = timestampQuery(digest);
  const reply = await sendTimestampQuery(url, query.der, opts);
  const subject = { digest: query.digest };
  const facts = opts.trusted !== undefined
    ? verifyTimestamp(reply, subject, { trusted: opts.trusted, nonce: query.nonce })
    : readToken(reply, subject, { nonce: query.nonce }).facts;
  return { reply, facts, certificatesPem: tokenCertificatesPem(reply) };
}
