/** `geo sandbox` through the real CLI entry (main), in-process: prints URL and keys, serves, stops on abort. */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { IO } from '../../src/output/io.js';
import { tempConfigDir } from '../helpers/run-cli.js';
import { KEYS } from '../helpers/sandbox.js';
import { call } from './contract.js';

function io(): { io: IO; out: () => string; err: () => string; firstLine: Promise<string> } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let o = '';
  let e = '';
  let resolveLine: (s: string) => void = () => {};
  const firstLine = new Promise<string>((r) => (resolveLine = r));
  stdout.on('data', (c: Buffer) => {
    o += c.toString();
    if (o.includes('\n')) resolveLine(o.split('\n')[0]!);
  });
  stderr.on('data', (c: Buffer) => (e += c.toString()));
  return {
    io: { stdin: Readable.from([]), stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, colorOut: false, colorErr: false, columns: 100 },
    out: () => o,
    err: () => e,
    firstLine,
  };
}

describe('geo sandbox', () => {
  it('prints its base URL first, then the keys; serves until Ctrl-C', async () => {
    const t = io();
    const ac = new AbortController();
    const t0 = performance.now();
    const done = main(['sandbox', '--port', '0', '--rate-limit', '100', '--rate-algorithm', 'sliding'], { io: t.io, signal: ac.signal, env: { GEO_CONFIG_DIR: tempConfigDir() } });
    const url = await t.firstLine;
    const ms = performance.now() - t0;
    console.log(`geo sandbox: URL printed ${ms.toFixed(0)} ms after main() was called (in-process, modules warm or not)`);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const k of Object.values(KEYS)) expect(t.out()).toContain(k);
    expect(t.out()).toMatch(/KEY\s+TIER\s+API CREDITS\s+NOTES/);
    const c = await call(url, 'GET', '/api/v1/credits', { key: KEYS.pro });
    expect(c.headers['ratelimit-limit']).toBe('100');
    expect(t.out()).toContain('Rate limits (sliding) per 60 s: 100 for every key.');
    ac.abort();
    expect(await done).toBe(0);
    expect(t.err()).toMatch(/sandbox ready in \d+ ms/);
    await expect(fetch(url + '/api/v1/docs')).rejects.toThrow();
  });

  it('bad flags are usage errors (exit 2)', async () => {
    for (const argv of [['--port', 'x'], ['--faults', 'boom:0.5'], ['--latency', '-1'], ['--rate-algorithm', 'leaky']]) {
      const t = io();
      expect(await main(['sandbox', ...argv], { io: t.io, signal: new AbortController().signal, env: { GEO_CONFIG_DIR: tempConfigDir() } }), argv.join(' ')).toBe(2);
    }
  });

  it('--help shows curl examples', async () => {
    const t = io();
    await main(['sandbox', '--help'], { io: t.io, signal: new AbortController().signal, env: { GEO_CONFIG_DIR: tempConfigDir() } });
    expect(t.out()).toMatch(/curl -s "\$url\/api\/v1\/credits"/);
    expect(t.out()).toMatch(/--faults <list>/);
  });
});
