/** geo config get/set/unset/list, and the config file on disk (modes, GEO_CONFIG_DIR, corruption). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RunOptions, runCli, tempConfigDir } from '../helpers/run-cli.js';

function session() {
  const dir = tempConfigDir();
  return { dir, run: (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { GEO_CONFIG_DIR: dir, ...opts.env } }) };
}

describe('geo config', () => {
  it('list shows built-in defaults: plain when piped, boxed on a TTY, an object with --json', async () => {
    const { run } = session();
    const piped = await run(['config', 'list']);
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    expect(piped.stdout).toBe('KEY                VALUE  FROM\ndepth              1      default\nformat             table  default\nconfirm_threshold  20     default\naccessible         false  default\ntsa                       default\ntsa_ca                    default\nstore              local  default\n');
    const tty = await run(['config', 'list'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/┌.*\n.*KEY.*VALUE.*FROM/);
    expect(JSON.parse((await run(['config', 'list', '--json'])).stdout)).toEqual({ depth: '1', format: 'table', confirm_threshold: '20', accessible: 'false', tsa: '', tsa_ca: '', store: 'local' });
  });

  it('set validates, stores and get prints the bare value', async () => {
    const { dir, run } = session();
    for (const [k, v] of [['depth', '3'], ['format', 'NDJSON'], ['confirm-threshold', '0']] as const) {
      const r = await run(['config', 'set', k, v], { tty: true });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`${k.replace('-', '_')} = ${v.toLowerCase()}\n`);
    }
    expect((await run(['config', 'get', 'depth'])).stdout).toBe('3\n');
    expect((await run(['config', 'get', 'format'])).stdout).toBe('ndjson\n');
    expect(JSON.parse((await run(['config', 'get', 'confirm_threshold', '--json'])).stdout)).toEqual({ key: 'confirm_threshold', value: '0', source: 'config' });
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).defaults).toEqual({ depth: '3', format: 'ndjson', confirm_threshold: '0' });
    const unset = await run(['config', 'unset', 'depth']);
    expect(unset.stderr).toBe('depth reset to the default (1)\n');
    expect((await run(['config', 'get', 'depth'])).stdout).toBe('1\n');
  });

  it.each([
    [['config', 'set', 'depth', '4'], /depth must be 1, 2 or 3, got "4" — hint: geo config set depth 2/],
    [['config', 'set', 'format', 'xml'], /format must be table, json or ndjson/],
    [['config', 'set', 'confirm_threshold', '-1'], /confirm_threshold must be a whole number/],
    [['config', 'set', 'confirm_threshold', '2.5'], /confirm_threshold must be a whole number/],
    [['config', 'get', 'colour'], /unknown config key "colour" — hint: keys: depth, format, confirm_threshold/],
    [['config', 'set', 'depth'], /missing required argument 'value'/],
    [['config', 'set', 'tsa', 'http://tsa.example.org/tsr'], /plain http is allowed only for loopback hosts, not tsa\.example\.org — hint: use https:\/\/tsa\.example\.org\/tsr/],
    [['config', 'set', 'tsa', 'https://ok.example/tsr,ftp://tsa.example/'], /a TSA is reached over https, not ftp:/],
    [['config', 'set', 'tsa', 'https://user:secret@tsa.example/tsr'], /carries a user name or password/],
    [['config', 'set', 'tsa', 'not a url'], /"not a url" is not a URL of a time-stamp authority/],
    [['config', 'set', 'tsa', ' , '], /no TSA URL given — hint: .*geo config unset tsa/],
  ])('%j is a usage error (exit 2, one line, nothing stored)', async (argv, message) => {
    const { run } = session();
    for (const tty of [false, true]) {
      // A terminal wide enough for the line (a narrow one wraps it: test/pty/width-copy.test.ts).
      const r = await run(argv, { tty, columns: 300 });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await run(['config', 'get', 'depth'])).stdout).toBe('1\n');
  });
});

describe('geo config set tsa (issue 31)', () => {
  it('stores a checked list: https anywhere, plain http on loopback only, normalised, without repeats', async () => {
    const { dir, run } = session();
    const r = await run(['config', 'set', 'tsa', ' https://TSA.example.org/tsr , http://127.0.0.1:8318/ts,https://tsa.example.org/tsr,http://[::1]/']);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const stored = 'https://tsa.example.org/tsr,http://127.0.0.1:8318/ts,http://[::1]/';
    expect(r.stderr).toBe(`tsa = ${stored}\n`);
    expect((await run(['config', 'get', 'tsa'])).stdout).toBe(`${stored}\n`);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).defaults).toEqual({ tsa: stored });
    // A secret never rides in a TSA URL, so the stored list is safe to print.
    expect((await run(['config', 'unset', 'tsa'])).stderr).toBe('tsa reset to the default (none)\n');
    expect((await run(['config', 'get', 'tsa'])).stdout).toBe('\n');
  });

  it('--help says what the key takes and that none is contacted unless configured', async () => {
    const r = await runCli(['config', 'set', '--help']);
    expect(r.stdout).toMatch(/tsa {16}RFC 3161 time-stamp authorities/);
    expect(r.stdout).toMatch(/None is contacted unless listed here or named\s+with --tsa/);
  });
});

describe('geo config set tsa-ca (issue 31)', () => {
  it('stores the absolute path of a PEM file holding a certificate; refuses a file without one, or none', async () => {
    const { dir, run } = session();
    const folder = tempConfigDir();
    const pem = join(folder, 'tsa-ca.pem');
    writeFileSync(pem, execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(folder, 'k'), '-subj', '/CN=ca', '-days', '1'], { stdio: ['ignore', 'pipe', 'ignore'] }));
    const r = await run(['config', 'set', 'tsa-ca', pem]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).defaults).toEqual({ tsa_ca: pem });
    writeFileSync(join(folder, 'empty.pem'), 'no certificate here\n');
    const bad = await run(['config', 'set', 'tsa-ca', join(folder, 'empty.pem')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/holds no PEM certificate/);
    expect((await run(['config', 'set', 'tsa-ca', join(folder, 'missing.pem')])).stderr).toMatch(/^error: cannot read \S+missing\.pem \(ENOENT\)/);
  });
});

describe('config on disk', () => {
  it('folder 0700 and file 0600, even in a new nested GEO_CONFIG_DIR', async () => {
    const dir = join(tempConfigDir(), 'nested', 'geo');
    const r = await runCli(['config', 'set', 'depth', '2'], { env: { GEO_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('without GEO_CONFIG_DIR it lives under XDG_CONFIG_HOME/geo', async () => {
    const xdg = tempConfigDir();
    const r = await runCli(['config', 'set', 'format', 'json'], { env: { GEO_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg } });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(xdg, 'geo', 'config.json'), 'utf8')).defaults.format).toBe('json');
  });

  it('a corrupted config file: one line with a hint, exit 2, no stack', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"work": ', { mode: 0o600 });
    for (const argv of [['config', 'list'], ['keys', 'list'], ['keys', 'show']]) {
      for (const tty of [false, true]) {
        const r = await runCli(argv, { env: { GEO_CONFIG_DIR: dir }, tty, columns: 300 });
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/^(\u001b\[31m)?error(\u001b\[39m)?: the config file .*config\.json is not valid JSON — hint: repair or delete it/);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).not.toMatch(/\bat .*\.(ts|js):\d+/);
      }
    }
  });
});
