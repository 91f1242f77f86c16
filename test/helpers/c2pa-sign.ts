/**
 * C2PA-signed copies of images, made in the test (issue 31): a throwaway PKI made with openssl (a
 * root CA, an ES256 signer with the C2PA certificate profile, and a time-stamp authority answering
 * with `openssl ts -reply`), and a manifest built and embedded by the library geo reads with,
 * @contentauth/c2pa-wasm (c2pa-rs). Its signer callback takes the claim's bytes and must return the
 * whole COSE_Sign1 structure (0.15 signs only that way), so the structure is made here: RFC 9052
 * §4.4, the x5chain header (RFC 9360) holding signer and CA, and a C2PA v2 time-stamp (sigTst2:
 * an RFC 3161 token over the CounterSignature structure of the signature; C2PA 2.1 §10.3.2.5),
 * padded to exactly the size reserved for it. Nothing here is geo's code.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate, createPrivateKey, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  dir: string;
  /** The root CA's PEM: what --c2pa-trust takes to make the signer trusted. */
  caFile: string;
  signer: { cn: string; o: string };
}

const CNF = `[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[v3_ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[v3_signer]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = emailProtection
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[v3_tsa]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = critical,timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[tsa_config]
serial = ./tsaserial
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256
accuracy = secs:1
ess_cert_id_alg = sha256
ordering = no
tsa_name = no
ess_cert_id_chain = no
`;

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

/** A root CA, an ES256 signer it issued ("Geo Test Signer", "geo tests") and a time-stamp authority. */
export function makePki(signer = { cn: 'Geo Test Signer', o: 'geo tests' }): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'geo-c2pa-pki-'));
  writeFileSync(join(dir, 'pki.cnf'), CNF);
  writeFileSync(join(dir, 'tsaserial'), '01\n');
  const key = (name: string) => openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`]);
  key('ca');
  openssl(dir, ['req', '-x509', '-new', '-key', 'ca.key', '-config', 'pki.cnf', '-extensions', 'v3_ca', '-days', '3650', '-subj', '/O=geo tests/CN=Geo Test Root CA', '-out', 'ca.pem']);
  for (const [name, subj, ext] of [['signer', `/O=${signer.o}/CN=${signer.cn}`, 'v3_signer'], ['tsa', '/O=geo tests/CN=Geo Test TSA', 'v3_tsa']] as const) {
    key(name);
    openssl(dir, ['req', '-new', '-key', `${name}.key`, '-config', 'pki.cnf', '-subj', subj, '-out', `${name}.csr`]);
    openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-extfile', 'pki.cnf', '-extensions', ext, '-days', '365', '-out', `${name}.pem`]);
  }
  return { dir, caFile: join(dir, 'ca.pem'), signer };
}

// The little CBOR (RFC 8949) a COSE_Sign1 needs: unsigned and negative integers, byte and text
// strings, arrays, maps (in the order given), null and tags.
type Cbor = number | string | Uint8Array | null | Cbor[] | Map<Cbor, Cbor> | { tag: number; value: Cbor };
function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}
function cbor(v: Cbor): Buffer {
  if (v === null) return Buffer.from([0xf6]);
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), v]);
  if (Array.isArray(v)) return Buffer.concat([head(4, v.length), ...v.map(cbor)]);
  if (v instanceof Map) return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
  return Buffer.concat([head(6, v.tag), cbor(v.value)]);
}

const RESERVE = 12_000;

/** The RFC 3161 token of `pki`'s time-stamp authority over `data` (openssl ts -query, -reply). */
function timeStampToken(pki: TestPki, data: Buffer): Buffer {
  writeFileSync(join(pki.dir, 'ts.data'), data);
  openssl(pki.dir, ['ts', '-query', '-data', 'ts.data', '-sha256', '-cert', '-no_nonce', '-out', 'ts.tsq']);
  openssl(pki.dir, ['ts', '-reply', '-queryfile', 'ts.tsq', '-signer', 'tsa.pem', '-inkey', 'tsa.key', '-chain', 'ca.pem', '-config', 'pki.cnf', '-section', 'tsa_config', '-token_out', '-out', 'ts.tok']);
  return readFileSync(join(pki.dir, 'ts.tok'));
}

/** COSE_Sign1 over the claim (detached payload), ES256, x5chain [signer, CA], time-stamped, padded to RESERVE bytes. */
function coseSign1(pki: TestPki, claim: Uint8Array): Uint8Array {
  const der = (f: string) => new Uint8Array(new X509Certificate(readFileSync(join(pki.dir, f))).raw);
  const protectedHeader = cbor(new Map<Cbor, Cbor>([[1, -7], [33, [der('signer.pem'), der('ca.pem')]]]));
  const toBeSigned = cbor(['Signature1', protectedHeader, new Uint8Array(0), claim]);
  const signature = sign('sha256', toBeSigned, { key: createPrivateKey(readFileSync(join(pki.dir, 'signer.key'))), dsaEncoding: 'ieee-p1363' });
  const counter = cbor(['CounterSignature', protectedHeader, new Uint8Array(0), cbor(signature)]);
  const sigTst2 = new Map<Cbor, Cbor>([['tstTokens', [new Map<Cbor, Cbor>([['val', timeStampToken(pki, counter)]])]]]);
  const build = (pad: number) => cbor({ tag: 18, value: [protectedHeader, new Map<Cbor, Cbor>([['sigTst2', sigTst2], ['pad', new Uint8Array(pad)]]), null, signature] });
  for (let pad = RESERVE - build(0).length; pad >= 0; pad--) {
    const out = build(pad);
    if (out.length === RESERVE) return out;
  }
  throw new Error('the COSE signature does not fit its reserved size');
}

interface Wasm {
  initSync(o: { module: Uint8Array }): unknown;
  WasmBuilder: { fromJson(json: string): { sign(signer: unknown, identity: unknown[], format: string, source: Blob): Promise<Uint8Array> } };
}

/** c2pa-wasm's builder reads its source with FileReaderSync (a web worker's): a Blob that keeps its bytes, and a reader of them. */
class BytesBlob extends Blob {
  constructor(readonly held: Uint8Array) {
    super([held]);
  }
  override slice(start = 0, end = this.held.length): BytesBlob {
    return new BytesBlob(this.held.subarray(start, end));
  }
}

export interface SignOptions {
  title: string;
  generator: { name: string; version: string };
  format: 'image/jpeg' | 'image/png';
}

/** `image` with a C2PA manifest: "created" by `generator`, signed by pki's signer, time-stamped by its authority. */
export async function signImage(image: Buffer, pki: TestPki, o: SignOptions): Promise<Buffer> {
  const m = (await import('@contentauth/c2pa-wasm')) as unknown as Wasm;
  const req = createRequire(import.meta.url);
  m.initSync({ module: readFileSync(req.resolve('@contentauth/c2pa-wasm/c2pa.wasm')) });
  (globalThis as { FileReaderSync?: unknown }).FileReaderSync ??= class {
    readAsArrayBuffer(b: BytesBlob): ArrayBuffer {
      return new Uint8Array(b.held).buffer;
    }
  };
  const definition = {
    claim_generator_info: [o.generator], title: o.title, format: o.format,
    assertions: [{ label: 'c2pa.actions', data: { actions: [{ action: 'c2pa.created', digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture' }] } }],
  };
  const signer = { alg: 'es256', reserveSize: RESERVE, sign: async (claim: Uint8Array) => coseSign1(pki, claim) };
  return Buffer.from(await m.WasmBuilder.fromJson(JSON.stringify(definition)).sign(signer, [], o.format, new BytesBlob(new Uint8Array(image))));
}
