/**
 * Issue 11, "paid once, across commands": a result geo holds for the same image bytes, request
 * fields, service and account is reused by any later command, with a note, and never sent again;
 * a different depth, service or account is sent. The real command against the sandbox; ledger
 * debits and model calls are the proof.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedRecords } from '../helpers/store.js';
import { KEYS, startTestSandbox, withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const NOTE = /located at depth 3 on \d{4}-\d\d-\d\d \(an_[^)]+\): from your results, not charged; --fresh to pay again/;

/** A folder with two photos, and fresh state and data folders shared by the runs of one test. */
function setup() {
  const dir = tmp('geo-reuse-');
  for (const n of ['tokyo.jpg', 'nogps.jpg']) copyFileSync(`${IMG}${n}`, join(dir, n));
  const env = { GEO_STATE_DIR: tmp('geo-state-'), GEO_DATA_DIR: tmp('geo-data-') };
  return { dir, env, run: (argv: string[], key: string = KEYS.pro) => runner(sb, key)(argv, { env }) };
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('paid once, across commands', () => {
  it('a reused folder of many images: a note for each of the first three, then one line; the summary counts them all', async () => {
    const dir = tmp('geo-reuse-many-');
    for (const n of ['paris.jpg', 'tokyo.jpg', 'sydney.jpg', 'newyork.jpg', 'nogps.jpg', 'plain.png']) copyFileSync(`${IMG}${n}`, join(dir, n));
    const env = { GEO_STATE_DIR: tmp('geo-state-'), GEO_DATA_DIR: tmp('geo-data-') };
    const run = (argv: string[]) => runner(sb, KEYS.pro)(argv, { env });
    expect((await run(['locate', dir])).code).toBe(0);
    const paid = footprint(sb);
    // Another command (the folder's files named one by one): every answer comes from the store.
    const again = await run(['locate', ...['paris.jpg', 'tokyo.jpg', 'sydney.jpg', 'newyork.jpg', 'nogps.jpg', 'plain.png'].map((n) => join(dir, n))]);
    expect(again.code).toBe(0);
    expect(footprint(sb)).toEqual(paid);
    expect(again.stderr.split('\n').filter((l) => / located at depth 1 on .*from your results/.test(l))).toHaveLength(3);
    expect(again.stderr).toContain('more inputs answered from your results, not charged: the summary counts them');
    expect(again.stderr).toMatch(/6 images from your results of earlier commands, not charged/);
  });

  it('a folder at depth 3, then one of its photos, then a renamed copy by --from-file: sent once', async () => {
    const { dir, env, run } = setup();
    const first = await run(['locate', dir, '--depth', '3']);
    expect(first.code).toBe(0);
    const paid = footprint(sb);

    const one = await run(['locate', join(dir, 'tokyo.jpg'), '--depth', '3', '--json']);
    expect(one.code).toBe(0);
    expect(one.stderr).toMatch(NOTE);
    expect(one.stderr).not.toContain('sandbox: results are simulated'); // nothing was sent
    expect(footprint(sb)).toEqual(paid);
    // --json prints the stored body exactly as it was received.
    const tokyo = first.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).find((r) => r.input.endsWith('tokyo.jpg'));
    const recs = storedRecords(env.GEO_DATA_DIR);
    expect(recs).toHaveLength(2); // no duplicate record for the reused answer
    const stored = recs.find((r) => r.response.body.analysis_id === tokyo.result.analysis_id)!;
    expect(one.stdout).toBe(stored.response.raw + '\n');
    expect(one.stderr).toContain(`(${tokyo.result.analysis_id})`);

    // Another command form: the same bytes under another name, named in a list.
    const other = tmp('geo-reuse-other-');
    mkdirSync(join(other, 'sub'));
    copyFileSync(join(dir, 'tokyo.jpg'), join(other, 'sub', 'renamed.jpg'));
    writeFileSync(join(other, 'list.txt'), 'sub/renamed.jpg\n');
    const listed = await run(['locate', '--from-file', join(other, 'list.txt'), '--depth', '3']);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(new RegExp(`renamed\\.jpg: ${NOTE.source}`));
    expect(listed.stderr).toContain('1 image from your results of earlier commands, not charged');
    expect(JSON.parse(listed.stdout).result).toEqual(tokyo.result);
    expect(footprint(sb)).toEqual(paid);
    console.log('[reuse] pro debits after folder, single, list:', footprint(sb).debits, 'paid', paid.debits);

    // --dry-run says what would be reused and previews only what would be sent.
    const dry = await run(['locate', dir, join(other, 'sub'), '--depth', '3', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ unique: 2, fromResults: 2, toSend: 0, credits: 0, sent: false });

    // --max-credits counts only what is sent: a new photo beside two reused ones costs 10.
    copyFileSync(`${IMG}paris.jpg`, join(dir, 'paris.jpg'));
    const grown = await run(['locate', ...['tokyo.jpg', 'nogps.jpg', 'paris.jpg'].map((n) => join(dir, n)), '--depth', '3', '--max-credits', '10']);
    expect(grown.code).toBe(0);
    expect(grown.stderr).toContain('2 images from your results of earlier commands, not charged');
    expect(footprint(sb).debits).toBe(paid.debits + 1);

    // --fresh pays again, and stores the new answer beside the old one.
    const fresh = await run(['locate', join(dir, 'tokyo.jpg'), '--depth', '3', '--json', '--fresh']);
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).not.toMatch(NOTE);
    expect(JSON.parse(fresh.stdout).analysis_id).not.toBe(tokyo.result.analysis_id);
    expect(footprint(sb).debits).toBe(paid.debits + 2);
    expect(storedRecords(env.GEO_DATA_DIR)).toHaveLength(4);

    // The key itself is in no file geo wrote: the store carries the account's fingerprint only.
    const files = [...filesUnder(env.GEO_STATE_DIR), ...filesUnder(env.GEO_DATA_DIR)];
    expect(files.some((f) => f.endsWith('geo.db'))).toBe(true);
    for (const f of files) expect(readFileSync(f, 'latin1')).not.toContain(KEYS.pro);
    expect(recs[0]!.account).toMatch(/^[0-9a-f]{20}$/);
  });

  it('a different depth, service or account is sent, not reused', async () => {
    const { dir, env, run } = setup();
    const photo = join(dir, 'tokyo.jpg');
    expect((await run(['locate', photo, '--depth', '3'])).code).toBe(0);
    const paid = footprint(sb);

    const d2 = await run(['locate', photo, '--depth', '2']);
    expect(d2.code).toBe(0);
    expect(d2.stderr).not.toContain('from your results');
    expect(footprint(sb).debits).toBe(paid.debits + 1);

    const ent = footprint(sb, KEYS.enterprise);
    const other = await run(['locate', photo, '--depth', '3'], KEYS.enterprise);
    expect(other.code).toBe(0);
    expect(other.stderr).not.toContain('from your results');
    expect(footprint(sb, KEYS.enterprise).debits).toBe(ent.debits + 1);

    // Same key, same data folder (it holds the depth-3 answer from the first service): sent there.
    const second = await startTestSandbox();
    try {
      const elsewhere = await runner(second)(['locate', photo, '--depth', '3'], { env });
      expect(elsewhere.code).toBe(0);
      expect(elsewhere.stderr).not.toContain('from your results');
      expect(second.ledger().keys[KEYS.pro]!.debits).toBe(1);
    } finally {
      await second.close();
    }
  });
});
