/**
 * A copy of a photo located before, met by geo locate --case: the link is a custody entry of its
 * own, copy_linked (both sha256s, both perceptual hashes, the distance, the answer reused or paid).
 * A reused copy brings the earlier result into the case (as a stored answer) and never a result of
 * its own; a paid copy links its own result first. cases show lists the copies, cases verify
 * checks each entry against its hashes and what came before it, and a bundle's verify_chain.py
 * takes the log as it is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CopyLinked } from '../../src/evidence/copy-events.js';
import { copyLinkFailures } from '../../src/evidence/copy-check.js';
import { sealEntry } from '../../src/evidence/custody.js';
import { hamming, pdqOf } from '../../src/image/pdq.js';
import { type Photos, photosAndCopies } from '../batch/helpers.js';
import { withSandbox } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';
import { caseId, caseRunner, custodyOf, events, tmp } from './helpers.js';

const sb = withSandbox();
let photos: Photos;
beforeAll(async () => {
  photos = await photosAndCopies();
}, 60_000);

const copy = (entries: ReturnType<typeof custodyOf>) => entries.filter((e) => e.event === 'copy_linked').map((e) => (e.data as unknown as CopyLinked).copy);

describe('copies in a case', () => {
  it('reused: the earlier result is the case\'s, then the copy\'s input and copy_linked; paid: its own result, then copy_linked; shown, verified, bundled', async () => {
    const r = caseRunner(sb);
    expect((await r.run(['cases', 'create', '--name', 'Copies', '--local'])).code).toBe(0);
    const id = caseId(r.data, 'Copies');
    const photo = join(photos.originals, 'photo0.jpg');
    const half = join(photos.copies, 'photo0-half.jpg');
    const q70 = join(photos.copies, 'photo0-q70.jpg');
    expect((await r.run(['locate', photo, '--case', 'Copies'])).code).toBe(0);
    const reused = await r.run(['locate', half, '--reuse-similar', '--case', 'Copies']);
    expect(reused.code, reused.stderr).toBe(0);
    // Run again, it adds nothing to the case (the input_hashed of a run is its own: one more).
    const entries = custodyOf(r.data, id).length;
    expect((await r.run(['locate', half, '--reuse-similar', '--case', 'Copies'])).code).toBe(0);
    expect(custodyOf(r.data, id)).toHaveLength(entries);
    const paid = await r.run(['locate', q70, '--case', 'Copies']);
    expect(paid.code, paid.stderr).toBe(0);

    const log = custodyOf(r.data, id);
    expect(events(log)).toEqual([
      'case_created', 'input_hashed', 'request_sent', 'answer_received', 'result_linked',
      'input_hashed', 'copy_linked',
      'input_hashed', 'request_sent', 'answer_received', 'result_linked', 'copy_linked',
    ]);
    const [p, h, q] = await Promise.all([photo, half, q70].map((f) => pdqOf(f)));
    const first = log[3]!.data.answer as { sha256: string; analysis_id: string };
    const of = { sha256: log[1]!.data.input && (log[1]!.data.input as { sha256: string }).sha256, pdq: p!.hash, input_path: photo, analysis_id: first.analysis_id, answer_sha256: first.sha256 };
    expect(copy(log)).toEqual([
      { input: { path: half, sha256: (log[5]!.data.input as { sha256: string }).sha256, pdq: h!.hash }, of, distance: hamming(h!.hash, p!.hash), answer: 'reused' },
      { input: { path: q70, sha256: (log[7]!.data.input as { sha256: string }).sha256, pdq: q!.hash }, of, distance: hamming(q!.hash, p!.hash), answer: 'paid' },
    ]);
    // The reused copy is no result of the case: two results, the photo's and the paid copy's.
    expect(dbRows(r.data, 'SELECT result_id FROM case_results WHERE case_id = ?', id)).toHaveLength(2);

    const show = JSON.parse((await r.run(['cases', 'show', 'Copies', '--json'])).stdout) as { copies: Array<{ input: string; answer: string; distance: number }> };
    expect(show.copies.map((c) => [c.input, c.answer])).toEqual([[half, 'reused'], [q70, 'paid']]);
    expect((await r.run(['cases', 'show', 'Copies'])).stdout).toMatch(/copies \(2\):[\s\S]*photo0-half\.jpg: a copy of .*photo0\.jpg \(\d+ bits apart\), its answer reused: not the service's answer for its bytes/);
    const verify = await r.run(['cases', 'verify', 'Copies', '--allow-sandbox']);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);

    // The paid copy located again adds nothing either.
    expect((await r.run(['locate', q70, '--case', 'Copies'])).code).toBe(0);
    expect(custodyOf(r.data, id)).toHaveLength(log.length);

    // The bundle's own script needs nothing to know of the entry.
    const zip = join(tmp(), 'copies.zip');
    expect((await r.run(['cases', 'bundle', 'Copies', zip])).code).toBe(0);
    const dir = tmp();
    execFileSync('unzip', ['-q', zip, '-d', dir]);
    const py = spawnSync('python3', ['verify_chain.py'], { cwd: dir, encoding: 'utf8' });
    expect(py.status, py.stdout + py.stderr).toBe(0);
    const bundled = await r.run(['cases', 'verify', zip, '--allow-sandbox']);
    expect(bundled.code, bundled.stdout + bundled.stderr).toBe(0);
  }, 120_000);

  it('a copy reused into a case its photo is not in: that result is linked first, as a stored answer', async () => {
    const r = caseRunner(sb);
    expect((await r.run(['locate', join(photos.originals, 'photo1.jpg')])).code).toBe(0);
    expect((await r.run(['cases', 'create', '--name', 'Later', '--local'])).code).toBe(0);
    const res = await r.run(['locate', join(photos.copies, 'photo1-q70.jpg'), '--reuse-similar', '--case', 'Later']);
    expect(res.code, res.stderr).toBe(0);
    const log = custodyOf(r.data, caseId(r.data, 'Later'));
    expect(events(log)).toEqual(['case_created', 'answer_received', 'result_linked', 'input_hashed', 'copy_linked']);
    expect(log[1]!.data.answer).toHaveProperty('stored_at');
    expect((await r.run(['cases', 'verify', 'Later', '--allow-sandbox'])).code).toBe(0);
  }, 120_000);

  it('cases verify names a copy_linked entry whose distance is not its hashes\', or whose answer the case never linked', () => {
    const actor = { user: 'u', host: 'h', geo: 't' };
    const a = '0'.repeat(64);
    const b = `${'f'.repeat(4)}${'0'.repeat(60)}`;
    const data = (distance: number, answer: 'reused' | 'paid'): CopyLinked => ({
      copy: { input: { path: 'c.jpg', sha256: '1'.repeat(64), pdq: a }, of: { sha256: '2'.repeat(64), pdq: b, input_path: 'p.jpg', analysis_id: null, answer_sha256: '3'.repeat(64) }, distance, answer },
    });
    const first = sealEntry(undefined, 'c1', { event: 'case_created', data: { case: { id: 'c1', name: 'n' } } }, actor, new Date(0));
    const entries = [first];
    for (const [d, how] of [[16, 'reused'], [15, 'paid']] as const) entries.push(sealEntry(entries.at(-1), 'c1', { event: 'copy_linked', data: data(d, how) }, actor, new Date(0)));
    expect(copyLinkFailures(entries.map((e, i) => ({ n: i + 1, e })))).toEqual([
      expect.stringMatching(/^entry 2 \(copy_linked\): the answer it says was reused .* is linked to the case by no result_linked entry before it$/),
      'entry 3 (copy_linked): says the images are 15 bits apart, but their perceptual hashes are 16 apart',
      expect.stringMatching(/^entry 3 \(copy_linked\): the copy it says was paid for .* has no result linked to the case before it$/),
    ]);
  });
});
