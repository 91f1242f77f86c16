/**
 * A case's working copies and exhibits in its bundle: working/ and exhibits/ apart from
 * originals/, each sealed, labelled in the manifest and VERIFY.md ("original (evidence)",
 * "working copy (annotated)" naming the original's sha256, "exhibit (reference)"), and checked
 * by geo cases verify against the entry that made or kept it; the standard tools VERIFY.md lists
 * pass on it. Bundles written by writeBundle with a log that does not bear a member out are refused.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseLog } from '../../src/batch/case-custody.js';
import { CustodyLog, MemoryCustodyStorage } from '../../src/evidence/custody-log.js';
import { asStoreApi } from '../../src/store/index.js';
import { type BundleExhibit, type BundleWorkingCopy, writeBundle } from '../../src/output/export/bundle.js';
import { unzip } from '../export/unzip.js';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { openStore } from '../helpers/store.js';
import { caseId, caseRunner, custodyOf, tmp } from './helpers.js';

const sb = withSandbox();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const PARIS = sha(readFileSync(FIXTURES + 'paris.jpg'));
const MAP = Buffer.from('89504e470d0a1a0a-a map screenshot, as an analyst kept it');
let c: ReturnType<typeof caseRunner> & { id: string };

beforeAll(async () => {
  const r = caseRunner(sb);
  expect((await r.run(['cases', 'create', '--name', 'Harbour', '--local'])).code).toBe(0);
  expect((await r.run(['locate', FIXTURES + 'paris.jpg', '--depth', '3', '--case', 'Harbour'])).code).toBe(0);
  expect((await r.run(['cases', 'annotate', 'Harbour'])).code).toBe(0);
  const id = caseId(r.data, 'Harbour');
  // An exhibit kept with a note, through the store and custody log geo writes with.
  const store = asStoreApi(openStore(r.data), Date.now);
  const kept = await store.kept.put(MAP, 'image/png');
  await caseLog(store, 'test', Date.now).append(id, { event: 'note_made', data: { note: { kind: 'observation', text: 'the quay matches the map', exhibits: [{ name: 'quay map.png', ...kept, media_type: 'image/png', source: 'https://maps.example/quay' }] } } });
  await store.close();
  c = { ...r, id };
}, 60_000);

describe('a bundle with working copies and exhibits', () => {
  it('carries them in working/ and exhibits/, labelled apart from the originals, and verifies (geo and the standard tools)', async () => {
    const file = join(tmp(), 'case.zip');
    const b = await c.run(['cases', 'bundle', 'Harbour', file, '--with-originals']);
    expect(b.stderr).toBe('');
    expect(b.stdout).toMatch(/, 1 result, 1 original, 1 working copy, 1 exhibit, custody \d+ entries\n/);
    const copy = custodyOf(c.data, c.id).find((e) => e.event === 'working_copy_made')!.data.copy as { sha256: string; boxes: Array<{ clue: string }> };
    const members = new Map(unzip(readFileSync(file)).map((e) => [e.name, e.data]));
    expect(sha(members.get(`working/${copy.sha256}.png`)!)).toBe(copy.sha256);
    expect(members.get(`exhibits/${sha(MAP)}.png`)!.equals(MAP)).toBe(true);
    expect(members.has(`originals/${PARIS}.jpg`)).toBe(true);
    const manifest = JSON.parse(members.get('manifest.json')!.toString('utf8'));
    expect(manifest.labels).toEqual([
      { path: `exhibits/${sha(MAP)}.png`, label: 'exhibit (reference)', sha256: sha(MAP), name: 'quay map.png', source: 'https://maps.example/quay' },
      { path: `originals/${PARIS}.jpg`, label: 'original (evidence)', sha256: PARIS },
      { path: `working/${copy.sha256}.png`, label: 'working copy (annotated)', sha256: copy.sha256, of: PARIS, clues: copy.boxes.map((x) => x.clue) },
    ]);
    const verifyMd = members.get('VERIFY.md')!.toString('utf8');
    expect(verifyMd).toContain(`- originals/${PARIS}.jpg: original (evidence)\n`);
    expect(verifyMd).toContain(`- working/${copy.sha256}.png: working copy (annotated), made from the original with sha256 ${PARIS}; boxes of ${copy.boxes.map((x) => JSON.stringify(x.clue)).join(', ')}\n`);
    expect(verifyMd).toContain(`- exhibits/${sha(MAP)}.png: exhibit (reference), "quay map.png" from "https://maps.example/quay"\n`);

    const v = await runCli(['cases', 'verify', file, '--allow-sandbox', '--json']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, integrity: { originals: 1, working: 1, exhibits: 1, failures: [] } });
    // The first two steps of VERIFY.md, run with standard tools alone in the extracted folder.
    const dir = tmp();
    for (const [name, data] of members) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), data);
    }
    for (const [cmd, ...args] of [['sha256sum', '-c', 'SHA256SUMS'], ['python3', 'verify_chain.py']]) {
      const run = spawnSync(cmd!, args, { cwd: dir, encoding: 'utf8' });
      expect(run.status, `${cmd} ${run.stdout}${run.stderr}`).toBe(0);
    }
  });
});

/** A bundle whose log, as sealed, says `entries`; its working copy and exhibit as given. */
async function forged(entries: (log: CustodyLog) => Promise<unknown>, working: BundleWorkingCopy[], exhibits: BundleExhibit[]): Promise<string> {
  const storage = new MemoryCustodyStorage();
  let t = Date.parse('2025-05-14T10:00:00Z');
  const log = new CustodyLog(storage, { user: 'analyst', host: 'desk-1', geo: 'test' }, () => (t += 1000));
  await log.append('case_f', { event: 'case_created', data: { case: { id: 'case_f', name: 'Forged' } } });
  await entries(log);
  const bundle = await writeBundle({
    case: { id: 'case_f', name: 'Forged' }, records: [], working, exhibits,
    seal: async (contents) => ({ entry: await log.append('case_f', { event: 'bundle_sealed', data: { bundle: contents } }), lines: await storage.lines('case_f') }),
  });
  const file = join(tmp(), 'forged.zip');
  writeFileSync(file, bundle.zip);
  return file;
}

const COPY = Buffer.from('the bytes of some other picture');
const made = (log: CustodyLog, copySha: string, of: string) =>
  log.append('case_f', { event: 'working_copy_made', data: { copy: { of: { sha256: of, input_path: '/photos/a.jpg' }, sha256: copySha, size: 10, media_type: 'image/png', method: 'test', boxes: [] } } });
const work = (of: string): BundleWorkingCopy[] => [{ sha256: sha(COPY), bytes: COPY, media_type: 'image/png', of, clues: [] }];

describe('geo cases verify holds each working copy and exhibit to its entry', () => {
  it('a working copy no working_copy_made entry made: exit 1, named', async () => {
    const r = await runCli(['cases', 'verify', await forged((log) => made(log, 'a'.repeat(64), PARIS), work(PARIS), [])]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`working/${sha(COPY)}.png: no working_copy_made entry in the custody log has its sha256: not a working copy made for this case`);
  });

  it('a working copy labelled as made from another original than its entry says: exit 1, named', async () => {
    const r = await runCli(['cases', 'verify', await forged((log) => made(log, sha(COPY), PARIS), work('b'.repeat(64)), [])]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`working/${sha(COPY)}\\.png: its label says it was made from bbbbbbbbbbbb…, entry 2 \\(working_copy_made\\) from ${PARIS.slice(0, 12)}…`));
  });

  it('an exhibit no note keeps: exit 1, named; the same bundle with its note verifies', async () => {
    const exhibit: BundleExhibit[] = [{ sha256: sha(MAP), bytes: MAP, media_type: 'image/png', name: 'map.png', source: 'words' }];
    const bad = await runCli(['cases', 'verify', await forged(async () => undefined, [], exhibit), '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).failures).toEqual([`exhibits/${sha(MAP)}.png: no note_made entry in the custody log keeps an exhibit with its sha256`]);
    const note = (log: CustodyLog) => log.append('case_f', { event: 'note_made', data: { note: { kind: 'observation', text: 'x', exhibits: [{ name: 'map.png', sha256: sha(MAP), size: MAP.length, media_type: 'image/png', source: 'words' }] } } });
    const good = await runCli(['cases', 'verify', await forged(note, [], exhibit), '--json']);
    expect(good.code, good.stdout).toBe(0);
    expect(JSON.parse(good.stdout).integrity).toMatchObject({ exhibits: 1, working: 0 });
  });
});
