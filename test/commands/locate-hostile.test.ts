/**
 * A hostile server: terminal escapes in every string of an otherwise valid answer. The view shows
 * them escaped; --json stays parseable and equal in value, with C1 and bidi characters as \u escapes.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { IMG } from './locate-helpers.js';

const ESC = String.fromCharCode(27);
const C1 = String.fromCharCode(0x9b);
const BIDI = '\u202e';
// Raw C1 and bidi are legal inside JSON strings; ESC arrives as the \u001b escape JSON requires.
const evil = `${ESC}]52;c;ZXZpbA==${String.fromCharCode(7)}${ESC}[2J ${C1}31m ${BIDI}gpj.exe`;
const body = {
  success: true,
  analysis_id: evil,
  location: { latitude: 1.5, longitude: 2.5, country: evil, city: evil, neighborhood: evil, address: evil },
  confidence: 0.5,
  reasoning: evil,
  model: evil,
  depth: 1,
  timing_ms: 10,
};
const raw = JSON.stringify(body).replaceAll('\\u009b', C1); // JSON.stringify leaves C1/bidi raw already

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': evil.replace(/[^\x20-\x7e]/g, '?') });
      res.end(raw);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const run = (argv: string[], tty = false) => runCli(argv, { tty, env: { GEO_API_KEY: 'orca_test_key_1234', GEO_BASE_URL: url } });

describe('hostile server strings', () => {
  it('the view escapes ESC, OSC 52, C1 and bidi on a terminal and when piped', async () => {
    for (const tty of [false, true]) {
      const r = await run(['locate', `${IMG}paris.jpg`], tty);
      expect(r.code).toBe(0);
      // Our own colour (SGR) codes are the only escapes allowed on a terminal.
      const ours = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');
      for (const bad of [ESC, C1, BIDI]) expect(r.stdout.replace(ours, '')).not.toContain(bad);
      expect(r.stdout).toContain('\\x1b]52;c;ZXZpbA==\\x07');
    }
  });
  it('--json keeps the value but writes C1 and bidi as \\u escapes', async () => {
    const r = await run(['locate', `${IMG}paris.jpg`, '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(C1);
    expect(r.stdout).not.toContain(BIDI);
    expect(r.stdout).not.toContain(ESC);
    expect(JSON.parse(r.stdout)).toEqual(body);
  });
});
