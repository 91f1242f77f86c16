/**
 * Issue 19, "Import": an older geo's files (one JSON provenance record per result under
 * <data>/results/<sha256>/, one NDJSON journal per command under <state>/journals/) are imported
 * on first use, once; the files stay where they are. Their answers are reused (not paid again);
 * a journal's key that never got its answer is resent (the rerun pays at most once); a damaged
 * record is named on stderr, and its image is not paid again without the plan asking.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountFingerprint } from '../../src/api/secret.js';
import { batchId } from '../../src/batch/plan.js';
import { buildRecord } from '../../src/evidence/records.js';
import { forensicBody } from '../export/fixtures.js';
import { runCli } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const IMG = new URL('../../fixtures/images/', import.meta.url).pathname;
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const ledger = () => sb.ledger().keys[KEYS.pro]!;

describe('the import of an older geo\'s files', () => {
  it('records and journals are imported once; their answers are reused, a journal\'s open key resent, a damaged record named and asked about', async () => {
    const photos = tmp('geo-legacy-photos-');
    for (const n of ['paris.jpg', 'tokyo.jpg', 'sydney.jpg', 'newyork.jpg']) copyFileSync(`${IMG}${n}`, join(photos, n));
    const data = tmp('geo-legacy-data-');
    const state = tmp('geo-legacy-state-');
    const env = { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_DATA_DIR: data, GEO_STATE_DIR: state };
    const account = accountFingerprint(sb.url, KEYS.pro);

    // Two records an older geo wrote (this account, this service, depth 1), and a damaged one.
    for (const [i, name] of ['paris.jpg', 'tokyo.jpg'].entries()) {
      const body = forensicBody({ analysis_id: `an_legacy_${i}`, depth: 1 });
      const rec = buildRecord({
        input: { path: join(photos, name), sha256: sha(join(photos, name)) }, request: { image_b64: 'x', depth: 1 },
        response: { data: body, raw: JSON.stringify(body), status: 200, headers: {}, replayed: false, idempotencyKey: `legacy-key-${i}` },
        baseUrl: sb.url, account, cliVersion: '0.0.9', now: Date.UTC(2026, 5, 1 + i),
      });
      mkdirSync(join(data, 'results', rec.input.sha256), { recursive: true });
      writeFileSync(join(data, 'results', rec.input.sha256, `2026060${i + 1}T000000.000Z-an_legacy_${i}.json`), JSON.stringify(rec, null, 2));
    }
    const damagedSha = sha(join(photos, 'sydney.jpg'));
    mkdirSync(join(data, 'results', damagedSha), { recursive: true });
    const damagedFile = join(data, 'results', damagedSha, '20260603T000000.000Z-an_x.json');
    writeFileSync(damagedFile, '{"schema":"geo.provenance/1","stored_at":"2026-06-03T00:00:00.000Z", "input": {');

    // A journal of `geo locate <photos>/newyork.jpg` whose request was sent and never answered.
    const ny = join(photos, 'newyork.jpg');
    const id = batchId({ args: [ny], metadata: 'removed' }, { depth: 1 }, sb.url, account);
    mkdirSync(join(state, 'journals'), { recursive: true });
    const lines = [
      { t: 'head', v: 1, params: { depth: 1 }, args: [ny], cwd: photos, baseUrl: sb.url, account, metadata: 'removed', created: '2026-06-04T00:00:00.000Z' },
      { t: 'send', id: sha(ny), key: 'legacy-open-key', input: ny, at: '2026-06-04T00:00:01.000Z' },
    ];
    writeFileSync(join(state, 'journals', `${id}.ndjson`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const filesBefore = readdirSync(join(data, 'results'), { recursive: true }).length;

    // First use: imported, the damaged file named; the old files stay.
    const first = await runCli(['history', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`skipped ${damagedFile}:`);
    expect(first.stderr).toMatch(/imported 2 stored results and 1 journal of an older geo into the store; the old files stay where they are/);
    expect((JSON.parse(first.stdout) as Array<{ analysis_id: string }>).map((r) => r.analysis_id).sort()).toEqual(['an_legacy_0', 'an_legacy_1']);
    expect(readdirSync(join(data, 'results'), { recursive: true }).length).toBe(filesBefore);
    // Once: the next command imports nothing and says nothing of it.
    const second = await runCli(['history'], { env });
    expect(second.stderr).not.toMatch(/imported|skipped/);

    // An imported answer is reused: nothing sent.
    const before = ledger().requests;
    const reused = await runCli(['locate', join(photos, 'paris.jpg'), '--json'], { env });
    expect(reused.code, reused.stderr).toBe(0);
    expect(JSON.parse(reused.stdout).analysis_id).toBe('an_legacy_0');
    expect(reused.stderr).toMatch(/from your results, not charged/);
    expect(ledger().requests).toBe(before);

    // The journal's open key is resent (the service never saw it: it runs once, charged once).
    const resent = await runCli(['locate', ny, '--json'], { env });
    expect(resent.code, resent.stderr).toBe(0);
    expect(Object.keys(ledger().idempotency)).toContain('legacy-open-key');

    // The damaged record's image: the plan says so and asks; with nothing to ask, refused, nothing sent.
    const refused = await runCli(['locate', join(photos, 'sydney.jpg')], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/sydney\.jpg: its only stored record is damaged .*sending it again asks first/);
    expect(refused.stderr).toMatch(/an image whose only stored record is damaged, so it may pay again for what was paid, and nothing can ask for confirmation .*nothing was sent — hint: pass --yes/);
    expect(ledger().requests).toBe(before + 1);
    const consented = await runCli(['locate', join(photos, 'sydney.jpg'), '--yes'], { env });
    expect(consented.code, consented.stderr).toBe(0);
  });
});
