/**
 * src/api/http2-lazy.ts stands in for node:http2 inside the build (undici's client-h2.js reads
 * its constants at load and calls connect() only for HTTP/2). Its constants must be node's, and
 * connect() must be node's connect, loaded on first use.
 */
import * as http2 from 'node:http2';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as lazy from '../../src/api/http2-lazy.js';
import { spawnGeo } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();

describe('the lazy node:http2 stand-in (build alias)', () => {
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

  it('the built CLI uses it: geo credits --json over loopback loads neither node:http2 nor node:tls', async () => {
    // A preload that reports, at exit, which of node's own modules the process loaded.
    const preload = join(mkdtempSync(join(tmpdir(), 'geo-h2-')), 'report.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write('loaded: ' + process.moduleLoadList.filter((m) => /^NativeModule (http2|tls)$/.test(m)).join(',') + '\\n'));");
    const r = await spawnGeo(['credits', '--json'], { env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, NODE_OPTIONS: `--require ${preload}` } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).success).toBe(true);
    expect(r.stderr).toContain('loaded: \n');
  });
});

