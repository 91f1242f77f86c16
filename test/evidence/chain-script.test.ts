/**
 * Issue 31, item 5: verify_chain.py, the script every bundle carries, recomputes the hashes geo
 * makes with Python's standard library alone, also for what Python would write otherwise: numbers
 * JavaScript spells its own way (1e-7, 0.00001, 1e+21), non-ASCII text, a line separator, control
 * characters. And it names what does not hold: a byte changed, a sealed file changed, an entry
 * past the last signature.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAIN_SCRIPT } from '../../src/evidence/chain-script.js';
import { sha256Hex } from '../../src/evidence/custody.js';
import { CustodyLog, MemoryCustodyStorage } from '../../src/evidence/custody-log.js';

const ID = 'lc_0123456789ab';
const FIELDS = { tiny: 1e-7, small: 0.00001, huge: 1e21, big: 123456789012345680000, neg: -0.5, lat: 48.858844, r: 2.5, n: 3, text: 'Zürich 東京 \u2028 😀 \u0001 "quoted" \\ back' };

async function bundleDir(): Promise<{ dir: string; storage: MemoryCustodyStorage; log: CustodyLog }> {
  const dir = mkdtempSync(join(tmpdir(), 'geo-chain-script-'));
  writeFileSync(join(dir, 'verify_chain.py'), CHAIN_SCRIPT);
  writeFileSync(join(dir, 'report.html'), '<h1>report</h1>');
  const storage = new MemoryCustodyStorage();
  let t = Date.parse('2026-01-01T00:00:00Z');
  const log = new CustodyLog(storage, { user: 'analyst', host: 'desk', geo: 'test' }, () => (t += 1000));
  await log.append(ID, { event: 'case_created', data: { case: { id: ID, name: 'Ünïcode case' } } });
  await log.append(ID, { event: 'request_sent', data: { request: { input_sha256: 'a'.repeat(64), fields: FIELDS, service: 'https://oceanir.ai', idempotency_key: 'k' } } });
  await log.append(ID, { event: 'bundle_sealed', data: { bundle: { members: [{ path: 'report.html', sha256: sha256Hex('<h1>report</h1>'), size: 15 }], results: [], originals: false } } });
  return { dir, storage, log };
}
const write = async (b: { dir: string; storage: MemoryCustodyStorage }) => writeFileSync(join(b.dir, 'custody.jsonl'), (await b.storage.lines(ID)).map((l) => `${l}\n`).join(''));
const run = (dir: string) => spawnSync('python3', ['verify_chain.py'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } });

describe('verify_chain.py', () => {
  it('recomputes every hash geo made, numbers and text as JavaScript wrote them', async () => {
    const b = await bundleDir();
    await write(b);
    expect((await b.storage.lines(ID))[1]).toContain('"huge":1e+21');
    expect((await b.storage.lines(ID))[1]).toContain('"tiny":1e-7');
    const r = run(b.dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^OK: 3 entries, head [0-9a-f]{64}; the 1 files the seal lists match; NOT SIGNED\n$/);
  });

  it('names a changed byte and a changed sealed file (an entry past the last signature: test/bundle/standard-tools.test.ts)', async () => {
    const b = await bundleDir();
    const lines = await b.storage.lines(ID);
    writeFileSync(join(b.dir, 'custody.jsonl'), lines.map((l, i) => `${i === 1 ? l.replace('1e-7', '2e-7') : l}\n`).join(''));
    expect(run(b.dir).stderr).toBe('FAILED: entry 2 (request_sent): its seq, its link to the entry before or its hash does not hold\n');
    await write(b);
    appendFileSync(join(b.dir, 'report.html'), ' ');
    expect(run(b.dir).stderr).toBe('FAILED: report.html: not the file the bundle_sealed entry lists\n');
  });
});
