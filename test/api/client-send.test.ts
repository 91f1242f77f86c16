/**
 * ApiClient.send (geo api's request): the same attempts as every call, on a scripted server. The
 * keyed class resends one key and the same bytes, the unsafe class does not resend after the
 * server saw the request, an error status comes back as an answer with its typed error, a 2xx body
 * is not parsed, and a path that would leave the origin is refused by the client itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, RequestValidationError } from '../../src/api/errors.js';
import { KEY, type Scripted, errBody, fakeClock, json, makeClient, reset, scriptedServer, text } from './helpers.js';

let srv: Scripted | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('ApiClient.send', () => {
  it('keyed: every attempt carries the same Idempotency-Key and body bytes; the last answer is returned', async () => {
    srv = await scriptedServer([reset, json(503, errBody(503, 'unavailable')), json(200, { ok: 1 })]);
    const body = Buffer.from('{"image_url":"https://example.com/a.jpg"}');
    const res = await makeClient(srv.url, fakeClock()).send({ method: 'POST', path: '/api/v1/geolocate', headers: { 'idempotency-key': 'k-1' }, body, retry: 'keyed', auth: true });
    expect(res).toMatchObject({ status: 200, raw: '{"ok":1}' });
    expect(res.error).toBeUndefined();
    expect(srv.seen.map((s) => [s.headers['idempotency-key'], s.body.toString()])).toEqual([['k-1', body.toString()], ['k-1', body.toString()], ['k-1', body.toString()]]);
    expect(srv.seen.every((s) => s.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('unsafe: a 500 is not resent; it comes back as the answer with its ApiError', async () => {
    srv = await scriptedServer([json(500, errBody(500, 'server_error'))]);
    const res = await makeClient(srv.url, fakeClock()).send({ method: 'POST', path: '/api/v1/cases', body: Buffer.from('{"name":"x"}'), retry: 'unsafe', auth: true });
    expect(srv.seen).toHaveLength(1);
    expect(res.status).toBe(500);
    expect(res.error).toBeInstanceOf(ApiError);
    expect(JSON.parse(res.raw)).toMatchObject({ code: 'server_error' });
  });

  it('a 2xx body is returned as received, JSON or not; no key without auth; the caller\'s Accept and Content-Type win', async () => {
    srv = await scriptedServer([text(200, 'not json at all')]);
    const res = await makeClient(srv.url, fakeClock()).send({ method: 'PUT', path: '/x?y=1', headers: { accept: 'text/plain', 'content-type': 'text/plain' }, body: Buffer.from('hi'), retry: 'unsafe', auth: false });
    expect(res.raw).toBe('not json at all');
    expect(srv.seen[0]).toMatchObject({ method: 'PUT', url: '/x?y=1' });
    expect(srv.seen[0]!.headers).toMatchObject({ accept: 'text/plain', 'content-type': 'text/plain', 'content-length': '2' });
    expect(srv.seen[0]!.headers.authorization).toBeUndefined();
  });

  it.each(['@evil.example/x', 'x'])('refuses the path %s, which does not start with /, before sending', async (path) => {
    srv = await scriptedServer([json(200, {})]);
    await expect(makeClient(srv.url, fakeClock()).send({ method: 'GET', path, retry: 'idempotent', auth: true })).rejects.toBeInstanceOf(RequestValidationError);
    expect(srv.seen).toHaveLength(0);
  });

  it('a path starting with // stays a path on the base URL\'s origin', async () => {
    srv = await scriptedServer([json(200, {})]);
    await expect(makeClient(srv.url, fakeClock()).send({ method: 'GET', path: '//evil.example/x', retry: 'idempotent', auth: true })).resolves.toMatchObject({ status: 200 });
    expect(srv.seen[0]!.url).toBe('//evil.example/x');
  });
});
