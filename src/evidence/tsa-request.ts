/**
 * An RFC 3161 request (§2.4.1 TimeStampReq) over a SHA-256 digest: version 1, the message imprint,
 * a fresh random nonce (so a replayed or misdirected reply is caught, §2.4.2), certReq TRUE (the
 * TSA puts its certificate in the token, so the token can be checked away from the TSA), no policy
 * (the TSA's default). DER, as `openssl ts -query -digest <hex> -sha256 -cert` makes it.
 */
import { randomBytes } from 'node:crypto';
import { AlgorithmIdentifier, AsnConvert, MessageImprint, OctetString, TimeStampReq } from './asn1.js';
import { OID } from './tsa-asn1.js';

export interface TimestampQuery {
  /** The DER to POST (Content-Type application/timestamp-query, RFC 3161 §3.4). */
  der: Buffer;
  /** The nonce it carries, as an unsigned big-endian integer's bytes (hex for the store). */
  nonce: Buffer;
  /** The SHA-256 digest it asks to stamp. */
  digest: Buffer;
}

/**
 * 64 random bits, as openssl's own requests carry, minus two: the first byte is kept in 0x40-0x7f
 * so the INTEGER is positive and its DER minimal (a leading 0x00 or a high bit set would change its
 * encoding and make TSAs answer a different-looking nonce).
 */
function newNonce(): Buffer {
  const n = randomBytes(8);
  n[0] = 0x40 | (n[0]! & 0x3f);
  return n;
}

/** A request over `digest` (32 bytes of SHA-256: a custody head as bytes, or sha256 of a file). */
export function timestampQuery(digest: Uint8Array): TimestampQuery {
  if (digest.length !== 32) throw new Error(`a timestamp request takes a SHA-256 digest (32 bytes), not ${digest.length} bytes`);
  const nonce = newNonce();
  const req = new TimeStampReq({
    version: 1,
    messageImprint: new MessageImprint({
      // id-sha256 with absent parameters (RFC 5754 §2: "the parameters field MUST be absent").
      hashAlgorithm: new AlgorithmIdentifier({ algorithm: OID.sha256 }),
      hashedMessage: new OctetString(Buffer.from(digest)),
    }),
    nonce: new Uint8Array(nonce).buffer,
    certReq: true,
  });
  return { der: Buffer.from(AsnConvert.serialize(req)), nonce, digest: Buffer.from(digest) };
}
