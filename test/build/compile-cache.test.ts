/**
 * bin/load-cli.js runs dist/cli.js (one CommonJS bundle) from a V8 code cache kept in the user's
 * cache folder. These tests run the built binary as a user would and look at the folder: where the
 * cache goes and with which modes, that a run uses it rather than rewriting it (same inode), that
 * a stale, corrupt or untrusted cache is never used, and that every way out of caching still runs
 * the command.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOUN_NAMES } from '../../src/cli.js';
import { spawnGeo, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const BUNDLE = new URL('../../dist/cli.js', import.meta.url);

/** A cache folder path that does not exist yet (the binary creates it). */
const freshDir = () => join(mkdtempSync(join(tmpdir(), 'geo-cc-')), 'cache');

/** The one cache file in `dir`, with what tells a rewrite from a reuse. */
function cacheFile(dir: string): { path: string; ino: number; mode: number; bytes: Buffer } {
  const names = readdirSync(dir).filter((n) => n.endsWith('.v8cache'));
  expect(names).toHaveLength(1);
  const path = join(dir, names[0]!);
  const st = statSync(path);
  return { path, ino: st.ino, mode: st.mode & 0o777, bytes: readFileSync(path) };
}

const help = (env: Record<string, string | undefined>) => spawnGeo(['--help'], { env });
const credits = (env: Record<string, string | undefined>) =>
  spawnGeo(['credits', '--json'], { env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, ...env } });

describe('the code cache of the built CLI (bin/load-cli.js)', () => {
  it('the first run writes one cache file (0600) in a folder it makes (0700); the next run uses it unchanged', async () => {
    const dir = freshDir();
    const first = await help({ GEO_CACHE_DIR: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Usage: geo');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const a = cacheFile(dir);
    expect(a.mode).toBe(0o600);
    expect(a.bytes.subarray(0, 17).toString()).toBe('geo-code-cache 1 ');

    const second = await help({ GEO_CACHE_DIR: dir });
    expect(second).toEqual(first);
    const b = cacheFile(dir);
    expect(b.ino).toBe(a.ino); // accepted by V8: not written again
    expect(b.bytes.equals(a.bytes)).toBe(true);
  });

  it('a command that connects saves its cache before it changes V8 flags, so the next run accepts it', async () => {
    const dir = freshDir();
    const first = await credits({ GEO_CACHE_DIR: dir });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).success).toBe(true);
    const a = cacheFile(dir);
    const second = await credits({ GEO_CACHE_DIR: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(cacheFile(dir).ino).toBe(a.ino);
  });

  it('each command noun keeps its own cache: --help and credits side by side, neither rewritten by the other', async () => {
    const dir = freshDir();
    await help({ GEO_CACHE_DIR: dir });
    await credits({ GEO_CACHE_DIR: dir });
    const inodes = () => Object.fromEntries(readdirSync(dir).map((n) => [n.replace(/^cli-\w+-node[^-]+-/, ''), statSync(join(dir, n)).ino]));
    const before = inodes();
    expect(Object.keys(before).sort()).toEqual(['credits.v8cache', 'root.v8cache']);
    await help({ GEO_CACHE_DIR: dir });
    await credits({ GEO_CACHE_DIR: dir });
    expect(inodes()).toEqual(before);
  });

  it("the loader's noun list is src/cli.ts's NOUN_NAMES", () => {
    const { NOUNS } = createRequire(import.meta.url)('../../bin/load-cli.js') as { NOUNS: string[] };
    expect([...NOUNS].sort()).toEqual([...NOUN_NAMES].sort());
  });

  it('a cache stamped for another build of dist/cli.js is not used, and is replaced', async () => {
    const dir = freshDir();
    await help({ GEO_CACHE_DIR: dir });
    const a = cacheFile(dir);
    const stamp = a.bytes.subarray(0, a.bytes.indexOf(10) + 1).toString();
    const stale = stamp.replace(/ (\d+)\n$/, (_m, mtime: string) => ` ${Number(mtime) - 1000}\n`);
    writeFileSync(a.path, Buffer.concat([Buffer.from(stale), a.bytes.subarray(stamp.length)]), { mode: 0o600 });
    const r = await help({ GEO_CACHE_DIR: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const b = cacheFile(dir);
    expect(b.bytes.subarray(0, stamp.length).toString()).toBe(stamp);
  });

  it('a corrupt cache is refused by V8: the command runs as usual and the cache is rewritten', async () => {
    const dir = freshDir();
    await help({ GEO_CACHE_DIR: dir });
    const a = cacheFile(dir);
    const stampLength = a.bytes.indexOf(10) + 1;
    writeFileSync(a.path, Buffer.concat([a.bytes.subarray(0, stampLength), Buffer.alloc(4096, 0xa5)]), { mode: 0o600 });
    const r = await help({ GEO_CACHE_DIR: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: geo');
    expect(r.stderr).toBe('');
    expect(cacheFile(dir).bytes.length).toBeGreaterThan(stampLength + 4096);
  });

  it('a folder that others can write is neither read nor written', async () => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o777);
    const r = await help({ GEO_CACHE_DIR: dir });
    expect(r.code).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a cache file that others can write is not read (it is replaced by one of mode 0600)', async () => {
    const dir = freshDir();
    await help({ GEO_CACHE_DIR: dir });
    const a = cacheFile(dir);
    chmodSync(a.path, 0o666);
    const r = await help({ GEO_CACHE_DIR: dir });
    expect(r.code).toBe(0);
    const b = cacheFile(dir);
    expect(b.ino).not.toBe(a.ino);
    expect(b.mode).toBe(0o600);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 turns it off: nothing is written', async () => {
    const dir = freshDir();
    const r = await help({ GEO_CACHE_DIR: dir, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r.code).toBe(0);
    expect(existsSync(dir)).toBe(false);
  });

  it('a cache folder that cannot be made: the command runs, and says nothing about it', async () => {
    const file = join(tempConfigDir(), 'a-file');
    writeFileSync(file, '');
    const r = await credits({ GEO_CACHE_DIR: join(file, 'cache') });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).success).toBe(true);
    expect(r.stderr).toBe('');
  });

  it('default folder: $XDG_CACHE_HOME/geo, else $HOME/.cache/geo', async () => {
    const home = tempConfigDir();
    await help({ GEO_CACHE_DIR: undefined, HOME: home });
    cacheFile(join(home, '.cache', 'geo'));
    const xdg = tempConfigDir();
    await help({ GEO_CACHE_DIR: undefined, HOME: home, XDG_CACHE_HOME: xdg });
    cacheFile(join(xdg, 'geo'));
  });

  it('ES-module packages still load from a cached bundle: `geo config set` (conf) twice, no warnings', async () => {
    const dir = freshDir();
    const config = tempConfigDir();
    for (const depth of ['2', '3']) {
      const r = await spawnGeo(['config', 'set', 'depth', depth], { env: { GEO_CACHE_DIR: dir, GEO_CONFIG_DIR: config } });
      expect(r.stderr).toBe(`depth = ${depth}\n`); // its confirmation, and no warning
      expect(r.code).toBe(0);
    }
    cacheFile(dir);
    expect(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).defaults.depth).toBe('3');
  });

  it('dist/cli.js is ASCII (read as latin1, the fast path) and calls no import() (none works from a cache on Node 20)', () => {
    const bytes = readFileSync(BUNDLE);
    expect(isAscii(bytes)).toBe(true);
    const calls = bytes
      .toString('latin1')
      .split('\n')
      .filter((line) => /(^|[^\w$.])import\(/.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line));
    expect(calls).toEqual([]);
  });

  it('without dist/ (a clone before `npm install`): one line saying what to run, exit 1', () => {
    const root = mkdtempSync(join(tmpdir(), 'geo-nodist-'));
    mkdirSync(join(root, 'bin'));
    for (const f of ['geo.js', 'load-cli.js', 'nouns.json', 'package.json']) copyFileSync(new URL(`../../bin/${f}`, import.meta.url), join(root, 'bin', f));
    copyFileSync(new URL('../../package.json', import.meta.url), join(root, 'package.json'));
    const r = spawnSync(process.execPath, [join(root, 'bin', 'geo.js'), 'credits'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: tempConfigDir() } });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: ${join(root, 'dist', 'cli.js')} is missing — hint: run \`npm install\` (or \`npm run build\`) in ${root}\n`);
  });
});
