/**
 * Why a trusted timestamp (RFC 3161) was not had or does not hold, each with a name a reader can
 * act on ("Must show": a token for another head, a token signed by an untrusted TSA,
 * an expired TSA certificate chain, each named). The message starts with that name; `failure` is
 * the same as data, for `geo cases verify --json` and the tests.
 */
import { HintedError } from '../errors.js';

export const TIMESTAMP_FAILURES = {
  /** The token's message imprint is not the hash of the bytes (the head) it is said to stamp. */
  'another-head': 'token for another head',
  /** Its signer does not chain to a CA certificate the verifier trusts. */
  'untrusted-tsa': 'signed by an untrusted TSA',
  /** A certificate of the chain was not valid at the token's genTime. */
  expired: 'TSA certificate expired at genTime',
  /** A certificate of the chain was not yet valid at the token's genTime. */
  'not-yet-valid': 'TSA certificate not yet valid at genTime',
  /** The CMS signature, its signed attributes or the signing-certificate binding do not hold. */
  'bad-signature': 'bad signature',
  /** The reply answers another request than the one geo sent. */
  'nonce-mismatch': 'nonce mismatch',
  /** The signer's certificate is not a TSA's (RFC 3161 §2.3: extendedKeyUsage timeStamping, critical). */
  'not-a-tsa': 'not a TSA certificate',
  /** An algorithm geo cannot check (so it vouches for nothing). */
  unsupported: 'unsupported timestamp',
  /** The bytes are no TimeStampResp / TimeStampToken (truncated, garbage, an HTML page). */
  unreadable: 'unreadable timestamp reply',
  /** The TSA answered, but granted no token (PKIStatus rejection, waiting, ...), or not with a reply. */
  refused: 'the TSA refused the request',
} as const;

export type TimestampFailure = keyof typeof TIMESTAMP_FAILURES;

export class TimestampError extends HintedError {
  override readonly name = 'TimestampError';
  /** `detail` follows the failure's name: "token for another head: it stamps …". */
  constructor(readonly failure: TimestampFailure, detail?: string, hint?: string) {
    super(detail ? `${TIMESTAMP_FAILURES[failure]}: ${detail}` : TIMESTAMP_FAILURES[failure], hint);
  }
}
