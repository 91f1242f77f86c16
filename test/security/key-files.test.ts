/**
 * Issue 7, security: the key file is 0600 and its folder 0700 after `geo keys add`, also when the
 * folder or file existed before with looser modes (the store tightens them, it does not trust them).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const mode = (p: string) => statSync(p).mode & 0o777;

async function add(dir: string, name = 'work'): Promise<void> {
  const r = await runCli(['keys', 'add', name, '--stdin', '--yes', '--base-url', sb.url], { stdin: KEYS.pro, env: { GEO_CONFIG_DIR: dir } });
  expect(r.code, r.stderr).toBe(0);
}

describe('key file modes (3 cases)', () => {
  it('a new folder is 0700 and config.json 0600, and the file holds the key', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'geo-modes-')), 'geo');
    await add(dir);
    expect(mode(dir).toString(8)).toBe('700');
    expect(mode(join(dir, 'config.json')).toString(8)).toBe('600');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toContain(KEYS.pro);
  });
  it('an existing 0644 file is rewritten 0600; an existing folder keeps its mode (geo chmods only folders it creates)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-modes-'));
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: {}, defaults: {} }));
    chmodSync(join(dir, 'config.json'), 0o644);
    await add(dir);
    expect(mode(dir).toString(8)).toBe('755');
    expect(mode(join(dir, 'config.json')).toString(8)).toBe('600');
  });
  it('a second key (rewrite of the file) keeps 0600', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'geo-modes-')), 'nested', 'geo');
    mkdirSync(dir, { recursive: true });
    await add(dir, 'one');
    await add(dir, 'two');
    expect(mode(join(dir, 'config.json')).toString(8)).toBe('600');
  });
});
