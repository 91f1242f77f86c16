/**
 * geo cases bundle <case> case.zip (issue 24, item 3) from a case in the store: the built binary
 * verifies it in a fresh HOME with no config, no key and no network; the independent checker
 * (test/bundle/check-bundle.mjs, node:crypto only) agrees; bundle_made is appended with the zip's
 * sha256; a member altered is named. (Every other way of tampering with a bundle, ../ members
 * included, is in test/bundle/verify.test.ts, on a bundle from the same writer.)
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '../../src/output/export/zip.js';
import { unzip } from '../export/unzip.js';
import { GEO_BIN, tempConfigDir } from '../helpers/run-cli.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { caseId, caseRunner, custodyOf, tmp } from './helpers.js';

const sb = withSandbox();
const CHECKER = new URL('../bundle/check-bundle.mjs', import.meta.url).pathname;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let c: ReturnType<typeof caseRunner> & { id: string };

beforeAll(async () => {
  const r = caseRunner(sb);
  await r.run(['cases', 'create', '--name', 'Harbour fire', '--local']);
  // One result located for the case, one paid for earlier and linked afterwards.
  expect((await r.run(['locate', FIXTURES + 'paris.jpg', '--case', 'Harbour fire', '--report', join(tmp(), 'r.html')])).code).toBe(0);
  expect((await r.run(['locate', FIXTURES + 'tokyo.jpg'])).code).toBe(0);
  expect((await r.run(['cases', 'link', 'Harbour fire', FIXTURES + 'tokyo.jpg'])).code).toBe(0);
  c = { ...r, id: caseId(r.data, 'Harbour fire') };
}, 60_000);

/** The built binary, in a fresh HOME, with no config and a network that answers nothing. */
function verifyElsewhere(file: string) {
  const home = tempConfigDir();
  // The case's answers are the sandbox's: checked as a test case.
  return spawnSync(process.execPath, [GEO_BIN, 'cases', 'verify', file, '--allow-sandbox'], {
    encoding: 'utf8', cwd: home, env: { PATH: process.env.PATH, HOME: home, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', GEO_BASE_URL: 'http://127.0.0.1:9' },
  });
}

describe('geo cases bundle', () => {
  it('--with-originals: written 0600, verified elsewhere with nothing but the file, checked by an independent script', async () => {
    const file = join(tmp(), 'case.zip');
    const r = await c.run(['cases', 'bundle', 'Harbour fire', file, '--with-originals'], { env: { GEO_API_KEY: undefined } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const zip = readFileSync(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(r.stdout).toMatch(new RegExp(`^wrote ${file}: case ${c.id} \\(Harbour fire\\), 2 results, 2 originals, custody \\d+ entries\\n  sha256    ${sha(zip)}`));
    // The log in the bundle ends with bundle_sealed (its head commits to every other member); the
    // log in the store goes one further: bundle_made, with the zip's sha256.
    const log = custodyOf(c.data, c.id);
    const [sealed, last] = log.slice(-2);
    expect(sealed).toMatchObject({ event: 'bundle_sealed', data: { bundle: { originals: true } } });
    expect(last).toMatchObject({ event: 'bundle_made', data: { bundle: { path: file, sha256: sha(zip), size: zip.length, originals: true, head: sealed!.hash, entries: sealed!.seq } } });

    const v = verifyElsewhere(file);
    expect(v.stderr).toBe('');
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/: verified\n[\s\S]*answers +2 raw answers are bound to their record and own custody entries\n {2}originals +2 match their input_hashed entries\n/);

    const dir = tmp('geo-unpacked-');
    const members = unzip(zip);
    for (const e of members) {
      mkdirSync(dirname(join(dir, e.name)), { recursive: true });
      writeFileSync(join(dir, e.name), e.data);
    }
    expect(execFileSync(process.execPath, [CHECKER, dir], { encoding: 'utf8' })).toMatch(/^ok \d+ files, \d+ entries, head [0-9a-f]{64}\n$/);
    const names = members.map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['manifest.json', 'custody.jsonl', 'report.html', 'results.geojson', 'results.kmz', `originals/${sha(readFileSync(FIXTURES + 'paris.jpg'))}.jpg`]));
    expect(names.filter((n) => n.startsWith('answers/'))).toHaveLength(2);
    expect(names.filter((n) => n.startsWith('records/'))).toHaveLength(2);

    // A member altered after the fact: named.
    const altered = join(tmp(), 'case.zip');
    writeFileSync(altered, writeZip(members.map((m) => ({ name: m.name, data: m.name === 'results.geojson' ? Buffer.concat([m.data, Buffer.from(' ')]) : m.data, compress: true })), new Date()));
    const bad = verifyElsewhere(altered);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/✗ results\.geojson: its sha256 is not the one in the manifest \(altered\)/);

    // The case in the store still verifies, the bundle it logged included.
    const local = await c.run(['cases', 'verify', c.id, '--allow-sandbox']);
    expect(local.code).toBe(0);
    expect(local.stdout).toMatch(/files +2 files written for the case still have the sha256 logged/);
  });

  it('without --with-originals: only their hashes (in the log), and it verifies', async () => {
    const file = join(tmp(), 'light.zip');
    expect((await c.run(['cases', 'bundle', c.id, file])).code).toBe(0);
    const names = unzip(readFileSync(file)).map((m) => m.name);
    expect(names.some((n) => n.startsWith('originals/'))).toBe(false);
    expect(JSON.parse(unzip(readFileSync(file)).find((m) => m.name === 'manifest.json')!.data.toString()).originals).toBe('hashes only');
    expect(verifyElsewhere(file).status).toBe(0);
  });

  it.each([
    ['an unknown case', () => ['Nobody', join(tmp(), 'x.zip')], /^error: no local case "Nobody"/],
    ['a name that is not a .zip', () => ['Harbour fire', join(tmp(), 'case.tar')], /^error: the bundle is a zip file: \S+case\.tar does not end in \.zip/],
    ['a symbolic link as the output', () => {
      const d = tmp();
      symlinkSync(join(d, 'elsewhere.zip'), join(d, 'case.zip'));
      return ['Harbour fire', join(d, 'case.zip')];
    }, /^error: refusing to use \S+case\.zip as the bundle: it is a symbolic link — hint: geo never writes through a link/],
  ])('%s: one line, exit 2, nothing written', async (_n, args, line) => {
    const [ref, file] = args();
    const before = custodyOf(c.data, c.id).length;
    const r = await c.run(['cases', 'bundle', ref!, file!]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(line);
    expect(readdirSync(dirname(file!)).filter((f) => f !== 'case.zip')).toEqual([]);
    expect(existsSync(join(dirname(file!), 'elsewhere.zip'))).toBe(false);
    expect(custodyOf(c.data, c.id)).toHaveLength(before);
  });
});
