/**
 * The ways real TSAs sign (issue 31, item 3 (c)): RSA PKCS#1 v1.5 and ECDSA keys, SHA-256 or
 * SHA-512 over the signed attributes, and the signer's certificate named by signingCertificate
 * (ESSCertID, SHA-1: openssl's default and most TSAs') or signingCertificateV2 (ESSCertIDv2 with
 * SHA-256 left out as the DER default, or SHA-512 written out). Each token made by openssl's own
 * TSA verifies with geo and with `openssl ts -verify`, and fails with both over another head.
 * RSASSA-PSS comes last: openssl ts cannot sign with it, so the token is re-signed here.
 */
import { createHash, constants, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AsnConvert } from '@peculiar/asn1-schema';
import { ContentInfo, SignedData } from '@peculiar/asn1-cms';
import { RSASSA_PSS, RsaSaPssParams } from '@peculiar/asn1-rsa';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { describe, expect, it } from 'vitest';
import { requestTimestamp, verifyTimestamp } from '../../src/evidence/timestamp.js';
import { signedAttrsDer, tokenOf } from '../../src/evidence/tsa-asn1.js';
import { type AuthorityOptions, makeAuthority, opensslVerify, serveAuthority } from '../helpers/tsa.js';

const HEAD = createHash('sha256').update('a custody head').digest();
const OTHER = createHash('sha256').update('another head').digest();

describe('tokens signed the ways TSAs sign', () => {
  it.each<[string, AuthorityOptions]>([
    ['RSA, SHA-256, signingCertificateV2 (SHA-256, the default left out)', { key: 'rsa', essCertIdAlg: 'sha256' }],
    ['RSA, SHA-256, signingCertificate (ESSCertID, SHA-1)', { key: 'rsa', essCertIdAlg: 'sha1' }],
    ['ECDSA P-256, SHA-256, signingCertificateV2', { key: 'ec', essCertIdAlg: 'sha256' }],
    ['ECDSA P-256, SHA-512 signature, signingCertificateV2 with SHA-512 written out', { key: 'ec', signerDigest: 'sha512', essCertIdAlg: 'sha512' }],
    ['RSA, SHA-384 signature, signingCertificate (SHA-1)', { key: 'rsa', signerDigest: 'sha384', essCertIdAlg: 'sha1' }],
  ])('%s: verifies with geo and openssl, and fails over another head with both', async (_name, opts) => {
    const ca = makeAuthority(opts);
    const server = await serveAuthority(ca);
    try {
      const s = await requestTimestamp(server.url, HEAD);
      expect(verifyTimestamp(s.reply, { digest: HEAD }, { trusted: ca.caPem }).imprint).toBe(HEAD.toString('hex'));
      expect((await opensslVerify(ca, s.reply, HEAD.toString('hex'), ca.caPem)).ok).toBe(true);
      expect(() => verifyTimestamp(s.reply, { digest: OTHER }, { trusted: ca.caPem })).toThrow(/^token for another head/);
      expect((await opensslVerify(ca, s.reply, OTHER.toString('hex'), ca.caPem)).ok).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('RSASSA-PSS (SHA-256, MGF1-SHA-256, salt 32): verifies; the same signature read as PKCS#1 v1.5 does not', async () => {
    const ca = makeAuthority({ key: 'rsa' });
    const server = await serveAuthority(ca);
    try {
      const s = await requestTimestamp(server.url, HEAD);
      // The token as the TSA made it, its SignerInfo re-signed with PSS by the TSA's own key.
      const token = tokenOf(s.reply);
      const sd = AsnConvert.parse(token.content, SignedData);
      const info = sd.signerInfos[0]!;
      const attrs = signedAttrsDer(new Uint8Array(token.content), 0)!;
      const key = readFileSync(join(ca.dir, 'tsa.key'));
      const sha256 = new AlgorithmIdentifier({ algorithm: '2.16.840.1.101.3.4.2.1' });
      const params = new RsaSaPssParams({
        hashAlgorithm: sha256,
        maskGenAlgorithm: new AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.8', parameters: AsnConvert.serialize(sha256) }),
        saltLength: 32,
      });
      info.signatureAlgorithm = new AlgorithmIdentifier({ algorithm: RSASSA_PSS.algorithm, parameters: AsnConvert.serialize(params) });
      info.signature.buffer = new Uint8Array(sign('sha256', attrs, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })).buffer;
      const pss = Buffer.from(AsnConvert.serialize(new ContentInfo({ contentType: token.contentType, content: AsnConvert.serialize(sd) })));
      expect(verifyTimestamp(pss, { digest: HEAD }, { trusted: ca.caPem }).imprint).toBe(HEAD.toString('hex'));
      info.signatureAlgorithm = new AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.11' });
      const mislabelled = Buffer.from(AsnConvert.serialize(new ContentInfo({ contentType: token.contentType, content: AsnConvert.serialize(sd) })));
      expect(() => verifyTimestamp(mislabelled, { digest: HEAD }, { trusted: ca.caPem })).toThrow(/^bad signature: the signature does not verify/);
    } finally {
      await server.close();
    }
  });
});
