/**
 * What the RFC 3161 code (tsa-*.ts) takes from asn1js and @peculiar/asn1-*, in one place. The
 * build bundles it apart, as dist/asn1.cjs, which dist/cli.js requires only when a timestamp is
 * requested or checked: about 330 KB that every other command would read at start (on the VM of
 * bench/, ~10 ms per MB read), as src/mcp/sdk.ts does for the MCP SDK.
 */
export { AsnConvert, AsnProp, AsnPropTypes, AsnType, AsnTypeTypes, OctetString } from '@peculiar/asn1-schema';
export { AlgorithmIdentifier, Certificate, ExtendedKeyUsage } from '@peculiar/asn1-x509';
export { MessageImprint, PKIFreeText, PKIStatusInfo, TSTInfo, TimeStampReq, TimeStampResp } from '@peculiar/asn1-tsp';
export { ContentInfo, SignedData, SignerInfo } from '@peculiar/asn1-cms';
// What the sandbox's test TSA makes (src/sandbox/tsa.ts, tsa-ca.ts): certificates and tokens.
export {
  AttributeTypeAndValue, AttributeValue, AuthorityKeyIdentifier, BasicConstraints, Extension, Extensions, KeyIdentifier, KeyUsage, KeyUsageFlags,
  Name, RelativeDistinguishedName, SubjectKeyIdentifier, SubjectPublicKeyInfo, TBSCertificate, Validity,
} from '@peculiar/asn1-x509';
export {
  Attribute, CertificateChoices, CertificateSet, DigestAlgorithmIdentifiers, EncapsulatedContent, EncapsulatedContentInfo, IssuerAndSerialNumber, SignerIdentifier, SignerInfos,
} from '@peculiar/asn1-cms';
export { RsaSaPssParams } from '@peculiar/asn1-rsa';
export * as asn1js from 'asn1js';
