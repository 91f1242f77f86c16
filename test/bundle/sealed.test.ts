/**
 * Issue 30: a bundle's custody head commits to its contents (the log ends with bundle_sealed,
 * listing every other member), so rewriting the manifest no longer hides anything: a member
 * changed, a result dropped, two answers swapped, report.html or results.geojson replaced, the
 * manifest's case or results rewritten, the seal cut off: each fails naming the member. And the
 * reader refuses ZIPs built by hand as an attacker would (a local header hidden outside the
 * central directory, before or between members; a name twice; a symbolic link or FIFO member; a
 * local header that says other sizes; a stored member longer than declared; bytes after a deflate
 * stream), each in one line naming the member, before anything else is read.
 */
import { deflateRawSync } from 'node:zlib';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/evidence/custody.js';
import { writeZip } from '../../src/output/export/zip.js';
import { unzip } from '../export/unzip.js';
import { runCli } from '../helpers/run-cli.js';
import { withSandbox } from '../helpers/sandbox.js';
import { type CaseFixture, makeCaseBundle } from './case-bundle.js';
import { type HandMember, handZip, localRecord } from './hand-zip.js';

const sb = withSandbox();
let fx: CaseFixture;
beforeAll(async () => {
  fx = await makeCaseBundle(sb.url);
}, 60_000);

type Members = Map<string, Buffer>;
const membersOf = (zip: Buffer): Members => new Map(unzip(zip).map((e) => [e.name, e.data]));
const json = (b: Buffer) => JSON.parse(b.toString('utf8'));
const put = (m: Members, name: string, v: unknown) => m.set(name, Buffer.from(JSON.stringify(v, null, 2)));
const saved = (zip: Buffer) => {
  const file = join(mkdtempSync(join(tmpdir(), 'geo-sealed-')), 'case.zip');
  writeFileSync(file, zip);
  return file;
};

/** The attacker's bundle: members edited, then the manifest rewritten to match them (every sha256 and size recomputed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the attacker edits the manifest as loose JSON
type LooseManifest = Record<string, any>;
function rewritten(edit: (m: Members, manifest: LooseManifest) => void): string {
  const m = membersOf(fx.bundle.zip);
  const manifest = json(m.get('manifest.json')!);
  edit(m, manifest);
  manifest.files = [...m.keys()].filter((p) => p !== 'manifest.json').sort().map((p) => ({ path: p, sha256: sha256Hex(m.get(p)!), size: m.get(p)!.length }));
  put(m, 'manifest.json', manifest);
  return saved(writeZip([...m].map(([name, data]) => ({ name, data, compress: true })), new Date('2025-05-14T10:06:00Z')));
}

const verify = (file: string) => runCli(['cases', 'verify', file, '--allow-sandbox']);

async function fails(file: string, ...lines: RegExp[]) {
  const r = await verify(file);
  expect(r.code).toBe(1);
  for (const l of lines) expect(r.stdout).toMatch(l);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^error: \S+case\.zip does not verify: /);
  return r;
}

describe('the seal: the custody head binds every member', () => {
  it('the bundle as written verifies; its log ends with bundle_sealed listing every other member', async () => {
    const r = await verify(fx.zipPath);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sealed +the log ends with bundle_sealed: every other member is the one it sealed, or made from the log\n/);
    const seal = JSON.parse(fx.custody.at(-1)!);
    expect(seal.event).toBe('bundle_sealed');
    expect(fx.bundle.manifest.custody.head).toBe(seal.hash);
    // Every member but the log and what is made from it afterwards (signatures/, allowed_signers, VERIFY.md, SHA256SUMS; issue 31).
    expect(seal.data.bundle.members.map((f: { path: string }) => f.path)).toEqual(fx.bundle.manifest.files.map((f) => f.path).filter((p) => p !== 'custody.jsonl' && !['VERIFY.md', 'SHA256SUMS'].includes(p)));
    expect(seal.data.bundle.members.map((f: { path: string }) => f.path)).toContain('verify_chain.py');
  });

  it('report.html replaced, manifest rewritten: named against the seal', async () => {
    await fails(rewritten((m) => m.set('report.html', Buffer.from('<h1>another story</h1>'))), /^ {2}✗ report\.html: its sha256 is not the one the custody log sealed \(entry \d+ \(bundle_sealed\)\): replaced after the bundle was made$/m);
  });

  it('results.geojson replaced, manifest rewritten', async () => {
    await fails(rewritten((m) => m.set('results.geojson', Buffer.from('{"type":"FeatureCollection","features":[]}'))), /^ {2}✗ results\.geojson: its sha256 is not the one the custody log sealed/m);
  });

  it('a result dropped (its answer and record removed, the manifest rewritten)', async () => {
    await fails(rewritten((m, man) => {
      const [gone] = man.results.splice(1, 1);
      m.delete(gone.answer);
      m.delete(gone.record);
    }), /^ {2}✗ answers\/[0-9a-f]{64}\.json: sealed in the custody log \(entry \d+ \(bundle_sealed\)\) but absent from the bundle \(removed\)$/m,
    /^ {2}✗ entry \d+ \(result_linked\): its result is not in the bundle \(dropped\)$/m, /^ {2}✗ manifest\.json: its results differ from what the custody log sealed/m);
  });

  it('two answers swapped between results (records and manifest made to agree)', async () => {
    await fails(rewritten((m, man) => {
      const [a, b] = man.results;
      const recA = json(m.get(a.record)!);
      const recB = json(m.get(b.record)!);
      [recA.response, recB.response] = [recB.response, recA.response];
      put(m, a.record, recA);
      put(m, b.record, recB);
      [a.answer, b.answer, a.answer_sha256, b.answer_sha256] = [b.answer, a.answer, b.answer_sha256, a.answer_sha256];
    }), /^ {2}✗ answers\/[0-9a-f]{64}\.json: no result_linked entry binds this answer to input [0-9a-f]{16}…: answers were swapped/m,
    /^ {2}✗ records\/001-[0-9a-f]{12}\.json: its sha256 is not the one the custody log sealed/m);
  });

  it('the manifest alone rewritten (another case name)', async () => {
    await fails(rewritten((_m, man) => (man.case.name = 'Another case')), /^ {2}✗ manifest\.json: its case name or description is not the one entry 1 \(case_created\) logged: the manifest was rewritten$/m);
  });

  it('a member added with the manifest rewritten to list it', async () => {
    await fails(rewritten((m) => m.set('evidence/planted.jpg', Buffer.from('planted'))), /^ {2}✗ evidence\/planted\.jpg: not sealed in the custody log \(entry \d+ \(bundle_sealed\)\): added after the bundle was made$/m);
  });

  it('the seal cut off and the manifest re-pinned to the entry before: refused, not checked the weak way', async () => {
    await fails(rewritten((m, man) => {
      const lines = m.get('custody.jsonl')!.toString('utf8').trimEnd().split('\n').slice(0, -1);
      m.set('custody.jsonl', Buffer.from(lines.map((l) => `${l}\n`).join('')));
      man.custody = { ...man.custody, entries: lines.length, head: JSON.parse(lines.at(-1)!).hash };
    }), /^ {2}✗ custody\.jsonl: the log does not end with a bundle_sealed entry, so nothing in it binds the other members/m);
  });

  it('a bundle of simulated answers: exit 1 without --allow-sandbox, saying so', async () => {
    const r = await runCli(['cases', 'verify', fx.zipPath]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/simulated +2 simulated answers \(sandbox\): not evidence\n/);
    expect(r.stdout).toMatch(/integrity +the chain is intact and binds every member; it is not signed/);
    expect(r.stderr).toMatch(/^error: \S+case\.zip holds 2 simulated answers \(sandbox\): not evidence — hint: /);
    const j = JSON.parse((await runCli(['cases', 'verify', fx.zipPath, '--json'])).stdout);
    expect(j).toMatchObject({ ok: false, integrity: { ok: true, sealed: true, signed: false, failures: [] }, simulated: { answers: 2, allowed: false, ok: false, checked: true }, failures: ['2 simulated answers (sandbox): not evidence'] });
  });

  it('a record whose sandbox flag was removed, resealed manifest: fails against the log, not only the seal', async () => {
    await fails(rewritten((m, man) => {
      const rec = json(m.get(man.results[0].record)!);
      delete rec.sandbox;
      put(m, man.results[0].record, rec);
    }), /^ {2}✗ records\/001-[0-9a-f]{12}\.json: its sandbox flag \(false\) is not what entry \d+ \(answer_received\) logged \(true\)$/m);
  });
});

describe('ZIPs built by hand: refused, one line naming the member', () => {
  /** The bundle's own members, in order, as a hand-built zip (stored): valid unless an attack is added. */
  const own = (): HandMember[] => unzip(fx.bundle.zip).map((e) => ({ name: e.name, data: e.data }));
  const at = (ms: HandMember[], name: string) => ms.find((m) => m.name === name)!;

  it('the hand-built copy, unattacked, verifies (so what follows is the attack alone)', async () => {
    const r = await verify(saved(handZip(own())));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it.each([
    ['a second local header hidden between members (a streaming extractor takes the forged file)', () => {
      const ms = own();
      at(ms, 'custody.jsonl').after = localRecord('report.html', Buffer.from('<h1>forged</h1>'));
      return handZip(ms);
    }, /^ {2}✗ refused: \d+ bytes between member "custody\.jsonl" and member "\S+" belong to no member of the central directory \(a hidden local header\?\)$/m],
    ['a local header hidden before the first member', () => handZip(own(), { prefix: localRecord('report.html', Buffer.from('<h1>forged</h1>')) }), /^ {2}✗ refused: \d+ bytes before member "manifest\.json" belong to no member of the central directory/m],
    ['the same name twice', () => {
      const ms = own();
      return handZip([...ms, { name: 'report.html', data: Buffer.from('<h1>forged</h1>') }]);
    }, /^ {2}✗ refused: member "report\.html" appears twice$/m],
    ['a symbolic link member', () => handZip([...own(), { name: 'answers/link.json', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]), /^ {2}✗ refused: member "answers\/link\.json" is a symbolic link$/m],
    ['a FIFO member', () => handZip([...own(), { name: 'fifo', data: Buffer.alloc(0), mode: 0o010644 }]), /^ {2}✗ refused: member "fifo" is a special file \(a device, FIFO or socket\)$/m],
    ['a local header that says another size than the directory', () => {
      const ms = own();
      at(ms, 'report.html').local = { compressed: 5, size: 5 };
      return handZip(ms);
    }, /^ {2}✗ refused: member "report\.html" has its local header disagree with the central directory \(CRC or sizes\)/m],
    ['a stored member larger than it declares', () => {
      const ms = own();
      Object.assign(at(ms, 'report.html'), { declared: 10, local: { size: 10 } });
      return handZip(ms);
    }, /^ {2}✗ refused: member "report\.html" is stored with \d+ bytes but declares 10$/m],
    ['an absolute path', () => handZip([...own(), { name: '/tmp/planted.txt', data: Buffer.from('x') }]), /^ {2}✗ refused: member "\/tmp\/planted\.txt" has an absolute path$/m],
  ])('%s', async (_n, make, line) => {
    const r = await verify(saved(make()));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: \S+case\.zip does not verify: refused: /);
    // Refused before anything else was read: no manifest sha256, no member counted.
    expect(JSON.parse((await runCli(['cases', 'verify', saved(make()), '--json', '--allow-sandbox'])).stdout)).toMatchObject({ integrity: { files: 0 }, failures: [expect.stringMatching(/^refused: /)] });
  });

  it('bytes hidden after a member\'s deflate stream, inside its declared compressed size: named', async () => {
    const zip = writeZip(unzip(fx.bundle.zip).map((e) => ({ name: e.name, data: e.data, compress: true })), new Date());
    // report.html's data becomes its deflate stream followed by a hidden local header, the sizes declared to cover both.
    const report = unzip(zip).find((e) => e.name === 'report.html')!;
    const deflated = Buffer.concat([deflateRawSync(report.data), localRecord('report.html', Buffer.from('<h1>forged</h1>'))]);
    const patched = patchDeflated(zip, 'report.html', deflated);
    const r = await verify(saved(patched));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^ {2}✗ report\.html: \d+ bytes follow the end of its compressed data$/m);
  });
});

/** The zip with one deflated member's data replaced (sizes in both headers and every later offset updated). */
function patchDeflated(zip: Buffer, name: string, data: Buffer): Buffer {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const locals: Array<{ name: string; at: number; cdAt: number }> = [];
  for (let i = 0; i < count; i++) {
    const n = zip.readUInt16LE(p + 28);
    locals.push({ name: zip.subarray(p + 46, p + 46 + n).toString('utf8'), at: zip.readUInt32LE(p + 42), cdAt: p });
    p += 46 + n + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  const target = locals.find((l) => l.name === name)!;
  const start = target.at + 30 + zip.readUInt16LE(target.at + 26) + zip.readUInt16LE(target.at + 28);
  const oldSize = zip.readUInt32LE(target.at + 18);
  const grow = data.length - oldSize;
  const out = Buffer.concat([zip.subarray(0, start), data, zip.subarray(start + oldSize)]);
  out.writeUInt32LE(data.length, target.at + 18);
  const cdStart = zip.readUInt32LE(eocd + 16) + grow;
  for (const l of locals) {
    const cd = l.cdAt + grow;
    if (l.name === name) out.writeUInt32LE(data.length, cd + 20);
    if (l.at > target.at) out.writeUInt32LE(l.at + grow, cd + 42);
  }
  out.writeUInt32LE(cdStart, eocd + grow + 16);
  return out;
}
