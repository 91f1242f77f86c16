/**
 * The sandbox TSA's throwaway CA (tsa.ts): a self-signed CA certificate and a TSA certificate it
 * issues, on ECDSA P-256 keys made with node:crypto, for this run only, in memory. The TSA's is
 * what RFC 3161 §2.3 asks of one (a critical extendedKeyUsage whose only purpose is timeStamping),
 * so geo's verifier (evidence/tsa-chain.ts) and `openssl ts -verify` accept its tokens under this
 * CA and under no other. Both names say "sandbox": nobody mistakes it for an authority.
 */
import { type KeyObject, createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import {
  AlgorithmIdentifier, AsnConvert, AttributeTypeAndValue, AttributeValue, AuthorityKeyIdentifier, BasicConstraints, Certificate, ExtendedKeyUsage,
  Extension, Extensions, KeyIdentifier, KeyUsage, KeyUsageFlags, Name, OctetString, RelativeDistinguishedName, SubjectKeyIdentifier,
  SubjectPublicKeyInfo, TBSCertificate, Validity,
} from '../evidence/asn1.js';
import { certPem } from '../evidence/custody-stamps.js';
import { OID } from '../evidence/tsa-asn1.js';

/** ecdsa-with-SHA256 (RFC 5758 §3.2: no parameters). */
export const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const EXT = { basicConstraints: '2.5.29.19', keyUsage: '2.5.29.15', subjectKeyId: '2.5.29.14', authorityKeyId: '2.5.29.35' };
const CN = '2.5.4.3';
const O = '2.5.4.10';
const DAY = 86_400_000;

export interface Issued {
  /** The certificate's DER. */
  der: Buffer;
  cert: Certificate;
  key: KeyObject;
}

export interface SandboxCa {
  ca: Issued;
  tsa: Issued;
  /** The CA certificate as PEM: what `--tsa-ca` takes. */
  caPem: string;
}

const name = (cn: string) =>
  new Name([O, CN].map((type, i) => new RelativeDistinguishedName([new AttributeTypeAndValue({ type, value: new AttributeValue({ utf8String: i === 0 ? 'geo sandbox' : cn }) })])));

const extension = (extnID: string, critical: boolean, value: object) => new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });

/** A positive serial number of 16 random bytes (RFC 5280 §4.1.2.2: at most 20). */
function serial(): ArrayBuffer {
  const s = randomBytes(16);
  s[0] = 0x40 | (s[0]! & 0x3f);
  return new Uint8Array(s).buffer;
}

/** RFC 5280 §4.2.1.2 method 1: the SHA-1 of the public key's bits. */
const keyId = (spki: SubjectPublicKeyInfo) => new Uint8Array(createHash('sha1').update(Buffer.from(spki.subjectPublicKey)).digest()).buffer;

function issue(subject: Name, issuer: { name: Name; key: KeyObject; keyId?: ArrayBuffer }, keys: { publicKey: KeyObject; privateKey: KeyObject }, validity: Validity, extensions: (spki: SubjectPublicKeyInfo) => Extension[]): Issued {
  const spki = AsnConvert.parse(keys.publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo);
  const tbs = new TBSCertificate({
    version: 2, serialNumber: serial(), signature: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }), issuer: issuer.name, validity, subject, subjectPublicKeyInfo: spki,
    extensions: new Extensions(extensions(spki)),
  });
  const signature = sign('sha256', Buffer.from(AsnConvert.serialize(tbs)), issuer.key);
  const cert = new Certificate({ tbsCertificate: tbs, signatureAlgorithm: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }), signatureValue: new Uint8Array(signature).buffer });
  return { der: Buffer.from(AsnConvert.serialize(cert)), cert, key: keys.privateKey };
}

/** A new CA and TSA, valid from a day before `now` (clocks differ) for a year. */
export function makeSandboxCa(now: number): SandboxCa {
  const validity = new Validity({ notBefore: new Date(now - DAY), notAfter: new Date(now + 365 * DAY) });
  const caKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const caName = name('geo sandbox TSA CA (throwaway: tests only)');
  let caKeyId: ArrayBuffer | undefined;
  const ca = issue(caName, { name: caName, key: caKeys.privateKey }, caKeys, validity, (spki) => {
    caKeyId = keyId(spki);
    return [
      extension(EXT.basicConstraints, true, new BasicConstraints({ cA: true })),
      extension(EXT.keyUsage, true, new KeyUsage(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign)),
      extension(EXT.subjectKeyId, false, new SubjectKeyIdentifier(caKeyId)),
    ];
  });
  const tsaKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const tsa = issue(name('geo sandbox TSA (sandbox time only)'), { name: caName, key: caKeys.privateKey }, tsaKeys, validity, (spki) => [
    extension(EXT.keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature | KeyUsageFlags.nonRepudiation)),
    extension(OID.extKeyUsage, true, new ExtendedKeyUsage([OID.timeStamping])),
    extension(EXT.subjectKeyId, false, new SubjectKeyIdentifier(keyId(spki))),
    extension(EXT.authorityKeyId, false, new AuthorityKeyIdentifier({ keyIdentifier: new KeyIdentifier(caKeyId!) })),
  ]);
  return { ca, tsa, caPem: certPem(ca.der) };
}
