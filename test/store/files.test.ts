/**
 * Issue 19, "Files geo touches": folders geo creates are 0700 and folders it did not create keep
 * their mode; a read-only config folder works with GEO_API_KEY; store and journal writes never
 * follow a symbolic link; FIFOs are refused as inputs, journals and store files with one line and
 * exit 2, never a hang; --journal naming a folder exits 2; a damaged database is never overwritten.
 * Each case checks its message, its exit code and that nothing was sent.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, spawnGeo } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const tmp = (p = 'geo-files-') => mkdtempSync(join(tmpdir(), p));
const IMG = new URL('../../fixtures/images/', import.meta.url).pathname;
const requests = () => sb.ledger().keys[KEYS.pro]!.requests;
const env = (extra: Record<string, string> = {}) => ({ GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_DATA_DIR: tmp(), GEO_STATE_DIR: tmp(), ...extra });
const fifo = (path: string) => execFileSync('mkfifo', [path]);
const errorLine = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error:'));

describe('folders', () => {
  it('GEO_DATA_DIR and GEO_CONFIG_DIR naming existing folders keep their modes (a 1777 folder keeps its sticky bit); new ones are 0700', async () => {
    const data = tmp();
    const config = tmp();
    chmodSync(data, 0o1777);
    chmodSync(config, 0o755);
    const r = await runCli(['locate', `${IMG}paris.jpg`, '--json'], { env: env({ GEO_DATA_DIR: data, GEO_CONFIG_DIR: config }) });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(data).mode & 0o7777).toBe(0o1777);
    expect(statSync(config).mode & 0o7777).toBe(0o755);
    const fresh = join(tmp(), 'a', 'b');
    expect((await runCli(['locate', `${IMG}paris.jpg`, '--json'], { env: env({ GEO_DATA_DIR: fresh }) })).code).toBe(0);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    expect(statSync(join(fresh, '..')).mode & 0o777).toBe(0o700);
  });

  it.runIf(process.getuid?.() !== 0)(`a read-only config folder works when the key comes from GEO_API_KEY${process.getuid?.() === 0 ? ' (skipped: root reads any folder; the next test covers it)' : ''}`, async () => {
    const config = tmp();
    chmodSync(config, 0o500);
    const r = await runCli(['credits', '--json'], { env: env({ GEO_CONFIG_DIR: config }) });
    expect(r.code, r.stderr).toBe(0);
  });

  it('a read-only config folder (chmod 0500; root reads it anyway) does not stop a command that only reads it', async () => {
    const config = tmp();
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: {}, defaults: { depth: '1' } }));
    chmodSync(config, 0o500);
    const r = await spawnGeo(['credits', '--json'], { env: env({ GEO_CONFIG_DIR: config }) });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(config).mode & 0o777).toBe(0o500);
  });
});

describe('links, FIFOs and folders where geo writes or reads', () => {
  it('a symbolic link in place of the store is refused (exit 2), its target untouched, nothing sent', async () => {
    const data = tmp();
    const target = join(tmp(), 'victim.db');
    writeFileSync(target, 'precious');
    symlinkSync(target, join(data, 'geo.db'));
    const before = requests();
    const r = await runCli(['locate', `${IMG}paris.jpg`], { env: env({ GEO_DATA_DIR: data }) });
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/refusing to use .*geo\.db as the store: it is a symbolic link — hint: geo never writes through a link/)]);
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(requests()).toBe(before);
  });

  it('a dangling symbolic link as --journal is refused (exit 2) and never created', async () => {
    const dir = tmp();
    const target = join(tmp(), 'created-by-geo.ndjson');
    symlinkSync(target, join(dir, 'j.ndjson'));
    const before = requests();
    const r = await runCli(['locate', `${IMG}paris.jpg`, '--journal', join(dir, 'j.ndjson'), '--fresh'], { env: env() });
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)[0]).toMatch(/refusing to use .*j\.ndjson as the journal: it is a symbolic link/);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(join(dir, 'j.ndjson')).isSymbolicLink()).toBe(true);
    expect(requests()).toBe(before);
  });

  it('--journal naming a folder exits 2', async () => {
    const r = await runCli(['locate', `${IMG}paris.jpg`, '--journal', tmp()], { env: env() });
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)[0]).toMatch(/is a folder, not a journal file — hint: give a file name/);
  });

  it.each(['input', 'journal', 'store'])('a FIFO as the %s is refused with one line and exit 2, never a hang', async (what) => {
    const dir = tmp();
    const pipe = join(dir, what === 'store' ? 'geo.db' : 'fifo');
    fifo(pipe);
    const before = requests();
    const argv = what === 'input' ? ['locate', pipe] : what === 'journal' ? ['locate', `${IMG}paris.jpg`, '--journal', pipe] : ['locate', `${IMG}paris.jpg`];
    const r = await spawnGeo(argv, { env: env(what === 'store' ? { GEO_DATA_DIR: dir } : {}) });
    expect(r.code, r.stderr).toBe(2);
    expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/FIFO \(named pipe\)/)]);
    expect(requests()).toBe(before);
  }, 20_000);
});

describe('a damaged database', () => {
  it('is named with what to do (exit 1) and never overwritten', async () => {
    const data = tmp();
    const garbage = Buffer.from('this is not an SQLite database, but it was on disk first'.repeat(200));
    writeFileSync(join(data, 'geo.db'), garbage);
    const before = requests();
    for (const argv of [['history'], ['locate', `${IMG}paris.jpg`]]) {
      const r = await runCli(argv, { env: env({ GEO_DATA_DIR: data }) });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/geo\.db is damaged .*geo leaves it untouched — hint: move it aside \(mv .*geo\.db .*geo\.db\.damaged\) and geo starts a new store/)]);
    }
    expect(readFileSync(join(data, 'geo.db'))).toEqual(garbage);
    expect(requests()).toBe(before);
  });

  it('a store moved aside: geo starts a new one and works', async () => {
    const data = tmp();
    mkdirSync(join(data, 'old'));
    copyFileSync(`${IMG}paris.jpg`, join(data, 'old', 'x.jpg'));
    writeFileSync(join(data, 'geo.db'), 'garbage'.repeat(100));
    execFileSync('mv', [join(data, 'geo.db'), join(data, 'geo.db.damaged')]);
    const r = await runCli(['locate', `${IMG}paris.jpg`, '--json'], { env: env({ GEO_DATA_DIR: data }) });
    expect(r.code, r.stderr).toBe(0);
  });
});
