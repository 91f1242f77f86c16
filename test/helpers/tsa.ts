/**
 * A local RFC 3161 time-stamp authority for tests (issue 31): a throwaway CA and a TSA certificate
 * made with the real `openssl req` / `openssl ca` (extendedKeyUsage critical timeStamping, as RFC
 * 3161 §2.3 requires), an `openssl ts` config, and a small node:http server that answers each
 * POSTed query with what `openssl ts -reply` makes of it. Nothing reaches the network: the server
 * listens on 127.0.0.1, port 0.
 *
 * Certificates are made with explicit dates (`openssl ca -startdate/-enddate`; faketime is not
 * installed), so an authority whose TSA certificate (or CA) expired long ago is one option away.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

/** openssl's date format for `ca -startdate/-enddate`: YYYYMMDDHHMMSSZ. */
const asn1Date = (d: Date) => d.toISOString().replace(/[-:T]/g, '').replace(/\.\d+Z$/, 'Z');
const DAY = 86_400_000;

export interface AuthorityOptions {
  /** The CA's common name (two authorities with the same name are still two CAs). */
  name?: string;
  /** The TSA certificate's validity (default: a year ago to a year from now). */
  tsaValidity?: { from: Date; to: Date };
  /** The CA certificate's validity (default: two years ago to two years from now). */
  caValidity?: { from: Date; to: Date };
  /** Key type of both certificates (default rsa:2048). */
  key?: 'rsa' | 'ec';
  /** openssl ts's `ess_cert_id_alg`: sha1 makes signingCertificate (v1), sha256 / sha512 signingCertificateV2 (sha256 is DER's default, left out). */
  essCertIdAlg?: 'sha1' | 'sha256' | 'sha512';
  /** openssl ts's signer_digest (default sha256). */
  signerDigest?: 'sha256' | 'sha384' | 'sha512';
}

export interface Authority {
  dir: string;
  /** The CA certificate (PEM): what a verifier trusts. */
  caPem: string;
  /** The TSA's certificate (PEM). */
  tsaPem: string;
  /** The `openssl ts` config that signs with the TSA key. */
  config: string;
}

function keyArgs(kind: 'rsa' | 'ec', out: string): string[] {
  return kind === 'ec'
    ? ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', out]
    : ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', out];
}

/** A CA and a TSA certificate issued by it, with `openssl ca` and explicit dates, in a new folder. */
export function makeAuthority(opts: AuthorityOptions = {}): Authority {
  const dir = mkdtempSync(join(tmpdir(), 'geo-tsa-'));
  const name = opts.name ?? 'geo test CA';
  const key = opts.key ?? 'rsa';
  const now = Date.now();
  const ca = opts.caValidity ?? { from: new Date(now - 730 * DAY), to: new Date(now + 730 * DAY) };
  const tsa = opts.tsaValidity ?? { from: new Date(now - 365 * DAY), to: new Date(now + 365 * DAY) };
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '1000\n');
  writeFileSync(join(dir, 'tsaserial'), '01\n');
  writeFileSync(join(dir, 'ca.cnf'), `
[ ca ]
default_ca = test_ca
[ test_ca ]
dir = .
database = ./index.txt
serial = ./serial
new_certs_dir = .
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[ anything ]
commonName = supplied
organizationName = optional
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = unused
[ v3_ca ]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ v3_tsa ]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature, nonRepudiation
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`);
  openssl(keyArgs(key, 'ca.key'), dir);
  // The CA self-signs through `openssl ca -selfsign` too, so its dates are explicit as well.
  openssl(['req', '-new', '-config', 'ca.cnf', '-key', 'ca.key', '-subj', `/O=geo tests/CN=${name}`, '-out', 'ca.csr'], dir);
  openssl(['ca', '-batch', '-config', 'ca.cnf', '-selfsign', '-keyfile', 'ca.key', '-in', 'ca.csr', '-out', 'ca.pem', '-notext',
    '-extensions', 'v3_ca', '-startdate', asn1Date(ca.from), '-enddate', asn1Date(ca.to)], dir);
  openssl(keyArgs(key, 'tsa.key'), dir);
  openssl(['req', '-new', '-config', 'ca.cnf', '-key', 'tsa.key', '-subj', `/O=geo tests/CN=${name} TSA`, '-out', 'tsa.csr'], dir);
  openssl(['ca', '-batch', '-config', 'ca.cnf', '-cert', 'ca.pem', '-keyfile', 'ca.key', '-in', 'tsa.csr', '-out', 'tsa.pem', '-notext',
    '-extensions', 'v3_tsa', '-startdate', asn1Date(tsa.from), '-enddate', asn1Date(tsa.to)], dir);
  writeFileSync(join(dir, 'ts.cnf'), `
[ tsa ]
default_tsa = test_tsa
[ test_tsa ]
dir = ${dir}
serial = $dir/tsaserial
crypto_device = builtin
signer_cert = $dir/tsa.pem
certs = $dir/ca.pem
signer_key = $dir/tsa.key
signer_digest = ${opts.signerDigest ?? 'sha256'}
default_policy = 1.3.6.1.4.1.99999.1
other_policies = 1.3.6.1.4.1.99999.2
digests = sha256, sha384, sha512
accuracy = secs:1
clock_precision_digits = 0
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = ${opts.essCertIdAlg ?? 'sha256'}
`);
  return { dir, caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'), tsaPem: readFileSync(join(dir, 'tsa.pem'), 'utf8'), config: join(dir, 'ts.cnf') };
}

/** What `openssl ts -reply` answers to this query (DER TimeStampResp). */
export async function opensslReply(authority: Authority, query: Buffer): Promise<Buffer> {
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const q = join(authority.dir, `q-${tag}.tsq`);
  const r = join(authority.dir, `r-${tag}.tsr`);
  writeFileSync(q, query);
  await run('openssl', ['ts', '-reply', '-queryfile', q, '-config', authority.config, '-out', r], { cwd: authority.dir });
  return readFileSync(r);
}

export interface TsaServer {
  url: string;
  /** Every query body received, in order. */
  queries: Buffer[];
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Answer chosen bytes instead of openssl's reply (given openssl's, for a truncated copy). */
  answer?: (reply: Buffer, query: Buffer) => Buffer;
  /** The Content-Type of the answer (default application/timestamp-reply). */
  contentType?: string;
  /** The status of the answer (default 200). */
  status?: number;
}

/** A node:http server on 127.0.0.1:0 answering each POST with `openssl ts -reply` of its body. */
export async function serveAuthority(authority: Authority, opts: ServeOptions = {}): Promise<TsaServer> {
  const queries: Buffer[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const query = Buffer.concat(chunks);
      queries.push(query);
      const fail = (why: string) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(why);
      };
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') return fail('expected a POST of application/timestamp-query');
      opensslReply(authority, query).then((reply) => {
        const body = opts.answer ? opts.answer(reply, query) : reply;
        res.writeHead(opts.status ?? 200, { 'content-type': opts.contentType ?? 'application/timestamp-reply', 'content-length': body.length });
        res.end(body);
      }, (err: Error) => fail(err.message));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    queries,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** `openssl ts -verify` of a reply over a digest, trusting `caPem`: its exit status and output. */
export async function opensslVerify(authority: { dir: string }, reply: Buffer, digestHex: string, caPem: string): Promise<{ ok: boolean; output: string }> {
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const r = join(authority.dir, `v-${tag}.tsr`);
  const ca = join(authority.dir, `trust-${tag}.pem`);
  writeFileSync(r, reply);
  writeFileSync(ca, caPem);
  try {
    const { stdout, stderr } = await run('openssl', ['ts', '-verify', '-digest', digestHex, '-in', r, '-CAfile', ca]);
    return { ok: true, output: stdout + stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}
