/**
 * What undici's HTTP/2 client gets for `require('node:http2')` in the build (package.json's build
 * script aliases node:http2 to this file; undici's client-h2.js is its only user).
 *
 * Why: client-h2.js loads node:http2 when undici loads, and node:http2 pulls in tls and crypto:
 * ~9 ms of every API command's start-up on Node 20 (bench/startup.mjs `credits --json`
 * budget), for a protocol the client never speaks (undici uses HTTP/2 only with `allowH2`, which
 * the client does not set). Here the module loads on the first connect() instead.
 *
 * client-h2.js reads these constants once, at load; they are HTTP/2's own names and nghttp2's
 * error codes (RFC 9113 sections 8.3 and 7), and test/build/lazy-builtins.test.ts checks every one
 * against the real module.
 */
import type * as Http2 from 'node:http2';
import { lazyBuiltin } from './builtin.js';

export const constants = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
} as const;

const load = lazyBuiltin<typeof Http2>('node:http2');

export const connect: typeof Http2.connect = ((...args: Parameters<typeof Http2.connect>) => load().connect(...args)) as typeof Http2.connect;
