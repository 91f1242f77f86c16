/**
 * RFC 3161 timestamps of a custody head (issue 31, item 3; src/evidence/timestamp.ts), against a
 * local authority made in the test (test/helpers/tsa.ts: a throwaway CA, a TSA certificate made
 * with `openssl ca`, `openssl ts -reply` behind node:http on loopback). geo's request is answered
 * and its token verifies, openssl's own `ts -verify` agrees on every verdict, and each way a token
 * can fail to vouch for a head is named: another head, an untrusted TSA, an expired chain, a bad
 * signature (the token edited after signing).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stamp, TimestampError, requestTimestamp, verifyTimestamp } from '../../src/evidence/timestamp.js';
import { type Authority, type TsaServer, makeAuthority, opensslVerify, serveAuthority } from '../helpers/tsa.js';

const sha = (s: string) => createHash('sha256').update(s).digest();
/** A custody head as verify gets it: the entry's hash, hex. */
const HEAD = sha('{"case":"lc_1","seq":7,"event":"result_linked"}').toString('hex');
const OTHER_HEAD = sha('{"case":"lc_1","seq":8,"event":"bundle_made"}').toString('hex');
const digest = (hex: string) => ({ digest: Buffer.from(hex, 'hex') });

/** The TimestampError `fn` throws (failing the test when it throws none, or another error). */
function failure(fn: () => unknown): TimestampError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(TimestampError);
    return err as TimestampError;
  }
  throw new Error('expected a TimestampError, nothing was thrown');
}

let ca: Authority;
let server: TsaServer;
let stamp: Stamp;
const started = Date.now();

beforeAll(async () => {
  ca = makeAuthority({ name: 'Harbour TSA root' });
  server = await serveAuthority(ca);
  stamp = await requestTimestamp(server.url, Buffer.from(HEAD, 'hex'), { trusted: ca.caPem });
});
afterAll(() => server?.close());

describe('a token from a local RFC 3161 authority', () => {
  it("geo's request is one openssl reads as RFC 3161 (v1, sha256 over the head, a nonce, certReq), sent as application/timestamp-query", () => {
    expect(server.queries).toHaveLength(1);
    const file = join(ca.dir, 'geo-request.tsq');
    writeFileSync(file, server.queries[0]!);
    const text = execFileSync('openssl', ['ts', '-query', '-in', file, '-text'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(text).toMatch(/Version: 1/);
    expect(text).toMatch(/Hash Algorithm: sha256/);
    expect(text.replace(/\s+/g, ' ')).toContain(HEAD.match(/../g)!.slice(0, 8).join(' '));
    expect(text).toMatch(/Nonce: 0x[0-9A-F]{16}/);
    expect(text).toMatch(/Certificate required: yes/);
    expect(text).toMatch(/Policy OID: unspecified/);
  });

  it('is accepted and verifies: genTime, the TSA, serial, policy and hash as the token says, its nonce the request\'s', () => {
    const facts = verifyTimestamp(stamp.reply, digest(HEAD), { trusted: ca.caPem });
    expect(facts).toEqual(stamp.facts);
    expect(facts).toMatchObject({ tsa: 'CN=Harbour TSA root TSA, O=geo tests', policy: '1.3.6.1.4.1.99999.1', hashAlg: 'sha256', imprint: HEAD });
    expect(facts.serial).toMatch(/^[0-9a-f]+$/);
    expect(facts.nonce).toMatch(/^[0-9a-f]{16}$/);
    // openssl's genTime has whole seconds (clock_precision_digits = 0).
    expect(Date.parse(facts.genTime)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
    expect(Date.parse(facts.genTime)).toBeLessThanOrEqual(Date.now());
    // What to keep beside it: the token's own certificates (the TSA's and its CA's).
    expect(stamp.certificatesPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
  });

  it('openssl ts -verify -digest agrees on the same token: OK for its head, failed for another', async () => {
    expect(await opensslVerify(ca, stamp.reply, HEAD, ca.caPem)).toMatchObject({ ok: true, output: expect.stringMatching(/Verification: OK/) });
    expect((await opensslVerify(ca, stamp.reply, OTHER_HEAD, ca.caPem)).ok).toBe(false);
  });

  it('the same token over other bytes: "token for another head" (geo), and openssl fails it too', async () => {
    const err = failure(() => verifyTimestamp(stamp.reply, digest(OTHER_HEAD), { trusted: ca.caPem }));
    expect(err.failure).toBe('another-head');
    expect(err.message).toBe(`token for another head: it stamps sha256 ${HEAD}, not ${OTHER_HEAD}`);
    // Given as bytes instead of a digest: the bytes are hashed with the token's algorithm.
    expect(failure(() => verifyTimestamp(stamp.reply, { data: Buffer.from(HEAD, 'hex') }, { trusted: ca.caPem })).failure).toBe('another-head');
    expect((await opensslVerify(ca, stamp.reply, OTHER_HEAD, ca.caPem)).output).toMatch(/message imprint mismatch/);
  });

  it('a token made over the bytes themselves verifies with { data } as with -data', async () => {
    const bytes = Buffer.from('custody.jsonl as bundled\n');
    const s = await requestTimestamp(server.url, createHash('sha256').update(bytes).digest());
    expect(verifyTimestamp(s.reply, { data: bytes }, { trusted: ca.caPem }).imprint).toBe(createHash('sha256').update(bytes).digest('hex'));
    const data = join(ca.dir, 'data.bin');
    const tsr = join(ca.dir, 'data.tsr');
    const caFile = join(ca.dir, 'trusted.pem');
    writeFileSync(data, bytes);
    writeFileSync(tsr, s.reply);
    writeFileSync(caFile, ca.caPem);
    expect(execFileSync('openssl', ['ts', '-verify', '-data', data, '-in', tsr, '-CAfile', caFile], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })).toMatch(/Verification: OK/);
    expect(failure(() => verifyTimestamp(s.reply, { data: Buffer.from('custody.jsonl, one line more\n') }, { trusted: ca.caPem })).failure).toBe('another-head');
  });
});

describe('tokens that must not be believed, each named', () => {
  it('signed by a TSA whose CA is not the trusted one: "signed by an untrusted TSA" (openssl: certificate verify error)', async () => {
    const rogue = makeAuthority({ name: 'Harbour TSA root' });
    const rogueServer = await serveAuthority(rogue);
    try {
      // Same names as the trusted CA, another key: only the signatures tell them apart.
      const forged = await requestTimestamp(rogueServer.url, Buffer.from(HEAD, 'hex'));
      const err = failure(() => verifyTimestamp(forged.reply, digest(HEAD), { trusted: ca.caPem }));
      expect(err.failure).toBe('untrusted-tsa');
      expect(err.message).toMatch(/^signed by an untrusted TSA: CN=Harbour TSA root TSA, O=geo tests \(issued by CN=Harbour TSA root, O=geo tests\) does not chain to a trusted CA/);
      expect(err.hint).toMatch(/--tsa-ca/);
      const openssl = await opensslVerify(rogue, forged.reply, HEAD, ca.caPem);
      expect(openssl).toMatchObject({ ok: false, output: expect.stringMatching(/certificate verify error/) });
      // Against its own CA it is a good token: the trust anchor is what differs.
      expect(verifyTimestamp(forged.reply, digest(HEAD), { trusted: rogue.caPem }).imprint).toBe(HEAD);
    } finally {
      await rogueServer.close();
    }
  });

  it.each([
    ['TSA certificate', { tsaValidity: { from: new Date('2019-01-01T00:00:00Z'), to: new Date('2020-01-01T00:00:00Z') } }, /CN=Expired .*TSA, O=geo tests was valid until 2020-01-01T00:00:00.000Z/],
    ['CA certificate', { caValidity: { from: new Date('2018-01-01T00:00:00Z'), to: new Date('2021-01-01T00:00:00Z') }, tsaValidity: { from: new Date('2019-01-01T00:00:00Z'), to: new Date('2030-01-01T00:00:00Z') } }, /CN=Expired [^,]*, O=geo tests was valid until 2021-01-01T00:00:00.000Z/],
  ])('a chain whose %s expired before genTime: "TSA certificate expired at genTime" (openssl: certificate has expired)', async (_what, validity, detail) => {
    const old = makeAuthority({ name: `Expired ${_what.split(' ')[0]}`, ...validity });
    const oldServer = await serveAuthority(old);
    try {
      const s = await requestTimestamp(oldServer.url, Buffer.from(HEAD, 'hex'));
      const err = failure(() => verifyTimestamp(s.reply, digest(HEAD), { trusted: old.caPem }));
      expect(err.failure).toBe('expired');
      expect(err.message).toMatch(/^TSA certificate expired at genTime: /);
      expect(err.message).toMatch(detail);
      expect((await opensslVerify(old, s.reply, HEAD, old.caPem)).output).toMatch(/certificate has expired/);
    } finally {
      await oldServer.close();
    }
  });

  it('genTime rewritten in the stored reply (to look older): "bad signature", and openssl fails it too', async () => {
    const edited = Buffer.from(stamp.reply);
    const year = new Date(stamp.facts.genTime).getUTCFullYear();
    // The GeneralizedTime of TSTInfo: tag 0x18, 15 bytes "YYYYMMDDHHMMSSZ"; an attacker edits its year.
    const at = edited.indexOf(Buffer.concat([Buffer.from([0x18, 0x0f]), Buffer.from(String(year))]));
    expect(at).toBeGreaterThan(0);
    edited.write(String(year - 3), at + 2, 'latin1');
    const err = failure(() => verifyTimestamp(edited, digest(HEAD), { trusted: ca.caPem }));
    expect(err.failure).toBe('bad-signature');
    expect(err.message).toBe('bad signature: the signed message-digest does not match the TSTInfo (the token was altered after it was signed)');
    expect((await opensslVerify(ca, edited, HEAD, ca.caPem)).ok).toBe(false);
  });

  it('the imprint rewritten to another head: "bad signature", never a token for that head', () => {
    const edited = Buffer.from(stamp.reply);
    const at = edited.indexOf(Buffer.from(HEAD, 'hex'));
    Buffer.from(OTHER_HEAD, 'hex').copy(edited, at);
    expect(failure(() => verifyTimestamp(edited, digest(OTHER_HEAD), { trusted: ca.caPem })).failure).toBe('bad-signature');
  });

  it('the signature value altered (its last byte): "bad signature: … does not verify with the key of" the TSA', async () => {
    const edited = Buffer.from(stamp.reply);
    edited[edited.length - 1] = edited[edited.length - 1]! ^ 0x01;
    const err = failure(() => verifyTimestamp(edited, digest(HEAD), { trusted: ca.caPem }));
    expect(err.message).toBe('bad signature: the signature does not verify with the key of CN=Harbour TSA root TSA, O=geo tests');
    expect((await opensslVerify(ca, edited, HEAD, ca.caPem)).ok).toBe(false);
  });

  it('a nonce other than the request\'s: "nonce mismatch"', () => {
    const err = failure(() => verifyTimestamp(stamp.reply, digest(HEAD), { trusted: ca.caPem, nonce: Buffer.from('4000000000000001', 'hex') }));
    expect(err.failure).toBe('nonce-mismatch');
    expect(err.message).toBe(`nonce mismatch: the reply carries nonce ${stamp.facts.nonce}, the request sent 4000000000000001 (a replayed or misdirected reply)`);
  });

  it('no trusted CA given: untrusted, never trusted by default', () => {
    expect(failure(() => verifyTimestamp(stamp.reply, digest(HEAD), { trusted: '' })).failure).toBe('untrusted-tsa');
  });
});
