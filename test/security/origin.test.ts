/**
 * Issue 7, security: the key goes to the configured origin only. A redirect (301/302/303/307/308) to
 * another origin is refused (exit 6) and that origin receives nothing; a plain-http base URL that is
 * not loopback is refused before any socket is opened (exit 2), from a flag, the environment or a
 * profile on disk. Sockets are counted by spying on net.Socket#connect, which every connection
 * undici makes goes through (the loopback control case shows the spy does see them).
 */
import net from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const KEY = 'orca_live_RedirectS3cr3t9x7Q';
const PARIS = join(FIXTURES, 'paris.jpg');
const sb = withSandbox();

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

let other: { server: Server; url: string; hits: number };
let redirector: { server: Server; url: string };
beforeAll(async () => {
  // `localhost` vs `127.0.0.1`: a different origin on the same machine, so the test needs no network.
  const o = await listen((req, res) => {
    other.hits++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{"balance":1,"api_balance":1,"total_available":1,"total_purchased":null,"total_used":null}}');
  });
  other = { ...o, url: o.url.replace('127.0.0.1', 'localhost'), hits: 0 };
  redirector = await listen((req, res) => {
    req.resume();
    const status = Number(/^\/r(\d{3})/.exec(req.url ?? '')?.[1] ?? 302);
    res.writeHead(status, { location: `${other.url}${(req.url ?? '/').replace(/^\/r\d{3}/, '')}` }).end();
  });
});
afterAll(async () => {
  await new Promise((r) => other.server.close(r));
  await new Promise((r) => redirector.server.close(r));
});

const REDIRECTS = [301, 302, 303, 307, 308];
const CALLS: string[][] = [['credits'], ['usage'], ['analyses'], ['cases', 'list'], ['cases', 'create', '--name', 'x'], ['keys', 'test'], ['locate', PARIS], ['docs', '--html', join(tmpdir(), 'geo-docs-redirect.html')]];

describe(`redirects to another origin are refused (${REDIRECTS.length * CALLS.length} cases)`, () => {
  for (const status of REDIRECTS) {
    it(`${status} on every endpoint: exit 6, and the other origin receives nothing`, async () => {
      for (const argv of CALLS) {
        const r = await runCli(argv, { env: { GEO_API_KEY: KEY, GEO_BASE_URL: `${redirector.url}/r${status}` }, sleep: async () => {} });
        expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(6);
        expect(r.stderr).toMatch(/redirect/);
        expect(r.stderr + r.stdout).not.toContain('S3cr3t');
      }
      expect(other.hits).toBe(0);
    });
  }
});

describe('plain http is refused before any socket unless loopback (9 cases)', () => {
  let connects: ReturnType<typeof vi.spyOn>;
  beforeAll(() => {
    connects = vi.spyOn(net.Socket.prototype, 'connect');
  });
  afterEach(() => connects.mockClear());
  afterAll(() => connects.mockRestore());

  const refused = async (argv: string[], env: Record<string, string>, stdin?: string) => {
    const r = await runCli(argv, { env: { GEO_API_KEY: KEY, ...env }, ...(stdin ? { stdin } : {}) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/plain http is allowed only for loopback hosts/);
    expect(r.stderr).not.toContain('S3cr3t');
    expect(connects).not.toHaveBeenCalled();
  };
  const hosts = ['http://example.invalid', 'http://10.255.255.1:4010', 'http://localhost.example.com', 'http://127.0.0.1.nip.io'];
  for (const base of hosts) it(`--base-url ${base}`, () => refused(['--base-url', base, 'credits'], {}));
  it('GEO_BASE_URL, with a POST that would carry an image', () => refused(['locate', PARIS], { GEO_BASE_URL: 'http://example.invalid' }));
  it('a profile on disk with a plain-http base URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-http-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ active: 'p', profiles: { p: { key: KEY, baseUrl: 'http://example.invalid' } }, defaults: {} }), { mode: 0o600 });
    await refused(['keys', 'test'], { GEO_CONFIG_DIR: dir, GEO_API_KEY: '' });
  });
  it('keys add --base-url http://… refuses before verifying the key', () => refused(['keys', 'add', 'w', '--stdin', '--base-url', 'http://example.invalid'], {}, KEY));
  it('docs --html (no key) is refused all the same', () => refused(['docs', '--html', join(tmpdir(), 'geo-docs-http.html')], { GEO_BASE_URL: 'http://example.invalid' }));
  it('control: loopback http is allowed and the spy sees its socket', async () => {
    const r = await runCli(['credits'], { env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url } });
    expect(r.code, r.stderr).toBe(0);
    expect(connects).toHaveBeenCalled();
  });
});
