/**
 * geo api against a hostile server (the independent fake, test/tolerant/fake-server.ts): a body
 * and headers carrying terminal escape sequences (colour, OSC 52 clipboard, OSC 8 links), bidi
 * overrides and carriage returns, and a server that echoes the key. Into a pipe the body is the
 * server's bytes (so `| jq` sees them); on a terminal nothing of it can drive the terminal; the key
 * is masked everywhere.
 */
import { describe, expect, it } from 'vitest';
import { type FakeApi, ok, withFakeApi } from '../tolerant/fake-server.js';
import { type RunOptions, runCli } from '../helpers/run-cli.js';

let api: FakeApi;
withFakeApi((a) => (api = a));

const KEY = 'orca_live_hostiletestkey42';
const geo = (argv: string[], opts: RunOptions = {}) => runCli(argv, { sleep: async () => {}, ...opts, env: { GEO_BASE_URL: api.url, GEO_API_KEY: KEY, ...opts.env } });

const ESC = '\u001b';
const HOSTILE = `{"success":true,"note":"${ESC}[31mred${ESC}[0m ${ESC}]52;c;ZWNobyBwd25lZA==\u0007 ${ESC}]8;;https://evil.example\u0007link${ESC}]8;;\u0007 \u202eevil\u202c \u009b2J"}\r\n`;
// Anything that can move the cursor, recolour, set the clipboard or reorder text.
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('geo api: a hostile body', () => {
  it('piped: stdout is the body byte for byte', async () => {
    api.answers.credits = ok(HOSTILE);
    const r = await geo(['api', 'credits']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(HOSTILE);
  });

  it('on a terminal: JSON is escaped to \\u escapes (still the same JSON value), nothing raw reaches the screen', async () => {
    api.answers.credits = ok(HOSTILE);
    const r = await geo(['api', 'credits'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(r.stdout).toContain('\\u001b[31mred');
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(HOSTILE.replace(/\u001b/g, '\\u001b').replace(/\u0007/g, '\\u0007').replace(/\u009b/g, '\\u009b')));
  });

  it('on a terminal, a text body and -i headers are escaped visibly too', async () => {
    api.answers.credits = ok(`plain ${ESC}[2J\r${ESC}]52;c;eA==\u0007 text`, 200, { 'content-type': 'text/plain', 'x-note': `a\u009b31mb` });
    const r = await geo(['api', '-i', 'credits'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(r.stdout).toContain('plain \\x1b[2J\\r\\x1b]52;c;eA==\\x07 text\n');
    expect(r.stdout).toContain('x-note: a\\x9b31mb\n');
  });

  it('an error body is printed (escaped on a terminal) and the exit code follows its status', async () => {
    api.answers.credits = { status: 429, body: `{"success":false,"code":"rate_limited","message":"${ESC}]52;c;eA==\u0007slow down"}`, headers: { 'retry-after': '0' } };
    const r = await geo(['api', 'credits'], { tty: true });
    expect(r.code).toBe(5);
    expect(api.count('credits')).toBe(5); // 1 + the 4 retries a 429 gets
    expect(r.stdout + r.stderr).not.toContain(`${ESC}]52`);
    expect(r.stdout).toContain('"rate_limited"');
  });
});

describe('geo api: a server that echoes the key', () => {
  it('the key is masked in the body and in -i headers, piped or not', async () => {
    api.answers.credits = ok(`{"you_sent":"Bearer ${KEY}"}`, 200, { 'x-echo': KEY });
    for (const tty of [false, true]) {
      const r = await geo(['api', '-i', '--debug', 'credits'], { tty });
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(KEY);
      expect(r.stdout).toContain('"you_sent":"Bearer [REDACTED]"');
      expect(r.stdout).toContain('x-echo: [REDACTED]');
    }
  });
});
