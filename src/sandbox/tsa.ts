/**
 * The sandbox's test time-stamp authority (DESIGN.md "Sandbox surface"): POST /__sandbox/tsa takes
 * an RFC 3161 TimeStampReq (application/timestamp-query) and answers a TimeStampResp
 * (application/timestamp-reply) whose token is signed by the TSA of a throwaway CA (tsa-ca.ts);
 * GET /__sandbox/tsa/ca.pem gives that CA, for `--tsa-ca`. So stamping can be tried with no network.
 *
 * Every token says it is sandbox time: its TSTInfo names SANDBOX_TSA_POLICY (a UUID-based OID,
 * X.667, that no real authority uses), which geo reads back wherever it shows a timestamp, and its
 * TSA's name says so too. The token is the one RFC 3161 §2.4.2 describes: the request's imprint
 * and nonce, a serial number, genTime in whole seconds, the TSA's certificate (and the CA's) when
 * certReq asks, and one ECDSA signature over signed attributes that bind the TSTInfo (content-type,
 * message-digest) and the certificate (signing-certificate-v2), in DER order.
 */
import { createHash, randomBytes, sign } from 'node:crypto';
import {
  AlgorithmIdentifier, AsnConvert, Attribute, CertificateChoices, CertificateSet, ContentInfo, DigestAlgorithmIdentifiers, EncapsulatedContent, EncapsulatedContentInfo,
  IssuerAndSerialNumber, OctetString, PKIFreeText, PKIStatusInfo, SignedData, SignerIdentifier, SignerInfo, SignerInfos, TSTInfo, TimeStampReq, TimeStampResp, asn1js,
} from '../evidence/asn1.js';
import { EssCertIdV2, HASHES, OID, SigningCertificateV2, signedAttrsDer } from '../evidence/tsa-asn1.js';
import { SANDBOX_TSA_POLICY } from '../evidence/tsa-sandbox.js';
import { ECDSA_SHA256, type SandboxCa } from './tsa-ca.js';

/** PKIStatus (RFC 3161 §2.4.2). */
const GRANTED = 0;
const REJECTION = 2;

const der = (v: object) => Buffer.from(AsnConvert.serialize(v));
const buffer = (b: Buffer) => new Uint8Array(b).buffer;

function refusal(why: string): Buffer {
  return der(new TimeStampResp({ status: new PKIStatusInfo({ status: REJECTION, statusString: new PKIFreeText([why]) }) }));
}

/** The signed attributes, each DER-encoded, in DER's SET OF order (X.690 §11.6): what is signed is what is sent. */
function signedAttributes(tstInfo: Buffer, tsaCert: Buffer): Attribute[] {
  const attrs = [
    new Attribute({ attrType: OID.contentType, attrValues: [new asn1js.ObjectIdentifier({ value: OID.tstInfo }).toBER()] }),
    new Attribute({ attrType: OID.messageDigest, attrValues: [buffer(der(new OctetString(createHash('sha256').update(tstInfo).digest())))] }),
    new Attribute({ attrType: OID.signingCertificateV2, attrValues: [buffer(der(Object.assign(new SigningCertificateV2(), { certs: [Object.assign(new EssCertIdV2(), { certHash: new OctetString(createHash('sha256').update(tsaCert).digest()) })] })))] }),
  ];
  return attrs.map((a) => ({ a, bytes: der(a) })).sort((x, y) => Buffer.compare(x.bytes, y.bytes)).map((x) => x.a);
}

/** The token over `req` at `genTime`, serial `serialNumber`, signed by the sandbox TSA. */
function token(ca: SandboxCa, req: TimeStampReq, genTime: Date, serialNumber: ArrayBuffer): ContentInfo {
  const tst = der(new TSTInfo({
    version: 1, policy: SANDBOX_TSA_POLICY, messageImprint: req.messageImprint, serialNumber, genTime,
    ...(req.nonce ? { nonce: req.nonce } : {}),
  }));
  const sha256 = new AlgorithmIdentifier({ algorithm: OID.sha256 });
  const tbs = ca.tsa.cert.tbsCertificate;
  const info = new SignerInfo({
    version: 1,
    sid: new SignerIdentifier({ issuerAndSerialNumber: new IssuerAndSerialNumber({ issuer: tbs.issuer, serialNumber: tbs.serialNumber }) }),
    digestAlgorithm: sha256,
    signedAttrs: signedAttributes(tst, ca.tsa.der),
    signatureAlgorithm: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }),
  });
  const certificates = req.certReq ? new CertificateSet([ca.tsa.cert, ca.ca.cert].map((certificate) => new CertificateChoices({ certificate }))) : undefined;
  const sd = new SignedData({
    version: 3, digestAlgorithms: new DigestAlgorithmIdentifiers([sha256]),
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: OID.tstInfo, eContent: new EncapsulatedContent({ single: new OctetString(tst) }) }),
    ...(certificates ? { certificates } : {}),
    signerInfos: new SignerInfos([info]),
  });
  // The signature covers the signed attributes as the SignedData carries them, made a SET OF again.
  info.signature = new OctetString(sign('sha256', signedAttrsDer(der(sd), 0)!, ca.tsa.key));
  return new ContentInfo({ contentType: OID.signedData, content: buffer(der(sd)) });
}

/** The sandbox TSA: answers each query with a reply, serial numbers counting up from a random start. */
export class SandboxTsa {
  private serial = BigInt(`0x${randomBytes(6).toString('hex')}`) << 16n;

  constructor(readonly ca: SandboxCa) {}

  /** The reply to the DER `query` at `now`: a token, or a rejection saying why (still a reply, HTTP 200). */
  reply(query: Uint8Array, now: number): Buffer {
    let req: TimeStampReq;
    try {
      req = AsnConvert.parse(query, TimeStampReq);
    } catch {
      return refusal('not a TimeStampReq (RFC 3161 section 2.4.1)');
    }
    if (req.version !== 1) return refusal(`TimeStampReq version ${req.version}: version 1 only`);
    const alg = HASHES[req.messageImprint.hashAlgorithm.algorithm];
    if (!alg || alg === 'sha1') return refusal(`the message imprint's hash ${req.messageImprint.hashAlgorithm.algorithm}: SHA-224/256/384/512 only`);
    if (req.messageImprint.hashedMessage.byteLength !== createHash(alg).digest().length) return refusal(`the message imprint is not a ${alg} hash`);
    if (req.reqPolicy !== undefined && req.reqPolicy !== SANDBOX_TSA_POLICY) return refusal(`policy ${req.reqPolicy}: the sandbox TSA issues under ${SANDBOX_TSA_POLICY} only`);
    if (req.extensions?.length) return refusal('request extensions are not supported');
    this.serial += 1n;
    const serial = Buffer.from(this.serial.toString(16).padStart(16, '0'), 'hex');
    const granted = new TimeStampResp({ status: new PKIStatusInfo({ status: GRANTED }), timeStampToken: token(this.ca, req, new Date(Math.floor(now / 1000) * 1000), buffer(serial)) });
    return der(granted);
  }
}
