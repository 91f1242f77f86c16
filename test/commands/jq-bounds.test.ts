/**
 * --jq is bounded (issue 30): an expression that never ends (`def f: f; f` loops inside jq's
 * wasm and never yields) is stopped after --jq-timeout seconds with one line, exit 2, and before
 * the command sends anything when it loops on null already; Ctrl-C stops it at once (exit 130); an
 * expression that builds too much is stopped by its memory bound. The built binary, as a user runs it.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GEO_BIN, binEnv, finished, spawnGeo } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const env = () => ({ GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro });
const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error:'));

/** Wall time of a run: a loose bound that tells "stopped" from "hangs", not a speed figure. */
async function wall<T>(run: () => Promise<T>): Promise<{ r: T; s: number }> {
  const t0 = Date.now();
  const r = await run();
  return { r, s: (Date.now() - t0) / 1000 };
}

describe('--jq ends', () => {
  it('an expression that loops on null is stopped at the check: exit 2, one line, nothing sent', async () => {
    const before = JSON.stringify(sb.ledger());
    const { r, s } = await wall(() => spawnGeo(['credits', '--jq', 'def f: f; f', '--jq-timeout', '1'], { env: env() }));
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/^error: --jq: the expression ran longer than 1 s on null, before the command ran, so geo stopped it — hint: raise --jq-timeout SECONDS/)]);
    expect(r.stdout).toBe('');
    expect(s).toBeLessThan(30);
    expect(JSON.stringify(sb.ledger())).toBe(before);
  });

  it('an expression that loops only on the real output is stopped on it: exit 2, one line', async () => {
    const r = await spawnGeo(['credits', '--jq', 'if . == null then . else (def f: f; f) end', '--jq-timeout', '1'], { env: env() });
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/^error: --jq: the expression ran longer than 1 s on the output, so geo stopped it/)]);
  });

  it('the default bound is a few seconds: `def f: f; f` alone ends with exit 2', async () => {
    const { r, s } = await wall(() => spawnGeo(['credits', '--jq', 'def f: f; f'], { env: env() }));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('ran longer than 5 s');
    expect(s).toBeLessThan(60);
  });

  it('Ctrl-C while jq loops on the output: exit 130 at once', async () => {
    // Loops only on the real output, so it is inside jq once --debug shows the answer came.
    const child = spawn(process.execPath, [GEO_BIN, 'credits', '--debug', '--jq', 'if . == null then . else (def f: f; f) end'], { env: binEnv(env()), stdio: ['ignore', 'pipe', 'pipe'] });
    const inJq = new Promise<void>((resolve) => child.stderr.on('data', (c: Buffer) => /< 200 GET/.test(c.toString()) && resolve()));
    const done = finished(child);
    await inJq;
    const t0 = Date.now();
    child.kill('SIGINT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const r = await done;
    clearTimeout(killer);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('error: interrupted');
    expect((Date.now() - t0) / 1000).toBeLessThan(4);
  });

  it('an expression that builds too much is stopped by the memory bound: exit 2, one line', async () => {
    const r = await spawnGeo(['credits', '--jq', '[range(1e9)]', '--jq-timeout', '120'], { env: env() });
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/^error: --jq: the expression needed more memory than geo gives jq/)]);
  }, 150_000);

  it('--jq-timeout takes a positive number of seconds', async () => {
    const r = await spawnGeo(['credits', '--jq', '.', '--jq-timeout', 'soon'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--jq-timeout must be a positive number of seconds, got "soon"');
  });
});
