/**
 * A photo named by its URL is fetched by geo itself: a local photo host (node:http on 127.0.0.1,
 * the loopback plain http is allowed on) serves it behind two redirects, and the independent
 * answer server (charging-server.ts) stands for the service. geo records each hop, the final URL
 * and the sha256 of the bytes the host sent, sends the service image_b64 (never image_url), and
 * sends the host nothing of its own. --service-fetch keeps the old way and says what it loses; a
 * bad URL is one line, exit 2, nothing charged; --keep-original keeps the bytes for a bundle.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvenanceRecord } from '../../src/evidence/records.js';
import { caseId, custodyOf, tmp } from '../cases/helpers.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { runCli } from '../helpers/run-cli.js';
import { dbRows, storedRecords } from '../helpers/store.js';

const KEY = 'orca_live_urlinputsecret';
const PHOTO = readFileSync(new URL('../../fixtures/images/paris.jpg', import.meta.url));
const OTHER = readFileSync(new URL('../../fixtures/images/tokyo.jpg', import.meta.url));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
/** A PNG header claiming 20,000 x 20,000 pixels, and nothing more. */
const BOMB = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from([0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20, 8, 2, 0, 0, 0]), Buffer.alloc(4)]);
/** What the streaming route offers: far more than the 15 MB an image may have. */
const HUGE = 100 * 1024 * 1024;

interface PhotoHost {
  url: string;
  seen: Array<{ path: string; headers: IncomingHttpHeaders }>;
  /** Bytes the streaming route got written before the client hung up. */
  streamed: number;
  close(): Promise<void>;
}

/** The photo's host: /start 301 -> /hop 302 -> /photo.jpg, and the routes a bad URL needs. */
async function startHost(photo: Buffer): Promise<PhotoHost> {
  const host: PhotoHost = { url: '', seen: [], streamed: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    host.seen.push({ path, headers: req.headers });
    if (path === '/start') return res.writeHead(301, { location: '/hop' }).end();
    if (path === '/hop') return res.writeHead(302, { location: `${host.url}/photo.jpg` }).end();
    if (path === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length, etag: '"v1-photo"', 'last-modified': 'Tue, 01 Apr 2025 10:00:00 GMT' }).end(photo);
    if (path === '/page') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><body><img src="/photo.jpg"></body></html>');
    if (path === '/bomb') return res.writeHead(200, { 'content-type': 'image/png' }).end(BOMB);
    if (path === '/away') return res.writeHead(302, { location: 'http://example.com/photo.jpg' }).end();
    if (path === '/declared') {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(50_000_000) });
      return res.write(photo.subarray(0, 64));
    }
    if (path === '/huge') {
      // A JPEG's start, then zeros for as long as the client reads; no length declared.
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      const chunk = Buffer.alloc(64 * 1024);
      let first = true;
      const pump = () => {
        while (host.streamed < HUGE && !res.destroyed) {
          const part = first ? Buffer.concat([photo.subarray(0, 64), chunk]) : chunk;
          first = false;
          host.streamed += part.length;
          if (!res.write(part)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      res.on('close', () => undefined);
      return pump();
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such photo');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return host;
}

let service: ChargingServer;
let host: PhotoHost;

beforeAll(async () => {
  service = await startChargingServer({ delayMs: 0 });
  host = await startHost(PHOTO);
});
afterAll(async () => {
  await host.close();
  await service.close();
});

/** geo with its own data folder, the answer server as the service and a live key. */
function geoIn(data = tmp('geo-url-data-')) {
  const run = (argv: string[]) => runCli(argv, { env: { GEO_DATA_DIR: data, GEO_STATE_DIR: tmp('geo-url-state-'), GEO_BASE_URL: service.url, GEO_API_KEY: KEY, CI: undefined } });
  return { data, run };
}

const only = (data: string): ProvenanceRecord => {
  const recs = storedRecords(data);
  expect(recs).toHaveLength(1);
  return recs[0]!;
};

describe('a URL input fetched by geo', () => {
  it('records each hop, the final URL and the sha256 of the bytes the host sent; the service gets image_b64', async () => {
    const { data, run } = geoIn();
    const before = service.sent.length;
    host.seen.length = 0;
    const r = await run(['locate', `${host.url}/start`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(host.seen.map((s) => s.path)).toEqual(['/start', '/hop', '/photo.jpg']);
    const rec = only(data);
    expect(rec.fetched).toEqual({
      url: `${host.url}/start`,
      redirects: [{ url: `${host.url}/start`, status: 301, location: '/hop' }, { url: `${host.url}/hop`, status: 302, location: `${host.url}/photo.jpg` }],
      final_url: `${host.url}/photo.jpg`, retrieved_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), status: 200,
      content_type: 'image/jpeg', content_length: PHOTO.length, etag: '"v1-photo"', last_modified: 'Tue, 01 Apr 2025 10:00:00 GMT',
      sha256: sha(PHOTO), size: PHOTO.length,
    });
    // The same path as a file: hashed, its metadata stripped before upload, its EXIF a witness.
    expect(rec.input).toMatchObject({ path: `${host.url}/start`, sha256: sha(PHOTO) });
    expect(rec.request?.image_url).toBeUndefined();
    expect(rec.sent?.sha256).not.toBe(sha(PHOTO));
    expect(rec.exif?.verdict).toBeDefined();
    const sent = service.sent.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.image_url).toBeUndefined();
    expect(sent[0]!.sha256).toBe(rec.sent?.sha256);
    const shown = await run(['history', 'show', sha(PHOTO).slice(0, 12)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`fetched from +${host.url}/start\\n +redirect +301 → /hop\\n +redirect +302 → ${host.url}/photo.jpg\\n +final URL +${host.url}/photo.jpg`));
    expect(shown.stdout).toContain(`sha256         ${sha(PHOTO)} (${PHOTO.length} bytes as received)`);
  }, 30_000);

  it('the photo host never sees the API key or any header of geo', async () => {
    host.seen.length = 0;
    const r = await geoIn().run(['locate', `${host.url}/start`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(host.seen).toHaveLength(3);
    for (const { headers } of host.seen) {
      expect(JSON.stringify(headers)).not.toContain(KEY);
      expect(Object.keys(headers).filter((h) => /authorization|api-key|idempotency|cookie|^x-|geo/i.test(h))).toEqual([]);
      expect(headers['user-agent'] ?? '').not.toMatch(/geo/i);
    }
  }, 30_000);

  it('--service-fetch sends image_url as before, touches nothing of the host, and says what is lost', async () => {
    const { data, run } = geoIn();
    const before = service.sent.length;
    host.seen.length = 0;
    const r = await run(['locate', `${host.url}/photo.jpg`, '--service-fetch', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('--service-fetch: the service fetches the URL itself, so geo records no sha256 of what was located, no EXIF witness, no metadata stripping and no perceptual hash');
    expect(service.sent.slice(before).map((s) => s.image_url)).toEqual([`${host.url}/photo.jpg`]);
    expect(host.seen).toEqual([]);
    const rec = only(data);
    expect(rec.fetched).toBeUndefined();
    expect(rec.request?.image_url).toBe(`${host.url}/photo.jpg`);
  }, 30_000);
});

describe('a resumed batch reads its URLs the way it first did', () => {
  it('--resume with --service-fetch against a journal whose URLs geo fetched is refused', async () => {
    const { run } = geoIn();
    const journal = join(tmp('geo-url-journal-'), 'j.ndjson');
    expect((await run(['locate', `${host.url}/start`, `${host.url}/photo.jpg`, '--journal', journal])).code).toBe(0);
    const r = await run(['locate', '--resume', journal, '--service-fetch']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${journal}: its URLs were fetched by geo; its idempotency keys can only be resent the same way — hint: drop --service-fetch to continue it`);
  }, 30_000);
});

describe('a URL that gives no photo: one line, exit 2, nothing charged', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['answers 404', '/missing', /: the photo host answered HTTP 404; nothing was sent — hint: /],
    ['answers a web page', '/page', /: the photo host answered a web page \(text\/html; charset=utf-8\), not an image; nothing was sent/],
    ['redirects to plain http on another host', '/away', /: redirected \(302\) to http:\/\/example\.com\/photo\.jpg: geo follows https only, or plain http to this machine; nothing was sent/],
    ['serves a header claiming more pixels than geo decodes', '/bomb', /: the image claims 20,000 x 20,000 pixels \(400 MP\), above the 120 MP geo decodes locally \(a decompression bomb\?\); nothing was sent/],
    ['declares more than an image may have', '/declared', /: the photo host declares 50,000,000 bytes, over the 15,000,000 of one image \(nothing of it was read\); nothing was sent/],
  ];
  for (const [what, path, line] of cases) {
    it(`a URL that ${what}`, async () => {
      const charged = service.charges();
      const before = service.sent.length;
      const r = await geoIn().run(['locate', `${host.url}${path}`]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(line);
      expect(service.charges()).toBe(charged);
      expect(service.sent.length).toBe(before);
    }, 30_000);
  }

  it('a body over the limit is refused before it is all read', async () => {
    host.streamed = 0;
    const before = service.sent.length;
    const r = await geoIn().run(['locate', `${host.url}/huge`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/: more than 15,000,000 bytes, over the limit of one image \(reading stopped there\); nothing was sent/);
    expect(host.streamed).toBeLessThan(HUGE);
    expect(service.sent.length).toBe(before);
  }, 30_000);
});

describe('--keep-original', () => {
  it('keeps the fetched bytes in kept_files; a case bundle --with-originals carries them after the host is gone', async () => {
    const own = await startHost(OTHER);
    const { data, run } = geoIn();
    expect((await run(['cases', 'create', '--name', 'Web', '--local'])).code).toBe(0);
    const r = await run(['locate', `${own.url}/start`, '--case', 'Web', '--keep-original', '--json']);
    expect(r.code, r.stderr).toBe(0);
    await own.close();
    expect(dbRows<{ sha256: string; size: number; media_type: string }>(data, 'SELECT sha256, size, media_type FROM kept_files')).toEqual([{ sha256: sha(OTHER), size: OTHER.length, media_type: 'image/jpeg' }]);
    // The case's input_hashed names the URL and carries the fetch; cases show lists it under the input.
    const hashed = custodyOf(data, caseId(data, 'Web')).find((e) => e.event === 'input_hashed')!;
    expect(hashed.data.input).toEqual({ path: `${own.url}/start`, sha256: sha(OTHER), size: OTHER.length });
    expect((hashed.data.fetched as { redirects: Array<{ status: number }>; sha256: string }).redirects.map((x) => x.status)).toEqual([301, 302]);
    const shown = JSON.parse((await run(['cases', 'show', 'Web', '--json'])).stdout) as { results: Array<{ fetched?: { final_url: string; sha256: string } }> };
    expect(shown.results[0]!.fetched).toMatchObject({ final_url: `${own.url}/photo.jpg`, sha256: sha(OTHER) });
    const out = tmp('geo-url-bundle-');
    const zip = join(out, 'web.zip');
    const b = await run(['cases', 'bundle', 'Web', zip, '--with-originals']);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toContain('1 original,');
    execFileSync('unzip', ['-q', zip, '-d', join(out, 'x')]);
    expect(sha(readFileSync(join(out, 'x', 'originals', `${sha(OTHER)}.jpg`)))).toBe(sha(OTHER));
    const v = await run(['cases', 'verify', zip]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    // The case's report and the bundle's report.html list the fetch under the sources.
    const md = await run(['cases', 'report', 'Web', '--format', 'md']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(`- fetched from: ${own.url}/start`);
    expect(md.stdout).toContain('- redirect: 301 → /hop');
    expect(md.stdout).toContain(`- sha256: ${sha(OTHER)} (${OTHER.length} bytes as received)`);
    const html = readFileSync(join(out, 'x', 'report.html'), 'utf8');
    expect(html).toContain(`<dt>fetched from</dt><dd>${own.url}/start</dd>`);
    expect(html).toContain('<dt>final URL</dt>');
  }, 60_000);

  it("keeps a file's bytes too: a bundle --with-originals carries them once the file is gone", async () => {
    const { data, run } = geoIn();
    const photo = join(tmp('geo-url-file-'), 'harbour.jpg');
    const bytes = readFileSync(new URL('../../fixtures/images/sydney.jpg', import.meta.url));
    writeFileSync(photo, bytes);
    expect((await run(['cases', 'create', '--name', 'Files', '--local'])).code).toBe(0);
    const r = await run(['locate', photo, '--case', 'Files', '--keep-original', '--json']);
    expect(r.code, r.stderr).toBe(0);
    rmSync(photo);
    expect(dbRows<{ sha256: string }>(data, 'SELECT sha256 FROM kept_files').map((k) => k.sha256)).toEqual([sha(bytes)]);
    const out = tmp('geo-url-bundle-');
    const b = await run(['cases', 'bundle', 'Files', join(out, 'files.zip'), '--with-originals']);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).not.toContain('original left out');
    execFileSync('unzip', ['-q', join(out, 'files.zip'), '-d', join(out, 'x')]);
    expect(sha(readFileSync(join(out, 'x', 'originals', `${sha(bytes)}.jpg`)))).toBe(sha(bytes));
  }, 60_000);

  it('is refused with --no-store, which keeps the store out of it', async () => {
    const r = await geoIn().run(['locate', `${host.url}/start`, '--keep-original', '--no-store']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --keep-original keeps the photos in the store, which --no-store keeps out of it/);
  });
});
