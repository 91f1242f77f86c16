/**
 * Whether a TSA's certificate is one to believe at the token's time: it is a TSA's (RFC 3161 §2.3),
 * it chains to a CA certificate the verifier trusts (kept beside the token, or named with
 * --tsa-ca), and every certificate of that chain was valid at genTime (RFC 3161 §4.3: a token
 * made while its certificate was valid keeps its worth after it expires; one made outside it has none).
 *
 * node:crypto's X509Certificate checks names and signatures (checkIssued, verify); the dates and
 * the extension's criticality come from @peculiar/asn1-x509, exactly as encoded (node 20 gives
 * validity only as text and criticality not at all).
 */
import { X509Certificate } from 'node:crypto';
import { Certificate, ExtendedKeyUsage } from './asn1.js';
import { OID, parseDer } from './tsa-asn1.js';
import { TimestampError } from './tsa-errors.js';

export interface Cert {
  /** The certificate's DER, exactly as it was received or read from PEM. */
  der: Buffer;
  x509: X509Certificate;
  asn: Certificate;
}

/** The subject on one line ("O=geo tests, CN=…"), as people read it. */
export const subjectOf = (c: Cert) => c.x509.subject.split('\n').join(', ');

export function readCert(der: Buffer, what: string): Cert {
  const asn = parseDer(der, Certificate, what);
  try {
    return { der, x509: new X509Certificate(der), asn };
  } catch (err) {
    throw new TimestampError('unreadable', `${what} is not a certificate node:crypto can read (${(err as Error).message})`);
  }
}

/** Every certificate of a PEM text (several may follow each other: a CA file, a chain). */
export function pemCertificates(pem: string, what = 'the trusted CA file'): Cert[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b, i) => readCert(Buffer.from(b.replace(/-----[A-Z ]+-----|\s+/g, ''), 'base64'), `certificate ${i + 1} of ${what}`));
}

/** RFC 3161 §2.3: exactly one extendedKeyUsage, critical, whose only purpose is id-kp-timeStamping. */
export function checkTsaCertificate(c: Cert): void {
  const ekus = (c.asn.tbsCertificate.extensions ?? []).filter((e) => e.extnID === OID.extKeyUsage);
  const who = subjectOf(c);
  if (ekus.length !== 1) throw new TimestampError('not-a-tsa', `${who} has ${ekus.length === 0 ? 'no' : 'more than one'} extendedKeyUsage extension (RFC 3161 §2.3)`);
  const eku = ekus[0]!;
  const purposes = parseDer(new Uint8Array(eku.extnValue.buffer), ExtendedKeyUsage, `${who}'s extendedKeyUsage`);
  if (purposes.length !== 1 || purposes[0] !== OID.timeStamping) throw new TimestampError('not-a-tsa', `${who} is not for time-stamping alone (extendedKeyUsage ${purposes.join(', ')}; RFC 3161 §2.3)`);
  if (!eku.critical) throw new TimestampError('not-a-tsa', `${who}'s extendedKeyUsage timeStamping is not critical (RFC 3161 §2.3)`);
}

const issued = (child: Cert, parent: Cert) => {
  try {
    return parent.x509.ca && child.x509.checkIssued(parent.x509) && child.x509.verify(parent.x509.publicKey);
  } catch {
    return false;
  }
};

/**
 * The chain from `signer` up to one of `anchors`, through `others` (certificates the token carries),
 * or TimestampError('untrusted-tsa'). A signer that is itself an anchor is its own chain.
 */
export function chainToAnchor(signer: Cert, others: readonly Cert[], anchors: readonly Cert[]): Cert[] {
  const isAnchor = (c: Cert) => anchors.some((a) => a.der.equals(c.der));
  const walk = (chain: Cert[]): Cert[] | undefined => {
    const top = chain[chain.length - 1]!;
    if (isAnchor(top)) return chain;
    if (chain.length > 8) return undefined;
    // Anchors first: a chain that reaches trust in fewer steps is the one to report.
    for (const parent of [...anchors, ...others]) {
      if (chain.some((c) => c.der.equals(parent.der)) || !issued(top, parent)) continue;
      const found = walk([...chain, parent]);
      if (found) return found;
    }
    return undefined;
  };
  const chain = walk([signer]);
  if (!chain) {
    const trusted = anchors.map(subjectOf).join('; ') || 'none given';
    throw new TimestampError('untrusted-tsa', `${subjectOf(signer)} (issued by ${signer.x509.issuer.split('\n').join(', ')}) does not chain to a trusted CA (trusted: ${trusted})`,
      'verify with the CA certificate of that TSA (--tsa-ca FILE) if you trust it');
  }
  return chain;
}

/** Every certificate of the chain valid at `at` (the token's genTime), else 'expired' / 'not-yet-valid'. */
export function checkValidAt(chain: readonly Cert[], at: Date): void {
  for (const c of chain) {
    const from = c.asn.tbsCertificate.validity.notBefore.getTime();
    const to = c.asn.tbsCertificate.validity.notAfter.getTime();
    if (at.getTime() > to.getTime()) throw new TimestampError('expired', `${subjectOf(c)} was valid until ${to.toISOString()}; the token says ${at.toISOString()}`);
    if (at.getTime() < from.getTime()) throw new TimestampError('not-yet-valid', `${subjectOf(c)} is valid from ${from.toISOString()}; the token says ${at.toISOString()}`);
  }
}
