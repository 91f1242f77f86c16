/**
 * The ASN.1 of RFC 3161 time-stamping, read with the @peculiar/asn1-* schemas ("parse
 * ASN.1 with a well-kept library, not by hand"), and the few structures they do not define.
 *
 * Why @peculiar/asn1-* and node:crypto, not pkijs: pkijs 4 needs Node 20.19 and geo supports
 * 20.18; pkijs would also verify signatures through WebCrypto, where node:crypto verifies RSA
 * (PKCS#1 v1.5 and PSS), ECDSA and Ed25519 directly from the certificate. These schemas only parse
 * and serialize; every check is ours (tsa-signature.ts, tsa-chain.ts) and cites its RFC.
 */
import { AlgorithmIdentifier, asn1js, AsnConvert, AsnProp, AsnPropTypes, AsnType, AsnTypeTypes, ContentInfo, OctetString, TimeStampResp } from './asn1.js';
import { TimestampError } from './tsa-errors.js';

export const OID = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  /** RFC 2634 §5.4: ESSCertID, a SHA-1 hash of the signer's certificate. */
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  /** RFC 5035 §3: ESSCertIDv2, any hash (SHA-256 by default). */
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  mgf1: '1.2.840.113549.1.1.8',
} as const;

/** Hash algorithms by OID, as node:crypto names them (RFC 5754 §2; SHA-1 only for ESSCertID v1). */
export const HASHES: Record<string, string> = {
  [OID.sha1]: 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  [OID.sha256]: 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/*
 * RFC 2634 §5.4.1 and RFC 5035 §4, the signing-certificate attributes (no @peculiar package has
 * them). Declared with asn1-schema's own decorators, called as functions (geo's TypeScript has
 * no legacy decorators). issuerSerial is kept as raw DER: the hash binds the whole certificate.
 *
 *   ESSCertIDv2 ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier DEFAULT {algorithm id-sha256},
 *                              certHash OCTET STRING, issuerSerial IssuerSerial OPTIONAL }
 *   ESSCertID   ::= SEQUENCE { certHash OCTET STRING, issuerSerial IssuerSerial OPTIONAL }
 *   SigningCertificate(V2) ::= SEQUENCE { certs SEQUENCE OF ESSCertID(v2), policies ... OPTIONAL }
 */
export class EssCertIdV2 {
  hashAlgorithm = new AlgorithmIdentifier({ algorithm: OID.sha256 });
  certHash = new OctetString();
  issuerSerial?: ArrayBuffer;
}
// `optional` too: with a default alone asn1-schema matches the field as ANY, which swallows the
// certHash when the default is left out (DER leaves it out: X.690 §11.5). Absent, the field keeps sha256.
AsnProp({ type: AlgorithmIdentifier, optional: true, defaultValue: new AlgorithmIdentifier({ algorithm: OID.sha256 }) })(EssCertIdV2.prototype, 'hashAlgorithm');
AsnProp({ type: OctetString })(EssCertIdV2.prototype, 'certHash');
AsnProp({ type: AsnPropTypes.Any, optional: true })(EssCertIdV2.prototype, 'issuerSerial');
AsnType({ type: AsnTypeTypes.Sequence })(EssCertIdV2);

export class EssCertId {
  certHash = new OctetString();
  issuerSerial?: ArrayBuffer;
}
AsnProp({ type: OctetString })(EssCertId.prototype, 'certHash');
AsnProp({ type: AsnPropTypes.Any, optional: true })(EssCertId.prototype, 'issuerSerial');
AsnType({ type: AsnTypeTypes.Sequence })(EssCertId);

export class SigningCertificateV2 {
  certs: EssCertIdV2[] = [];
  policies?: ArrayBuffer;
}
AsnProp({ type: EssCertIdV2, repeated: 'sequence' })(SigningCertificateV2.prototype, 'certs');
AsnProp({ type: AsnPropTypes.Any, optional: true })(SigningCertificateV2.prototype, 'policies');
AsnType({ type: AsnTypeTypes.Sequence })(SigningCertificateV2);

export class SigningCertificate {
  certs: EssCertId[] = [];
  policies?: ArrayBuffer;
}
AsnProp({ type: EssCertId, repeated: 'sequence' })(SigningCertificate.prototype, 'certs');
AsnProp({ type: AsnPropTypes.Any, optional: true })(SigningCertificate.prototype, 'policies');
AsnType({ type: AsnTypeTypes.Sequence })(SigningCertificate);

/** The library's words for a failed parse, without a stack: "End of input reached …". */
const why = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);

/**
 * One DER value of type T, or TimestampError('unreadable') naming `what`. Bytes after the value
 * are refused too: the schemas would ignore them, and a reply is one value (RFC 3161 §2.4.2).
 */
export function parseDer<T>(bytes: Uint8Array, type: new () => T, what: string): T {
  if (bytes.length === 0) throw new TimestampError('unreadable', `${what} is empty`);
  const outer = asn1js.fromBER(bytes);
  if (outer.offset === -1) throw new TimestampError('unreadable', `${what} is not DER (${outer.result.error || 'cut short or garbled'})`);
  if (outer.offset !== bytes.length) throw new TimestampError('unreadable', `${what} has ${bytes.length - outer.offset} bytes after its end`);
  try {
    return AsnConvert.parse(bytes, type);
  } catch (err) {
    throw new TimestampError('unreadable', `${what} is not well formed (${why(err)})`);
  }
}

export const u8 = (b: ArrayBuffer | ArrayBufferView): Buffer =>
  ArrayBuffer.isView(b) ? Buffer.from(b.buffer, b.byteOffset, b.byteLength) : Buffer.from(b);

/**
 * The token inside `bytes`, which may be the TSA's whole reply (TimeStampResp: status, then the
 * token, as `openssl ts -reply` writes it and `openssl ts -verify -in` reads it) or the bare token
 * (ContentInfo, as `-token_out` writes it). A reply that grants none is a TimestampError('refused').
 */
export function tokenOf(bytes: Uint8Array): ContentInfo {
  const outer = asn1js.fromBER(bytes);
  const first = outer.offset === -1 ? undefined : (outer.result.valueBlock as { value?: asn1js.BaseBlock[] }).value?.[0];
  // A ContentInfo begins with its content type (an OID); a TimeStampResp with its status (a SEQUENCE).
  if (first instanceof asn1js.ObjectIdentifier) return parseDer(bytes, ContentInfo, 'the timestamp token');
  const resp = parseDer(bytes, TimeStampResp, 'the timestamp reply');
  const status = resp.status.status;
  if (status !== 0 && status !== 1) {
    const words = (resp.status.statusString ?? []).join('; ').slice(0, 300);
    const fail = resp.status.failInfo ? ` (${resp.status.failInfo.toJSON().join(', ')})` : '';
    throw new TimestampError('refused', `status ${STATUS[status] ?? status}${fail}${words ? `: ${words}` : ''}`);
  }
  if (!resp.timeStampToken) throw new TimestampError('unreadable', 'the reply grants a token but carries none');
  return resp.timeStampToken;
}

/** PKIStatus names (RFC 3161 §2.4.2). */
const STATUS: Record<number, string> = { 2: 'rejection', 3: 'waiting', 4: 'revocationWarning', 5: 'revocationNotification' };

/** The children of SignedData's field tagged [tag] IMPLICIT, or of its last field (tag undefined). */
function signedDataField(signedDataDer: Uint8Array, tag: number | undefined): asn1js.BaseBlock | undefined {
  const sd = asn1js.fromBER(signedDataDer).result as asn1js.Sequence;
  const fields = sd.valueBlock.value ?? [];
  return tag === undefined ? fields[fields.length - 1] : fields.find((b) => b.idBlock.tagClass === 3 && b.idBlock.tagNumber === tag);
}

/**
 * The DER of SignerInfo number `index`'s signed attributes, as the signer signed them: the bytes
 * as received with the [0] IMPLICIT tag made a SET OF again (RFC 5652 §5.4). asn1-schema keeps no
 * raw bytes for a repeated field (its signedAttrsRaw stays undefined), and re-encoding parsed
 * attributes could differ from what was signed, so they are taken from asn1js's view of the bytes.
 */
export function signedAttrsDer(signedDataDer: Uint8Array, index: number): Buffer | undefined {
  const infos = signedDataField(signedDataDer, undefined) as asn1js.Set | undefined;
  const info = infos?.valueBlock.value[index] as asn1js.Sequence | undefined;
  const attrs = info?.valueBlock.value.find((b) => b.idBlock.tagClass === 3 && b.idBlock.tagNumber === 0);
  if (!attrs) return undefined;
  const der = Buffer.from(attrs.valueBeforeDecodeView);
  der[0] = 0x31;
  return der;
}

/**
 * The certificates the token carries (SignedData's [0] IMPLICIT CertificateSet), each as the exact
 * bytes received: hashed for the signing-certificate attribute and read by node:crypto, so no
 * re-encoding may stand between them and what the TSA signed. Other choices (attribute certs) are skipped.
 */
export function certificatesDer(signedDataDer: Uint8Array): Buffer[] {
  const set = signedDataField(signedDataDer, 0) as asn1js.Constructed | undefined;
  return (set?.valueBlock.value ?? []).filter((b) => b instanceof asn1js.Sequence).map((b) => Buffer.from(b.valueBeforeDecodeView));
}
