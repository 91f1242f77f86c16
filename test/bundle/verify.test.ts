/**
 * `geo cases verify case.zip` (issue 24, items 3 and 5): a bundle made from real sandbox results
 * verifies in a fresh HOME with no config and no network (the built binary, spawned); the manifest
 * is checked by an independent script (check-bundle.mjs: node:crypto only); and every way of
 * tampering is named: a member altered, added or removed, a custody entry altered, removed,
 * swapped or forged, a raw answer edited, members with ../ or absolute paths (refused, nothing
 * written), a manifest naming an absent file, a file that is not a zip. (What the seal binds when
 * the manifest is rewritten too, and ZIPs built by hand, are in sealed.test.ts.)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/evidence/custody.js';
import { writeZip } from '../../src/output/export/zip.js';
import { unzip } from '../export/unzip.js';
import { GEO_BIN, runCli, tempConfigDir } from '../helpers/run-cli.js';
import { withSandbox } from '../helpers/sandbox.js';
import { type CaseFixture, makeCaseBundle } from './case-bundle.js';

const sb = withSandbox();
const CHECKER = new URL('./check-bundle.mjs', import.meta.url).pathname;
let fx: CaseFixture;
beforeAll(async () => {
  fx = await makeCaseBundle(sb.url, { originals: true });
}, 60_000);

type Members = Map<string, Buffer>;
const membersOf = (zip: Buffer): Members => new Map(unzip(zip).map((e) => [e.name, e.data]));

/** A tampered copy: `edit` changes the members; with `reseal`, the manifest's hashes follow them (so deeper checks are reached). */
function tampered(edit: (m: Members) => void, reseal = false): string {
  const m = membersOf(fx.bundle.zip);
  edit(m);
  if (reseal) {
    const manifest = JSON.parse(m.get('manifest.json')!.toString('utf8'));
    manifest.files = manifest.files.filter((f: { path: string }) => m.has(f.path)).map((f: { path: string }) => ({ path: f.path, sha256: sha256Hex(m.get(f.path)!), size: m.get(f.path)!.length }));
    m.set('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
  }
  const file = join(mkdtempSync(join(tmpdir(), 'geo-tampered-')), 'case.zip');
  writeFileSync(file, writeZip([...m].map(([name, data]) => ({ name, data, compress: true })), new Date('2025-05-14T10:06:00Z')));
  return file;
}

const custodyLines = (m: Members) => m.get('custody.jsonl')!.toString('utf8').trimEnd().split('\n');
const setCustody = (m: Members, lines: string[]) => m.set('custody.jsonl', Buffer.from(lines.map((l) => `${l}\n`).join('')));
/** The fixture's answers are the sandbox's: checked as a test case. */
const verify = (file: string, extra: string[] = []) => runCli(['cases', 'verify', file, '--allow-sandbox', ...extra]);

describe('a bundle that verifies', () => {
  it('the built binary, in a fresh HOME with no config, no key and no reachable network: exit 0, what was checked', () => {
    const home = tempConfigDir();
    const r = spawnSync(process.execPath, [GEO_BIN, 'cases', 'verify', fx.zipPath, '--allow-sandbox'], {
      encoding: 'utf8',
      cwd: home,
      // Anything that tried the network would meet a closed port.
      env: { PATH: process.env.PATH, HOME: home, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', GEO_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const files = fx.bundle.manifest.files.length;
    expect(r.stdout).toContain(`${fx.zipPath}: verified\n`);
    expect(r.stdout).toMatch(new RegExp(`\\n  case +case_harbour  Harbour fire\\n  integrity +the chain is intact and binds every member; it is not signed, [^\\n]+\\n  files +${files} members match their sha256 in the manifest\\n  custody +${fx.custody.length} entries, chain intact; head ${fx.bundle.manifest.custody.head}\\n  sealed +the log ends with bundle_sealed: every other member is the one it sealed, or made from the log\\n  answers +2 raw answers are bound to their record and own custody entries\\n  originals +2 match their input_hashed entries\\n  signatures +none: the custody log is not signed \\(geo cases sign\\)\\n  timestamps +none \\(geo cases stamp\\)\\n  simulated +2 simulated answers \\(sandbox\\): not evidence \\(checked as a test case: --allow-sandbox\\)\\n  manifest +sha256 ${fx.bundle.manifestSha256}\\n`));
    // No config, key or state written: at most geo's code cache and its (empty) config folder.
    expect(readdirSync(home).filter((d) => d !== '.cache' && d !== '.config')).toEqual([]);
    expect(existsSync(join(home, '.config/geo')) ? readdirSync(join(home, '.config/geo')) : []).toEqual([]);
  });

  it('--json: the report as data', async () => {
    const r = await verify(fx.zipPath, ['--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true, case: { id: 'case_harbour' }, manifest_sha256: fx.bundle.manifestSha256, failures: [],
      integrity: { ok: true, sealed: true, files: fx.bundle.manifest.files.length, answers: 2, originals: 2, failures: [], signed: false },
      simulated: { answers: 2, allowed: true, ok: true },
    });
  });

  it('the manifest is what the README says: an independent script (node:crypto only) checks every member and recomputes the chain', () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-unpacked-'));
    for (const e of unzip(fx.bundle.zip)) {
      mkdirSync(dirname(join(dir, e.name)), { recursive: true });
      writeFileSync(join(dir, e.name), e.data);
    }
    const out = execFileSync(process.execPath, [CHECKER, dir], { encoding: 'utf8' });
    expect(out).toBe(`ok ${fx.bundle.manifest.files.length} files, ${fx.custody.length} entries, head ${fx.bundle.manifest.custody.head}\n`);
    expect(fx.bundle.manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(['custody.jsonl', 'report.html', 'results.geojson', 'results.kmz']));
  });

  it('standard tools read it: unzip -t', () => {
    if (spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status !== 0) return console.log('skipped: unzip is not installed');
    expect(execFileSync('unzip', ['-t', fx.zipPath], { encoding: 'utf8' })).toMatch(/No errors detected/);
  });
});

describe('a bundle that does not verify names what fails (exit 1)', () => {
  it.each([
    ['a member altered (the report edited)', () => tampered((m) => m.set('report.html', Buffer.concat([m.get('report.html')!, Buffer.from(' ')]))), /^ {2}✗ report\.html: its sha256 is not the one in the manifest \(altered\)$/m],
    ['a member added', () => tampered((m) => m.set('answers/extra.json', Buffer.from('{}'))), /^ {2}✗ answers\/extra\.json: in the bundle but not in the manifest \(added\)$/m],
    ['a member removed', () => tampered((m) => m.delete('results.kmz')), /^ {2}✗ results\.kmz: named in the manifest but absent from the bundle \(removed\)$/m],
    ['one byte of a custody entry changed', () => tampered((m) => setCustody(m, custodyLines(m).map((l, i) => (i === 2 ? l.replace('"size":', '"size":1') : l))), true), /^ {2}✗ custody\.jsonl: entry 3 \(request_sent\): its content does not match its hash: it was altered$/m],
    ['a custody entry removed', () => tampered((m) => setCustody(m, custodyLines(m).filter((_, i) => i !== 3)), true), /^ {2}✗ custody\.jsonl: entry 4 \(result_linked\): its seq is 5: entry 4 was removed$/m],
    ['two custody entries swapped', () => tampered((m) => { const l = custodyLines(m); [l[1], l[2]] = [l[2]!, l[1]!]; setCustody(m, l); }, true), /^ {2}✗ custody\.jsonl: entry 2 \(request_sent\): its seq is 3: entries are out of order \(entry 2 comes later\)$/m],
    ['a forged custody entry', () => tampered((m) => { const l = custodyLines(m); const f = { ...JSON.parse(l[1]!), seq: 3, hash: 'f'.repeat(64) }; l.splice(2, 0, JSON.stringify(f)); setCustody(m, l); }, true), /^ {2}✗ custody\.jsonl: entry 3 \(input_hashed\): its prev does not match the hash of entry 2: entry 2 or this one was replaced$/m],
    ['the last custody entry cut off', () => tampered((m) => setCustody(m, custodyLines(m).slice(0, -1)), true), /^ {2}✗ custody\.jsonl: entry \d+: the log ends after \d+ entries, \d+ were expected: entries were removed from its end$/m],
    ['a raw answer edited, manifest resealed', () => tampered((m) => { const a = [...m.keys()].find((k) => k.startsWith('answers/'))!; m.set(a, Buffer.from(m.get(a)!.toString().replace('"confidence":', '"confidence": '))); }, true), /^ {2}✗ answers\/[0-9a-f]{64}\.json: its sha256 is not the answer_sha256 of its result$/m],
    ['a record\'s raw answer edited, manifest resealed', () => tampered((m) => { const r = [...m.keys()].find((k) => k.startsWith('records/'))!; const rec = JSON.parse(m.get(r)!.toString()); rec.response.raw = rec.response.raw.replace('"confidence":', '"confidence": '); m.set(r, Buffer.from(JSON.stringify(rec))); }, true), /^ {2}✗ records\/001-[0-9a-f]{12}\.json: its raw answer is not answers\/[0-9a-f]{64}\.json \(sha256 differs\)$/m],
    ['the manifest names a file that is absent', () => tampered((m) => { const man = JSON.parse(m.get('manifest.json')!.toString()); man.files.push({ path: 'evidence/ghost.jpg', sha256: 'a'.repeat(64), size: 1 }); m.set('manifest.json', Buffer.from(JSON.stringify(man))); }), /^ {2}✗ evidence\/ghost\.jpg: named in the manifest but absent from the bundle \(removed\)$/m],
    ['an original swapped for other bytes, manifest resealed', () => tampered((m) => { const o = [...m.keys()].find((k) => k.startsWith('originals/'))!; m.set(o, Buffer.from('not the photo')); }, true), /^ {2}✗ originals\/[0-9a-f]{64}\.jpg: its content's sha256 is not the one in its name$/m],
  ])('%s', async (_name, make, line) => {
    const r = await verify(make());
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/: FAILED \(\d+ problems?\)\n/);
    expect(r.stdout).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: \S+case\.zip does not verify: .* — hint: do not rely on this bundle/);
  });
});

describe('bundles refused outright', () => {
  const tag = `geo-escaped-${process.pid}-${Date.now()}.txt`;
  it.each([
    ['../ in a member name', `../${tag}`, /^ {2}✗ refused: member "\.\.\/geo-escaped-[\w-]+\.txt" has a \.\.\/ that escapes the bundle's folder$/m],
    ['a deeper ../', `answers/../../${tag}`, /^ {2}✗ refused: member "answers\/\.\.\/\.\.\/geo-escaped-[\w-]+\.txt" has a \.\.\/ that escapes/m],
    ['an absolute path', join(tmpdir(), tag), /^ {2}✗ refused: member "\/\S+geo-escaped-[\w-]+\.txt" has an absolute path$/m],
  ])('%s: exit 1, and nothing is written anywhere', async (_n, name, line) => {
    const file = tampered((m) => m.set(name, Buffer.from('planted')));
    const folder = dirname(file);
    const r = await verify(file);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(line);
    expect(readdirSync(folder)).toEqual(['case.zip']);
    // Wherever the name points, from the bundle's folder or from the working directory: nothing.
    for (const base of [folder, join(folder, 'answers'), process.cwd(), '/']) expect(existsSync(join(base, name))).toBe(false);
  });

  it.each([
    ['not a zip', () => { const f = join(tempConfigDir(), 'case.zip'); writeFileSync(f, 'just text, long enough to hold an end-of-directory record, but no zip'); return f; }, /^error: \S+case\.zip is not a case bundle: no end of central directory: not a zip file — hint: geo cases verify takes a bundle/],
    ['an empty file', () => { const f = join(tempConfigDir(), 'case.zip'); writeFileSync(f, ''); return f; }, /is not a case bundle: too short to be a zip file/],
    ['a missing file', () => join(tempConfigDir(), 'nope.zip'), /^error: no such file: \S+nope\.zip — hint:/],
    ['a folder', () => tempConfigDir(), /^error: \S+ is not a file — hint:/],
  ])('%s: one line, exit 2', async (_n, make, line) => {
    const r = await verify(make());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(line);
  });

  it('a zip without a manifest, and a member that inflates past its declared size', async () => {
    const noManifest = tampered((m) => m.delete('manifest.json'));
    expect((await verify(noManifest)).stdout).toMatch(/✗ no manifest\.json: not a geo case bundle/);
    const zip = writeZip([...membersOf(fx.bundle.zip)].map(([name, data]) => ({ name, data, compress: true })), new Date());
    // Lower the declared size of report.html in its central directory entry: a small zip bomb.
    const cd = zip.lastIndexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x01, 0x02])]), zip.indexOf(Buffer.from('report.html'), zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))));
    zip.writeUInt32LE(10, cd + 24);
    // ...and in its local header, so the two agree (a header that disagrees is refused before any inflating).
    zip.writeUInt32LE(10, zip.readUInt32LE(cd + 42) + 22);
    const bomb = join(tempConfigDir(), 'case.zip');
    writeFileSync(bomb, zip);
    const r = await verify(bomb);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ report\.html: inflates beyond its declared 10 bytes/);
  });
});

describe('writeBundle', () => {
  it('refuses a custody log that does not verify', async () => {
    const { writeBundle } = await import('../../src/output/export/bundle.js');
    const broken = [...fx.custody];
    broken.splice(1, 1);
    const seal = JSON.parse(fx.custody.at(-1)!);
    await expect(writeBundle({ case: { id: 'case_harbour', name: 'x' }, records: [], seal: async () => ({ entry: seal, lines: broken }) })).rejects.toThrow(/does not verify \(entry 2 \(request_sent\): its seq is 3: entry 2 was removed\): no bundle written/);
  });

  it('refuses a log that does not end with the seal it was given', async () => {
    const { writeBundle } = await import('../../src/output/export/bundle.js');
    const seal = JSON.parse(fx.custody.at(-1)!);
    await expect(writeBundle({ case: { id: 'case_harbour', name: 'x' }, records: [], seal: async () => ({ entry: { ...seal, seq: fx.custody.length - 1 }, lines: fx.custody }) })).rejects.toThrow(/does not end with its bundle_sealed entry: no bundle written/);
  });
});
