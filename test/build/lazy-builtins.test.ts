/**
 * src/lazy/ stands in for node built-ins that dependencies load eagerly (package.json's build
 * aliases them): node:http2 for undici's client-h2.js, which reads its constants at load and calls
 * connect() only for HTTP/2; node:child_process for commander, which spawns only for executable
 * subcommands (geo spawns only for `docs --open`). Constants must be node's, functions must be
 * node's, loaded on first use, and the built CLI must not load the real modules on its common paths.
 */
import * as http2 from 'node:http2';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as lazyChildProcess from '../../src/lazy/child-process.js';
import * as lazy from '../../src/lazy/http2.js';
import { currentTarget } from '../../src/build/libsql/neon-load.js';
import { spawnGeo } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();

describe('lazy stand-ins for node:http2 and node:child_process (build aliases)', () => {
  it('every constant undici reads equals node:http2.constants', () => {
    for (const [name, value] of Object.entries(lazy.constants)) {
      expect(http2.constants[name as keyof typeof http2.constants], name).toBe(value);
    }
    // the names undici destructures from http2.constants at load, all present
    const source = readFileSync(new URL('../../node_modules/undici/lib/dispatcher/client-h2.js', import.meta.url), 'utf8');
    const block = /const \{\s*constants: \{([^}]*)\}\s*\} = http2/.exec(source)?.[1] ?? '';
    const used = block.split(',').map((s) => s.trim()).filter(Boolean);
    expect(used.length).toBeGreaterThan(0);
    expect(Object.keys(lazy.constants).sort()).toEqual([...used].sort());
  });

  it('connect() is node:http2 connect: a session to a local h2c server answers a request', async () => {
    const server = http2.createServer((_req, res) => res.end('h2 ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const session = lazy.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const stream = session.request({ ':path': '/' });
      let body = '';
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => (body += c));
      await once(stream, 'end');
      expect(body).toBe('h2 ok');
    } finally {
      session.close();
      server.close();
    }
  });

  it('spawn() is node:child_process spawn: a child runs and its output arrives', async () => {
    const child = lazyChildProcess.spawn(process.execPath, ['-e', "process.stdout.write('spawned')"], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const [code] = (await once(child, 'close')) as [number];
    expect(code).toBe(0);
    expect(out).toBe('spawned');
  });

  it('exec() and execSync() are node:child_process\'s (detect-libc\'s last resort in dist/libsql.cjs)', async () => {
    expect(lazyChildProcess.execSync('echo sync', { encoding: 'utf8' })).toBe('sync\n');
    const out = await new Promise<string>((resolve, reject) => lazyChildProcess.exec('echo async', (err, stdout) => (err ? reject(err) : resolve(String(stdout)))));
    expect(out).toBe('async\n');
  });

  it('libsql\'s platform package is the one @neon-rs/load names, without its process.report probe', async () => {
    const { createRequire } = await import('node:module');
    const real = createRequire(import.meta.url)('@neon-rs/load') as { currentTarget(): string };
    expect(currentTarget()).toBe(real.currentTarget());
  });

  // A preload that reports, at exit, which of these node modules the process loaded.
  const preload = join(mkdtempSync(join(tmpdir(), 'geo-lazy-')), 'report.cjs');
  writeFileSync(preload, "process.on('exit', () => process.stderr.write('loaded: ' + process.moduleLoadList.filter((m) => /^NativeModule (http2|tls|child_process)$/.test(m)).join(',') + '\\n'));");

  it('the built CLI: geo credits --json over loopback loads none of node:http2, node:tls, node:child_process', async () => {
    const r = await spawnGeo(['credits', '--json'], { env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, NODE_OPTIONS: `--require ${preload}` } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).success).toBe(true);
    expect(r.stderr).toContain('loaded: \n');
  });

  it('the built CLI: geo --help loads none of them either', async () => {
    const r = await spawnGeo(['--help'], { env: { NODE_OPTIONS: `--require ${preload}` } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: geo');
    expect(r.stderr).toContain('loaded: \n');
  });

  const storePreload = join(mkdtempSync(join(tmpdir(), 'geo-lazy-')), 'report.cjs');
  writeFileSync(storePreload, "process.on('exit', () => process.stderr.write('loaded: ' + process.moduleLoadList.filter((m) => /^NativeModule (http2|tls|child_process|v8|tty)$/.test(m)).join(',') + '\\n'));");

  it('the built CLI: geo history (the store opened through dist/libsql.cjs) loads none of them, nor node:v8 or node:tty', async () => {
    const data = mkdtempSync(join(tmpdir(), 'geo-lazy-data-'));
    const r = await spawnGeo(['history', '--json'], { env: { GEO_DATA_DIR: data, NODE_OPTIONS: `--require ${storePreload}` } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toContain('loaded: \n');
  });

  const chunkPreload = join(mkdtempSync(join(tmpdir(), 'geo-lazy-')), 'report.cjs');
  writeFileSync(chunkPreload, "process.on('exit', () => process.stderr.write('chunks: ' + Object.keys(require.cache).filter((k) => /dist[\\/\\w]*\\.cjs$/.test(k)).map((k) => k.replace(/.*[\\/]/, '')).sort().join(',') + '\\n'));");

  it('the built CLI: geo history reads only the libsql chunk; geo cases verify, which checks timestamps, reads the ASN.1 one beside it', async () => {
    const data = mkdtempSync(join(tmpdir(), 'geo-lazy-data-'));
    const env = { GEO_DATA_DIR: data, NODE_OPTIONS: `--require ${chunkPreload}` };
    const history = await spawnGeo(['history', '--json'], { env });
    expect(history.code).toBe(0);
    expect(history.stderr).toContain('chunks: libsql.cjs\n');
    expect((await spawnGeo(['cases', 'create', '--name', 'Harbour fire', '--local'], { env })).code).toBe(0);
    const verify = await spawnGeo(['cases', 'verify', 'Harbour fire'], { env });
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stderr).toContain('chunks: asn1.cjs,libsql.cjs\n');
  });
});
