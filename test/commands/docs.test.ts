/** geo docs: the URL, --html (no key needed), --open with and without a browser opener. */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withSandbox } from '../helpers/sandbox.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';

const sb = withSandbox();

const waitFor = async (check: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) if (check()) return;
  throw new Error('timed out');
};

describe('geo docs', () => {
  it('prints <base>/api/v1/docs for the default, env and flag base URL', async () => {
    for (const tty of [false, true]) {
      const def = await runCli(['docs'], { tty });
      expect(def).toEqual({ code: 0, stdout: 'https://oceanir.ai/api/v1/docs\n', stderr: '' });
    }
    expect((await runCli(['docs'], { env: { GEO_BASE_URL: sb.url } })).stdout).toBe(`${sb.url}/api/v1/docs\n`);
    expect((await runCli(['docs', '--base-url', 'https://flag.example/'], { env: { GEO_BASE_URL: sb.url } })).stdout).toBe('https://flag.example/api/v1/docs\n');
    expect(JSON.parse((await runCli(['docs', '--json'])).stdout)).toEqual({ url: 'https://oceanir.ai/api/v1/docs' });
  });

  it('--html saves the HTML fetched from the service, without any key', async () => {
    const file = join(tempConfigDir(), 'api-docs.html');
    const r = await runCli(['docs', '--html', file], { env: { GEO_BASE_URL: sb.url, GEO_API_KEY: undefined } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${sb.url}/api/v1/docs\n`);
    expect(r.stderr).toMatch(/^Saved the documentation to .*api-docs\.html \(\d+ bytes\)\n$/);
    expect(readFileSync(file, 'utf8')).toMatch(/<html/i);
  });

  it('--open starts $BROWSER with the URL, detached', async () => {
    const dir = tempConfigDir();
    const opener = join(dir, 'browser.sh');
    const seen = join(dir, 'seen.txt');
    writeFileSync(opener, `#!/bin/sh\nprintf %s "$1" > "${seen}"\n`);
    chmodSync(opener, 0o755);
    const r = await runCli(['docs', '--open'], { env: { GEO_BASE_URL: sb.url, BROWSER: opener }, tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${sb.url}/api/v1/docs\n`);
    expect(r.stderr).toContain('Opened in the browser');
    await waitFor(() => {
      try {
        return readFileSync(seen, 'utf8') === `${sb.url}/api/v1/docs`;
      } catch {
        return false;
      }
    });
  });

  it('--open without any opener says so, prints the URL and exits 0', async () => {
    const r = await runCli(['docs', '--open'], { env: { BROWSER: undefined, PATH: tempConfigDir() } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://oceanir.ai/api/v1/docs\n');
    expect(r.stderr).toMatch(/No browser opener found .*open this URL yourself/);
  });

  it('--html to a folder that does not exist fails with one line', async () => {
    const r = await runCli(['docs', '--html', '/nonexistent/dir/x.html'], { env: { GEO_BASE_URL: sb.url } });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
