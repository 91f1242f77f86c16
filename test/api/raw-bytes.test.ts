/**
 * Issue 21 at the client level: every 2xx body is kept byte for byte beside its text (`rawBytes`
 * on the response, on ContractError, and on an error carried by a 2xx), and interim 1xx answers
 * are read past on both transports (node:http for requests with a body, undici for the others).
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ApiError, ContractError } from '../../src/api/errors.js';
import { textOf } from '../../src/api/decode.js';
import { httpAnswer, rawServer } from '../tolerant/raw-server.js';
import { OK_D1, REQ, fakeClock, json, makeClient, perTest, scriptedServer } from './helpers.js';

const t = perTest();

describe('rawBytes: the body as received', () => {
  it('a BOM and bytes that are not UTF-8 are in rawBytes; raw is the text, escaped where bytes are not UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(OK_D1).replace('Paris', 'Par\u0000s'), 'utf8')]);
    bytes[bytes.indexOf(0)] = 0xff;
    t.server = await scriptedServer([(res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(bytes); }]);
    t.client = makeClient(t.server.url, fakeClock());
    const res = await t.client.geolocate(REQ);
    expect(res.rawBytes.equals(bytes)).toBe(true);
    expect(res.raw).toContain('"Par\\udcffs"');
    expect(res.deviations).toEqual(['body: starts with a UTF-8 byte order mark', expect.stringMatching(/^body: not valid UTF-8 \(1 byte/)]);
  });

  it('gzip with Content-Encoding: rawBytes are the entity once decoded', async () => {
    const body = Buffer.from(JSON.stringify(OK_D1));
    t.server = await scriptedServer([(res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }); res.end(gzipSync(body)); }]);
    t.client = makeClient(t.server.url, fakeClock());
    expect((await t.client.geolocate(REQ)).rawBytes.equals(body)).toBe(true);
  });

  it('an unreadable 2xx: ContractError keeps the bytes', async () => {
    const bytes = Buffer.from([0x3c, 0x68, 0x31, 0x3e, 0xe9, 0x3c]);
    t.server = await scriptedServer([(res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(bytes); }]);
    t.client = makeClient(t.server.url, fakeClock(), { retry: { max: { bad_body: 0 } } });
    const err = (await t.client.geolocate(REQ).catch((e: unknown) => e)) as ContractError;
    expect(err).toBeInstanceOf(ContractError);
    expect(err.rawBytes?.equals(bytes)).toBe(true);
    expect(err.raw).toBe(textOf(bytes));
  });

  it('a 2xx carrying an error: the ApiError keeps that answer and the deviation naming it', async () => {
    const body = { success: false, code: 'forbidden', message: 'no' };
    t.server = await scriptedServer([json(200, body)]);
    t.client = makeClient(t.server.url, fakeClock());
    const err = (await t.client.geolocate(REQ).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(403);
    expect(err.answer).toMatchObject({ status: 200, raw: JSON.stringify(body), deviations: ['status: 200 carrying an error body "forbidden", read as 403'] });
    expect(err.answer?.rawBytes.equals(Buffer.from(JSON.stringify(body)))).toBe(true);
  });
});

describe('interim answers, both transports', () => {
  it.each([100, 102, 103])('POST (node:http) and GET (undici): %s before the 200 is read past', async (code) => {
    const raw = await rawServer({
      answer: (_req, _n, socket) => {
        socket.write(`HTTP/1.1 ${code} Interim\r\n\r\n`);
        socket.end(httpAnswer(200, JSON.stringify(OK_D1)));
      },
    });
    const client = makeClient(raw.url, fakeClock(), { retry: { max: { reset: 0 } } });
    try {
      const post = await client.geolocate(REQ);
      expect(post.status).toBe(200);
      expect(post.rawBytes.equals(Buffer.from(JSON.stringify(OK_D1)))).toBe(true);
      expect(raw.seen).toHaveLength(1);
      // undici reads 102 and 103 past; a 100 to a request without a body is not one it can take.
      if (code !== 100) expect((await client.usage().catch((e: unknown) => e)) instanceof ApiError).toBe(false);
    } finally {
      await client.close();
      await raw.close();
    }
  });
});
