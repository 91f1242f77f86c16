/**
 * Issue 31, item 3 ("Must show"): `geo cases stamp` against a local RFC 3161 authority (openssl
 * ts -reply behind node:http, a throwaway CA made here; nothing reaches the network). No TSA is
 * contacted unless configured or named; a token is kept with the CA pinned for it and logged as
 * head_stamped (then signed); openssl ts -verify agrees with geo; offline, the request is queued
 * and --pending sends it later. Then, done to geo.db with the sqlite3 CLI: a token for another
 * head, a token by an untrusted TSA, an expired TSA chain: each named by geo cases verify.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { makeKey, tmp as sshTmp } from '../helpers/ssh.js';
import { type Authority, type TsaServer, makeAuthority, opensslReply, opensslVerify, serveAuthority } from '../helpers/tsa.js';
import { dbRows } from '../helpers/store.js';
import { caseId, caseRunner, custodyOf, events, tmp } from './helpers.js';

const sb = withSandbox();
const DAY = 86_400_000;
let A: Authority;
let server: TsaServer;
const alice = makeKey(sshTmp('geo-stamp-keys-'), 'alice');

/** A query for a SHA-256 digest, made by openssl (not geo), with certReq. */
const query = (hex: string) => execFileSync('openssl', ['ts', '-query', '-digest', hex, '-sha256', '-cert']);
const other = createHash('sha256').update('another head').digest('hex');

let base: { data: string; config: string; id: string };
const geo = (data: string, argv: string[], config = base.config) => caseRunner(sb, data).run(argv, { env: { GEO_CONFIG_DIR: config, HOME: config } });

beforeAll(async () => {
  A = makeAuthority({ name: 'geo test CA A' });
  server = await serveAuthority(A);
  const data = tmp('geo-stamp-data-');
  const config = tmp('geo-stamp-config-');
  base = { data, config, id: '' };
  expect((await geo(data, ['keys', 'signing', 'use', alice.path, '--principal', 'alice@example.org'])).code).toBe(0);
  expect((await geo(data, ['cases', 'create', '--name', 'Stamped', '--local'])).code).toBe(0);
  expect((await geo(data, ['locate', FIXTURES + 'paris.jpg', '--case', 'Stamped'])).code).toBe(0);
  base.id = caseId(data, 'Stamped');
}, 60_000);
afterAll(async () => server?.close());

const verify = (data: string, extra: string[] = []) => geo(data, ['cases', 'verify', 'Stamped', '--allow-sandbox', ...extra]);

describe('geo cases stamp', () => {
  it('no TSA configured or named: exit 2, and none is contacted', async () => {
    const r = await geo(base.data, ['cases', 'stamp', 'Stamped']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no time-stamp authority is configured or named, so none is contacted — hint: geo config set tsa/);
    expect(server.queries).toHaveLength(0);
  });

  it('a token over the head, kept with the CA pinned, logged as head_stamped and signed; verify and openssl ts -verify agree', async () => {
    const head = custodyOf(base.data, base.id).at(-1)!;
    const r = await geo(base.data, ['cases', 'stamp', 'Stamped', '--tsa', server.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^stamped +case ${base.id}, head of entry ${head.seq} \\(${head.hash.slice(0, 16)}…\\), ${server.url}: existed by \\S+Z, says CN=geo test CA A TSA, O=geo tests \\(entry ${head.seq + 1}, head_stamped\\)\\n$`));
    const entries = custodyOf(base.data, base.id);
    expect(events(entries).slice(-2)).toEqual(['head_stamped', 'head_signed']);
    const stamp = entries.at(-2)!.data.stamp as Record<string, unknown>;
    const [row] = dbRows<{ state: string; reply: ArrayBuffer; ca_pem: string; head: string }>(base.data, 'SELECT state, reply, ca_pem, head FROM timestamps WHERE case_id = ?', base.id);
    const reply = Buffer.from(row!.reply);
    expect(row).toMatchObject({ state: 'stamped', head: head.hash, ca_pem: A.caPem.replace(/\r/g, '') });
    expect(stamp).toMatchObject({ seq: head.seq, head: head.hash, tsa: server.url, token_sha256: createHash('sha256').update(reply).digest('hex') });
    expect((await opensslVerify(A, reply, head.hash, A.caPem)).ok).toBe(true);

    const v = await verify(base.data, ['--require-timestamp']);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`timestamps +1 of 1 trusted timestamp valid\\n +✓ entry ${head.seq + 1}: the head of entry ${head.seq} existed by \\S+Z, says CN=geo test CA A TSA, O=geo tests \\(${server.url}\\), under the CA pinned at stamp time`));
    const caFile = join(tmp(), 'a-ca.pem');
    writeFileSync(caFile, A.caPem);
    const mine = JSON.parse((await verify(base.data, ['--tsa-ca', caFile, '--json'])).stdout);
    expect(mine.timestamps).toMatchObject({ ok: true, trust: 'tsa-ca', stamps: [{ ok: true, trust: 'tsa-ca', seq: head.seq }] });
    // A CA that is not this TSA's: the token is named, not trusted.
    const bFile = join(tmp(), 'b-ca.pem');
    writeFileSync(bFile, makeAuthority({ name: 'geo test CA B' }).caPem);
    const untrusted = await verify(base.data, ['--tsa-ca', bFile]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toMatch(/✗ entry \d+ \(head_stamped\), the token from \S+: signed by an untrusted TSA: CN=geo test CA A TSA, O=geo tests/);
  }, 30_000);

  it('offline: queued (exit 0, said), nothing logged; --pending sends it once the TSA answers', async () => {
    const data = tmp('geo-stamp-offline-');
    cpSync(base.data, data, { recursive: true });
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((ok) => probe.close(() => ok()));
    const url = `http://127.0.0.1:${port}/tsa`;
    const config = tmp('geo-stamp-offline-config-');
    expect((await geo(data, ['config', 'set', 'tsa', url], config)).code).toBe(0);
    expect((await geo(data, ['keys', 'signing', 'use', alice.path], config)).code).toBe(0);
    const before = custodyOf(data, base.id).length;
    const r = await geo(data, ['cases', 'stamp', 'Stamped'], config);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^queued +case lc_\w+, head of entry \d+ .*: .*queued, geo cases stamp --pending sends it later\n$/);
    expect(custodyOf(data, base.id)).toHaveLength(before);
    expect(dbRows(data, 'SELECT state, attempts FROM timestamps WHERE tsa = ?', url)).toEqual([{ state: 'pending', attempts: 1 }]);

    const back = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void opensslReply(A, Buffer.concat(chunks)).then((reply) => {
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' });
        res.end(reply);
      }));
    });
    await new Promise<void>((ok) => back.listen(port, '127.0.0.1', ok));
    try {
      const sent = await geo(data, ['cases', 'stamp', '--pending'], config);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toMatch(/^stamped +case lc_\w+, head of entry \d+/);
    } finally {
      await new Promise<void>((ok) => back.close(() => ok()));
    }
    expect(dbRows(data, 'SELECT state FROM timestamps WHERE tsa = ?', url)).toEqual([{ state: 'stamped' }]);
    expect(events(custodyOf(data, base.id)).slice(-2)).toEqual(['head_stamped', 'head_signed']);
    const v = await verify(data);
    expect(v.code, v.stdout + v.stderr).toBe(0);
  }, 30_000);

  it('a TSA whose certificate had expired when it signed: exit 1, named, nothing kept or logged', async () => {
    const E = makeAuthority({ name: 'geo test CA E', tsaValidity: { from: new Date(Date.now() - 730 * DAY), to: new Date(Date.now() - 365 * DAY) } });
    const e = await serveAuthority(E);
    const data = tmp('geo-stamp-expired-');
    cpSync(base.data, data, { recursive: true });
    const before = custodyOf(data, base.id).length;
    try {
      const r = await geo(data, ['cases', 'stamp', 'Stamped', '--tsa', e.url]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^failed +case lc_\w+, .*: TSA certificate expired at genTime: CN=geo test CA E TSA, O=geo tests was valid until/);
      expect(r.stderr).toMatch(/^error: 1 of 1 timestamp failed: /);
    } finally {
      await e.close();
    }
    expect(dbRows(data, 'SELECT state FROM timestamps WHERE tsa = ?', e.url)).toEqual([{ state: 'failed' }]);
    expect(custodyOf(data, base.id)).toHaveLength(before);
  }, 30_000);
});

describe('after stamping, each token swapped in geo.db (sqlite3) is named by geo cases verify', () => {
  /** The stamped head, the data folder copied, and the token (and CA) there replaced. */
  async function swapped(reply: (head: string) => Promise<Buffer>, caPem?: string): Promise<string> {
    const [row] = dbRows<{ head: string }>(base.data, "SELECT head FROM timestamps WHERE case_id = ? AND state = 'stamped'", base.id);
    const data = tmp('geo-stamp-swapped-');
    cpSync(base.data, data, { recursive: true });
    const hex = (await reply(row!.head)).toString('hex');
    execFileSync('sqlite3', [join(data, 'geo.db'), `UPDATE timestamps SET reply = X'${hex}'${caPem ? `, ca_pem = '${caPem}'` : ''} WHERE case_id = '${base.id}' AND state = 'stamped';`]);
    return data;
  }

  it.each([
    ['a token for another head (the same TSA, other bytes)', () => swapped(() => opensslReply(A, query(other))), /token for another head: it stamps sha256 [0-9a-f]{64}, not [0-9a-f]{64}/],
    ['a token by an untrusted TSA (another CA, the same head)', () => swapped((head) => opensslReply(makeAuthority({ name: 'geo test CA M' }), query(head))), /signed by an untrusted TSA: CN=geo test CA M TSA, O=geo tests \(issued by CN=geo test CA M, O=geo tests\) does not chain to a trusted CA \(trusted: CN=geo test CA A, O=geo tests\)/],
    ['an expired TSA chain (its certificate expired before the token\'s time; its CA put beside it)', () => {
      const E = makeAuthority({ name: 'geo test CA X', tsaValidity: { from: new Date(Date.now() - 730 * DAY), to: new Date(Date.now() - 365 * DAY) } });
      return swapped((head) => opensslReply(E, query(head)), E.caPem);
    }, /TSA certificate expired at genTime: CN=geo test CA X TSA, O=geo tests was valid until/],
  ])('%s', async (_name, make, line) => {
    const data = await make();
    const r = await verify(data);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`✗ entry \\d+ \\(head_stamped\\), the token from http://127\\.0\\.0\\.1:\\d+/tsa: ${line.source}`));
    expect(r.stderr).toMatch(/^error: case lc_\w+ does not verify: entry \d+ \(head_stamped\)/);
  }, 30_000);
});
