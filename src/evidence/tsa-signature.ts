/**
 * The CMS signature of a time-stamp token (RFC 5652 §5.4 and §5.6, RFC 3161 §2.4.2), checked with
 * node:crypto: the one SignerInfo's signed attributes say the content is a TSTInfo (content-type),
 * hash to exactly the TSTInfo received (message-digest), name the signer's certificate by its hash
 * (signing-certificate, RFC 2634 §5.4 / v2, RFC 5035), and carry a signature by that certificate's
 * key over their DER. Any of these failing is a 'bad-signature': the token was altered or forged.
 */
import { createHash, constants, verify as cryptoVerify } from 'node:crypto';
import { AlgorithmIdentifier, asn1js, AsnConvert, OctetString, RsaSaPssParams, type SignedData, type SignerInfo } from './asn1.js';
import { HASHES, OID, SigningCertificate, SigningCertificateV2, parseDer, signedAttrsDer, u8 } from './tsa-asn1.js';
import { type Cert, subjectOf } from './tsa-chain.js';
import { TimestampError } from './tsa-errors.js';

const bad = (detail: string) => new TimestampError('bad-signature', detail);

/** A hash node:crypto knows, by OID; SHA-1 only where a caller allows it (ESSCertID v1 names it). */
function hashName(oid: string, allowSha1 = false): string {
  const name = HASHES[oid];
  if (!name || (name === 'sha1' && !allowSha1)) throw new TimestampError('unsupported', `hash algorithm ${oid} (geo checks SHA-224/256/384/512)`);
  return name;
}

/** The one value of the signed attribute `oid`; RFC 5652 §11 allows each exactly once, single-valued. */
function attribute(info: SignerInfo, oid: string): ArrayBuffer | undefined {
  const found = (info.signedAttrs ?? []).filter((a) => a.attrType === oid);
  if (found.length > 1 || (found[0] && found[0].attrValues.length !== 1)) throw bad(`the signed attribute ${oid} appears more than once`);
  return found[0]?.attrValues[0];
}

/** The certificate the SignerInfo names (issuer and serial, or subject key identifier). */
function signerCert(info: SignerInfo, certs: readonly Cert[]): Cert | undefined {
  const byIssuer = info.sid.issuerAndSerialNumber;
  if (byIssuer) {
    const issuer = Buffer.from(AsnConvert.serialize(byIssuer.issuer));
    const serial = u8(byIssuer.serialNumber);
    return certs.find((c) => u8(c.asn.tbsCertificate.serialNumber).equals(serial) && Buffer.from(AsnConvert.serialize(c.asn.tbsCertificate.issuer)).equals(issuer));
  }
  const ski = info.sid.subjectKeyIdentifier ? u8(info.sid.subjectKeyIdentifier.buffer) : undefined;
  return ski ? certs.find((c) => c.asn.tbsCertificate.extensions?.some((e) => e.extnID === '2.5.29.14' && u8(parseDer(new Uint8Array(e.extnValue.buffer), OctetString, 'a subject key identifier').buffer).equals(ski))) : undefined;
}

/** The signing-certificate attribute (v2 preferred) names `cert` by its hash (RFC 5816 §2.2.1). */
function checkSigningCertificate(info: SignerInfo, cert: Cert): void {
  const v2 = attribute(info, OID.signingCertificateV2);
  const v1 = attribute(info, OID.signingCertificate);
  let hash: string;
  let named: Buffer;
  if (v2) {
    const first = parseDer(new Uint8Array(v2), SigningCertificateV2, 'the signing-certificate-v2 attribute').certs[0];
    if (!first) throw bad('the signing-certificate-v2 attribute names no certificate');
    hash = hashName(first.hashAlgorithm.algorithm);
    named = u8(first.certHash.buffer);
  } else if (v1) {
    const first = parseDer(new Uint8Array(v1), SigningCertificate, 'the signing-certificate attribute').certs[0];
    if (!first) throw bad('the signing-certificate attribute names no certificate');
    hash = 'sha1';
    named = u8(first.certHash.buffer);
  } else {
    throw bad('no signing-certificate attribute binds the TSA certificate (RFC 3161 §2.4.2)');
  }
  if (!createHash(hash).update(cert.der).digest().equals(named)) throw bad(`the signing-certificate attribute names another certificate than ${subjectOf(cert)}`);
}

/** node:crypto's verify() arguments for the SignerInfo's algorithm (RFC 5754, RFC 4056, RFC 8419). */
function verifyArgs(info: SignerInfo, cert: Cert): { hash: string | null; padding?: number; saltLength?: number } {
  const alg = info.signatureAlgorithm.algorithm;
  const digest = () => hashName(info.digestAlgorithm.algorithm);
  const RSA: Record<string, string> = { '1.2.840.113549.1.1.11': 'sha256', '1.2.840.113549.1.1.12': 'sha384', '1.2.840.113549.1.1.13': 'sha512', '1.2.840.113549.1.1.14': 'sha224' };
  const ECDSA: Record<string, string> = { '1.2.840.10045.4.3.1': 'sha224', '1.2.840.10045.4.3.2': 'sha256', '1.2.840.10045.4.3.3': 'sha384', '1.2.840.10045.4.3.4': 'sha512' };
  if (alg === '1.2.840.113549.1.1.1' || alg === '1.2.840.10045.2.1') return { hash: digest() };
  if (RSA[alg]) return { hash: RSA[alg]! };
  if (ECDSA[alg]) return { hash: ECDSA[alg]! };
  if (alg === '1.3.101.112') return { hash: null };
  if (alg === '1.2.840.113549.1.1.10') {
    const p = info.signatureAlgorithm.parameters ? parseDer(new Uint8Array(info.signatureAlgorithm.parameters), RsaSaPssParams, 'the RSASSA-PSS parameters') : new RsaSaPssParams();
    const hash = hashName(p.hashAlgorithm.algorithm);
    // node:crypto's PSS uses MGF1 with the signature's own hash: any other mask is not checked here.
    const mgfHash = p.maskGenAlgorithm.parameters ? parseDer(new Uint8Array(p.maskGenAlgorithm.parameters), AlgorithmIdentifier, 'the RSASSA-PSS mask parameters').algorithm : OID.sha1;
    if (p.maskGenAlgorithm.algorithm !== OID.mgf1 || HASHES[mgfHash] !== hash || p.trailerField !== 1) {
      throw new TimestampError('unsupported', `RSASSA-PSS with a mask other than MGF1-${hash} of ${subjectOf(cert)}`);
    }
    return { hash, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: p.saltLength };
  }
  throw new TimestampError('unsupported', `signature algorithm ${alg} of ${subjectOf(cert)}`);
}

/** The OID inside a content-type attribute value. */
function oidOf(value: ArrayBuffer): string | undefined {
  const parsed = asn1js.fromBER(value).result;
  return parsed instanceof asn1js.ObjectIdentifier ? parsed.valueBlock.toString() : undefined;
}

/**
 * Checks the token's one signature and returns the certificate that made it (to be chained to a
 * trusted CA by the caller). `signedDataDer` is the SignedData's bytes as received, `tstInfoDer`
 * the encapsulated TSTInfo's, `certs` the certificates to look the signer up in.
 */
export function checkSignature(sd: SignedData, signedDataDer: Uint8Array, tstInfoDer: Buffer, certs: readonly Cert[]): Cert {
  // RFC 3161 §2.4.2: "MUST NOT contain any signatures other than the signature of the TSA".
  if (sd.signerInfos.length !== 1) throw bad(`the token carries ${sd.signerInfos.length} signatures; a time-stamp token has exactly one`);
  const info = sd.signerInfos[0]!;
  const cert = signerCert(info, certs);
  if (!cert) throw new TimestampError('untrusted-tsa', 'the certificate that signed the token is neither in it nor in the CA file', 'timestamps are requested with certReq, so the token should carry it');
  const attrs = signedAttrsDer(signedDataDer, 0);
  if (!attrs || !info.signedAttrs) throw bad('the signature covers no signed attributes (RFC 3161 §2.4.2 requires them)');
  const type = attribute(info, OID.contentType);
  if (!type || oidOf(type) !== OID.tstInfo) throw bad('the signed content-type is not id-ct-TSTInfo');
  const md = attribute(info, OID.messageDigest);
  const claimed = md ? u8(parseDer(new Uint8Array(md), OctetString, 'the message-digest attribute').buffer) : undefined;
  if (!claimed || !createHash(hashName(info.digestAlgorithm.algorithm)).update(tstInfoDer).digest().equals(claimed)) {
    throw bad('the signed message-digest does not match the TSTInfo (the token was altered after it was signed)');
  }
  checkSigningCertificate(info, cert);
  const { hash, ...rsa } = verifyArgs(info, cert);
  let ok = false;
  try {
    ok = cryptoVerify(hash, attrs, { key: cert.x509.publicKey, ...rsa }, u8(info.signature.buffer));
  } catch {
    ok = false;
  }
  if (!ok) throw bad(`the signature does not verify with the key of ${subjectOf(cert)}`);
  return cert;
}
