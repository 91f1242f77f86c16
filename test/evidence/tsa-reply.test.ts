/**
 * What a TSA may answer instead of a good token, over real HTTP from a node:http server on loopback
 * (test/helpers/tsa.ts): a truncated or garbage body, a web page, an error status, a redirect, a
 * refusal in RFC 3161's own words, a replayed reply; and a TSA that cannot be reached or never
 * answers. Each is one clear error (a TimestampError with a one-line message, or the transport's
 * NetworkError / TimeoutError that mean "keep the request pending"), never a stack.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, TimeoutError } from '../../src/api/errors.js';
import { UsageError } from '../../src/errors.js';
import { TimestampError, isUnreachable, requestTimestamp } from '../../src/evidence/timestamp.js';
import { type Authority, type ServeOptions, makeAuthority, opensslReply, serveAuthority } from '../helpers/tsa.js';

const HEAD = createHash('sha256').update('head').digest();

let ca: Authority;
beforeAll(() => {
  ca = makeAuthority({ key: 'ec' });
});

/** The error requestTimestamp ends with, against a TSA serving `opts`. */
async function errorFrom(opts: ServeOptions): Promise<Error> {
  const server = await serveAuthority(ca, opts);
  try {
    await requestTimestamp(server.url, HEAD, { trusted: ca.caPem });
  } catch (err) {
    return err as Error;
  } finally {
    await server.close();
  }
  throw new Error('the request succeeded');
}

function oneClearLine(err: Error, failure: string, message: RegExp): void {
  expect(err).toBeInstanceOf(TimestampError);
  expect((err as TimestampError).failure).toBe(failure);
  expect(err.message).toMatch(message);
  expect(err.message).not.toMatch(/\n|\bat .*\.(ts|js):\d+/);
}

describe('replies that are not a token', () => {
  it.each([
    ['a reply cut to half its length', (r: Buffer) => r.subarray(0, r.length >> 1), /^unreadable timestamp reply: the timestamp reply is not DER \(.+\)$/],
    ['an empty body', () => Buffer.alloc(0), /^unreadable timestamp reply: the timestamp reply is empty$/],
    ['garbage bytes', () => Buffer.from('hello, not DER at all'), /^unreadable timestamp reply: the timestamp reply (is not DER|has \d+ bytes after its end)/],
    ['a reply with bytes after its end', (r: Buffer) => Buffer.concat([r, Buffer.from([0, 0])]), /^unreadable timestamp reply: the timestamp reply has 2 bytes after its end$/],
    ['another DER value (a certificate)', () => Buffer.from(ca.caPem.replace(/-----[A-Z ]+-----|\s+/g, ''), 'base64'), /^unreadable timestamp reply: the timestamp reply is not well formed \(/],
  ])('%s: one clear "unreadable timestamp reply" line', async (_what, answer, message) => {
    oneClearLine(await errorFrom({ answer }), 'unreadable', message);
  });

  it('a web page (text/html, 200): named by its Content-Type, with a hint', async () => {
    const err = await errorFrom({ answer: () => Buffer.from('<html>Welcome to our TSA</html>'), contentType: 'text/html; charset=utf-8' });
    oneClearLine(err, 'unreadable', /^unreadable timestamp reply: 127\.0\.0\.1:\d+ answered text\/html, not application\/timestamp-reply$/);
    expect((err as TimestampError).hint).toMatch(/URL of the TSA itself/);
  });

  it('an HTTP error status: "the TSA refused the request", with its words made safe for a terminal', async () => {
    const err = await errorFrom({ status: 503, contentType: 'text/plain', answer: () => Buffer.from('overloaded\u001b[31m, try later\n') });
    oneClearLine(err, 'refused', /^the TSA refused the request: 127\.0\.0\.1:\d+ answered HTTP 503: overloaded \[31m, try later$/);
  });

  it('a body cut off mid-transfer (the connection drops before Content-Length): "cut off", not half a token', async () => {
    const reply = await opensslReply(ca, Buffer.from(execFileSync('openssl', ['ts', '-query', '-digest', HEAD.toString('hex'), '-sha256', '-cert'])));
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': reply.length });
      res.write(reply.subarray(0, 100), () => res.socket?.destroy());
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const err = await requestTimestamp(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, HEAD).catch((e: Error) => e);
      oneClearLine(err as Error, 'unreadable', /^unreadable timestamp reply: the reply from 127\.0\.0\.1:\d+ was cut off after 100 bytes$/);
    } finally {
      server.close();
    }
  });

  it('a redirect is not followed', async () => {
    const server = createServer((_req, res) => res.writeHead(302, { location: 'https://elsewhere.example/tsr' }).end());
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const err = await requestTimestamp(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, HEAD).catch((e: Error) => e);
      oneClearLine(err as Error, 'refused', /answered 302 \(a redirect to https:\/\/elsewhere\.example\/tsr\); geo does not follow redirects$/);
    } finally {
      server.close();
    }
  });

  it('a refusal in RFC 3161 terms (PKIStatus rejection, badAlg): its status, failure bits and words', async () => {
    // openssl's own TSA rejects a SHA-1 imprint (its config allows sha256, sha384, sha512).
    const query = join(ca.dir, 'sha1.tsq');
    execFileSync('openssl', ['ts', '-query', '-digest', 'a'.repeat(40), '-sha1', '-out', query], { stdio: 'ignore' });
    const rejection = await opensslReply(ca, readFileSync(query));
    oneClearLine(await errorFrom({ answer: () => rejection }), 'refused', /^the TSA refused the request: status rejection \(badAlg\): Message digest algorithm is not supported\.?$/);
  });

  it('a replayed reply (an earlier token over the same head, served again): "nonce mismatch"', async () => {
    let first: Buffer | undefined;
    const server = await serveAuthority(ca, { answer: (reply) => (first ??= reply) });
    try {
      const once = await requestTimestamp(server.url, HEAD, { trusted: ca.caPem });
      expect(once.facts.imprint).toBe(HEAD.toString('hex'));
      const err = await requestTimestamp(server.url, HEAD, { trusted: ca.caPem }).catch((e: Error) => e);
      oneClearLine(err as Error, 'nonce-mismatch', /^nonce mismatch: the reply carries nonce [0-9a-f]{16}, the request sent [0-9a-f]{16} \(a replayed or misdirected reply\)$/);
    } finally {
      await server.close();
    }
  });
});

describe('a TSA that is not there', () => {
  it('connection refused: a NetworkError that isUnreachable() reads as "keep it pending"', async () => {
    const server = createServer();
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((ok) => server.close(() => ok()));
    const err = await requestTimestamp(`http://127.0.0.1:${port}/tsr`, HEAD).catch((e: Error) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(`cannot connect to 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(isUnreachable(err)).toBe(true);
  });

  it('no answer within the timeout: a TimeoutError, also "keep it pending"', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const err = await requestTimestamp(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, HEAD, { timeoutMs: 300 }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(TimeoutError);
      expect(isUnreachable(err)).toBe(true);
      expect(isUnreachable(new TimestampError('refused'))).toBe(false);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('plain http to a host that is not loopback is refused before anything is sent', async () => {
    const err = await requestTimestamp('http://tsa.example.org/tsr', HEAD).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('plain http is allowed only for loopback hosts, not tsa.example.org');
  });
});

