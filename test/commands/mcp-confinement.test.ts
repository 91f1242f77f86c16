/**
 * Issue 20, item 3: an agent stays inside `geo mcp --allow-dir`, and reports embed only the photo
 * a record vouches for. Driven through the MCP SDK's client against the built binary: writes
 * through dangling and live symlinks, a hard link, `../`, absolute paths and /proc/self/environ
 * are refused with nothing created or changed outside; reads of results files outside are refused;
 * a crafted results file inside the allowed folder that names an outside photo (with an empty
 * sha256, or with the photo's true one) or /proc/self/environ gets no image in html or kmz, and the
 * report says why. A photo inside the allowed folder with its true sha256 is the control: embedded.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forensicBody } from '../export/fixtures.js';
import { unzip } from '../export/unzip.js';
import { type McpServer, callTool, startMcpServer } from '../helpers/mcp-client.js';
import { binEnv } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

interface Failure {
  error?: { code: string; message: string };
  out?: string;
  text?: string;
}

/** The world: an allowed folder (the server's cwd) beside an outside one holding the analyst's secrets. */
const root = tmp('geo-confine-');
const allowed = join(root, 'allowed');
const outside = join(root, 'outside');
mkdirSync(allowed);
mkdirSync(outside);
const SECRET_PHOTO = join(outside, 'secret.jpg');
const INSIDE_PHOTO = join(allowed, 'inside.jpg');
copyFileSync(join(FIXTURES, 'paris.jpg'), SECRET_PHOTO);
copyFileSync(join(FIXTURES, 'tokyo.jpg'), INSIDE_PHOTO);
const EXISTING = join(outside, 'existing.csv');
writeFileSync(EXISTING, 'original\n');
writeFileSync(join(outside, 'results.ndjson'), '');

/** Results in locate's NDJSON form; `input` and `sha256` are whatever the crafter wrote. */
const line = (input: string, sha: string, id: string) => JSON.stringify({ input, sha256: sha, ok: true, result: forensicBody({ analysis_id: id }), exif: null });
writeFileSync(
  join(allowed, 'crafted.ndjson'),
  [
    line(SECRET_PHOTO, '', 'an_empty_sha'),
    line(SECRET_PHOTO, sha256(SECRET_PHOTO), 'an_true_sha_outside'),
    line('/proc/self/environ', 'ab'.repeat(32), 'an_environ'),
    line('../outside/secret.jpg', sha256(SECRET_PHOTO), 'an_dotdot'),
  ].join('\n') + '\n',
);
writeFileSync(join(allowed, 'control.ndjson'), line(INSIDE_PHOTO, sha256(INSIDE_PHOTO), 'an_inside') + '\n');

let server: McpServer;
beforeAll(async () => {
  const env = Object.fromEntries(Object.entries(binEnv({ GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_STATE_DIR: tmp('geo-confine-state-'), GEO_DATA_DIR: tmp('geo-confine-data-') })).filter((e): e is [string, string] => e[1] !== undefined));
  server = await startMcpServer(['--allow-dir', allowed], { cwd: allowed, env });
});
afterAll(async () => server?.close());

const call = (name: string, args: Record<string, unknown>) => callTool<Failure>(server.client, name, args);

describe('geo mcp writes only plain files inside --allow-dir', () => {
  it('a dangling symlink, a live symlink, a hard link, ../, an absolute path and /proc/self/environ are refused; nothing outside is created or changed', async () => {
    symlinkSync(join(outside, 'victim.csv'), join(allowed, 'dangling.csv'));
    symlinkSync(EXISTING, join(allowed, 'live.csv'));
    const twin = join(outside, 'twin.csv');
    writeFileSync(twin, 'twin\n');
    linkSync(twin, join(allowed, 'hard.csv'));
    const outs = ['dangling.csv', join(allowed, 'dangling.csv'), 'live.csv', 'hard.csv', '../outside/new.csv', join(outside, 'abs.csv'), '/proc/self/environ', 'sub/../../outside/x.csv'];
    for (const out of outs) {
      const r = await call('export', { results: ['control.ndjson'], format: 'csv', out });
      expect(r.isError, out).toBe(true);
      expect(r.data.error?.code, `${out}: ${r.text}`).toBe('outside_allowed_dirs');
      expect(r.text, out).toMatch(/nothing (was )?(written|read or sent)/);
    }
    expect(existsSync(join(outside, 'victim.csv'))).toBe(false);
    expect(existsSync(join(outside, 'new.csv'))).toBe(false);
    expect(existsSync(join(outside, 'abs.csv'))).toBe(false);
    expect(existsSync(join(outside, 'x.csv'))).toBe(false);
    expect(readFileSync(EXISTING, 'utf8')).toBe('original\n');
    expect(readFileSync(twin, 'utf8')).toBe('twin\n');
  });

  it('the control: a plain new file inside the folder is written', async () => {
    const r = await call('export', { results: ['control.ndjson'], format: 'csv', out: 'plain.csv' });
    expect(r.isError, r.text).toBe(false);
    expect(readFileSync(join(allowed, 'plain.csv'), 'utf8')).toMatch(/^input,sha256,/);
  });
});

describe('geo mcp reads only inside --allow-dir', () => {
  it('results files by ../, absolute path or /proc/self/environ, and inspect of /proc/self/environ, are refused with nothing returned', async () => {
    for (const results of ['../outside/results.ndjson', join(outside, 'results.ndjson'), '/proc/self/environ']) {
      const r = await call('export', { results: [results], format: 'json' });
      expect(r.data.error?.code, results).toBe('outside_allowed_dirs');
    }
    const inspect = await call('inspect', { files: ['/proc/self/environ'] });
    expect(inspect.data.error?.code).toBe('outside_allowed_dirs');
    // Nothing of the server's environment came back in any message.
    for (const m of server.traffic) expect(m).not.toContain(KEYS.pro);
  });
});

describe('geo mcp fetches only https URLs for an agent', () => {
  it('a plain-http URL on loopback (this machine\'s own services) is refused before anything is fetched or sent', async () => {
    const hits: string[] = [];
    const host = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(readFileSync(join(FIXTURES, 'paris.jpg')));
    });
    await new Promise<void>((ok) => host.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}/photo.jpg`;
      const r = await call('locate', { inputs: [url] });
      expect(r.isError, r.text).toBe(true);
      expect(r.data.error?.code).toBe('url_not_https');
      expect(r.text).toMatch(/nothing was fetched or sent/);
      expect(hits).toEqual([]);
    } finally {
      await new Promise((ok) => host.close(ok));
    }
  });
});

describe('reports and KMZ embed only the image a record vouches for, and only from inside the folder', () => {
  it('html: the crafted records get no image and say why; the control record is embedded', async () => {
    const crafted = await call('export', { results: ['crafted.ndjson'], format: 'html' });
    expect(crafted.isError, crafted.text).toBe(false);
    const html = crafted.data.text!;
    expect(html.match(/<figure class="img">/g) ?? []).toHaveLength(0);
    expect(html).toContain(`left out: the record carries no sha256, so no file can be shown to be its image (${SECRET_PHOTO})`);
    expect(html).toContain(`left out: ${SECRET_PHOTO} is outside the folders this server may read`);
    expect(html).toContain('left out: /proc/self/environ is outside the folders this server may read');
    expect(html).toContain('left out: ../outside/secret.jpg is outside the folders this server may read');
    const control = await call('export', { results: ['control.ndjson'], format: 'html' });
    expect(control.data.text!.match(/<figure class="img">/g) ?? []).toHaveLength(1);
  });

  it('kmz: no files/ entry for the crafted records, each balloon says why; the control has its image', async () => {
    const r = await call('export', { results: ['crafted.ndjson'], format: 'kmz', out: 'crafted.kmz' });
    expect(r.isError, r.text).toBe(false);
    const entries = unzip(readFileSync(join(allowed, 'crafted.kmz')));
    expect(entries.map((e) => e.name)).toEqual(['doc.kml']);
    const kml = entries[0]!.data.toString('utf8');
    expect(kml).toContain('no image: left out: the record carries no sha256');
    expect(kml.match(/is outside the folders this server may read/g)).toHaveLength(3);
    await call('export', { results: ['control.ndjson'], format: 'kmz', out: 'control.kmz' });
    expect(unzip(readFileSync(join(allowed, 'control.kmz'))).map((e) => e.name)).toEqual(['doc.kml', `files/${sha256(INSIDE_PHOTO).slice(0, 16)}.jpg`]);
  });
});
