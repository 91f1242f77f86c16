/**
 * A second analyst's review: two signing keys made by ssh-keygen, a case on the sandbox whose
 * conclusion is alice's (key A), a review by bob (key B). The approval makes `geo cases verify
 * --require-signature --require-reviews 1 --allowed-signers FILE` pass; a note after it makes it
 * stale and the check fails naming it; a review by key A is refused with nothing appended; a
 * request for changes is no approval; the review's text changed in geo.db with the sqlite3 CLI
 * fails verify naming the entry. ssh-keygen checks the review's signature over its own line.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { withSandbox } from '../helpers/sandbox.js';
import { sshVerify } from '../helpers/ssh.js';
import { caseId, caseRunner, custodyOf, events, rewriteLog, sqlite3 } from './helpers.js';
import { BECAUSE, analyst, copy, reviewKeys, reviewedCase } from './review-setup.js';

const sb = withSandbox();
const { keys, alice, bob, allowed: ALLOWED } = reviewKeys();
const STRICT = ['--require-signature', '--require-reviews', '1', '--allowed-signers', ALLOWED];
const verify = (data: string, extra: string[] = []) => caseRunner(sb, data).run(['cases', 'verify', 'Reviewed', '--allow-sandbox', ...extra], { env: { GEO_API_KEY: undefined, GEO_BASE_URL: 'http://127.0.0.1:9' } });
const count = (data: string) => custodyOf(data, id).length;

let id: string;
/** The case concluded by alice, not yet reviewed; a copy bob approved; the two analysts. */
let concluded: string;
let approved: string;
let asAlice: ReturnType<typeof analyst>;
let asBob: ReturnType<typeof analyst>;
beforeAll(async () => {
  ({ id, concluded, approved, asAlice, asBob } = await reviewedCase(sb, { keys, alice, bob, allowed: ALLOWED }));
}, 60_000);

describe('a review by a second analyst, with their own key', () => {
  it('is appended with its signature over its own line, then the head signed by the same key; verify --require-reviews 1 passes', async () => {
    const entries = custodyOf(approved, id);
    expect(events(entries).slice(-4)).toEqual(['conclusion_made', 'head_signed', 'review_made', 'head_signed']);
    const [concl, , rev, sig] = entries.slice(-4);
    const review = rev!.data.review as Record<string, unknown>;
    expect(review).toMatchObject({ verdict: 'approve', because: BECAUSE, seq: rev!.seq - 1, head: entries[rev!.seq - 2]!.hash, principal: 'bob@example.org' });
    expect(rev!.key).toBe(review.fingerprint);
    expect(concl!.key).not.toBe(review.fingerprint);
    expect(sig!.data.signature).toMatchObject({ seq: rev!.seq, head: rev!.hash, fingerprint: review.fingerprint });
    const r = await verify(approved, STRICT);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`reviews +1 review, 1 current; 1 approval counted \\(current, approving the conclusion of entry ${concl!.seq} with a key of your allowed_signers but its author's\\), 1 required`));
    expect(r.stdout).toMatch(new RegExp(`✓ entry ${rev!.seq} approves: bob@example\\.org, key SHA256:\\S+, in your allowed_signers; current \\(over entry ${rev!.seq - 1}\\)`));
    const json = JSON.parse((await verify(approved, [...STRICT, '--json'])).stdout);
    expect(json.reviews).toMatchObject({ ok: true, approvals: 1, required: 1, counting: 'allowed-signers', conclusion: { entry: concl!.seq, keys: [concl!.key] }, reviews: [{ entry: rev!.seq, verdict: 'approve', ok: true, counts: true, trust: 'allowed' }] });
  });

  it('ssh-keygen -Y verify, knowing nothing of geo, accepts the review\'s signature over the line the entry names', () => {
    const rev = custodyOf(approved, id).find((e) => e.event === 'review_made')!;
    const d = rev.data.review as { seq: number; head: string; verdict: string; because: string; sshsig: string };
    const message = `geo-custody-review/1 case=${id} seq=${d.seq} head=${d.head} verdict=${d.verdict} because=${createHash('sha256').update(d.because).digest('hex')}\n`;
    const v = sshVerify(keys, { allowed: `bob@example.org namespaces="geo-custody" ${bob.pub}\n`, principal: 'bob@example.org', namespace: 'geo-custody', signature: d.sshsig, message });
    expect(v.status, v.stderr).toBe(0);
  });

  it('a note added after the review makes it stale: --require-reviews 1 fails naming the review; without the flag it verifies, the review shown stale', async () => {
    const data = copy(approved);
    expect((await asAlice(data, ['cases', 'note', 'Reviewed', '--observation', 'a crane on the left edge'])).code).toBe(0);
    const entries = custodyOf(data, id);
    const rev = entries.find((e) => e.event === 'review_made')!.seq;
    const note = entries.find((e) => e.event === 'note_made')!.seq;
    const r = await verify(data, STRICT);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: case ${id} does not verify: review at entry ${rev} is stale: entry ${note} \\(note_made\\) came after it \\(1 more on stdout\\)`));
    expect(r.stdout).toMatch(/✗ 0 current approvals, 1 required/);
    const plain = await verify(data, ['--require-signature']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(new RegExp(`- entry ${rev} approves: bob@example\\.org, key SHA256:\\S+, in no allowed_signers; stale: entry ${note} \\(note_made\\) came after it`));
  });

  it('a request for changes is no approval, and a key\'s later review replaces its earlier one', async () => {
    const data = copy(concluded);
    expect((await asBob(data, ['cases', 'review', 'Reviewed', '--request-changes', '--because', 'rule out the Trocadéro side first'])).code).toBe(0);
    const first = await verify(data, STRICT);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/does not verify: review at entry \d+ requests changes/);
    expect(first.stdout).toMatch(/✗ 0 current approvals, 1 required/);
    // Approved, then changes requested by the same key: the latest stands.
    const again = copy(approved);
    expect((await asBob(again, ['cases', 'review', 'Reviewed', '--request-changes', '--because', 'on second thought, no'])).code).toBe(0);
    const [a, b] = custodyOf(again, id).filter((e) => e.event === 'review_made').map((e) => e.seq);
    const r = await verify(again, STRICT);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`✗ review at entry ${a} is replaced by the same key's review at entry ${b}\\n +✗ review at entry ${b} requests changes`));
  });
});

describe('refused, nothing appended (exit 2, one line)', () => {
  it('a review by the key that made the conclusion, chosen or given with --key', async () => {
    const data = copy(concluded);
    const before = count(data);
    for (const argv of [[], ['--key', alice.path]]) {
      const r = await (argv.length ? asBob : asAlice)(data, ['cases', 'review', 'Reviewed', '--approve', '--because', 'looks right to me', ...argv]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: case ${id}: the conclusion at entry \\d+ was made with key SHA256:\\S+, the one you review with: a review is another analyst's`));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(count(data)).toBe(before);
    }
  });

  it.each([
    ['no verdict', ['--because', 'fine'], /^error: a review needs a verdict: --approve or --request-changes/],
    ['both verdicts', ['--approve', '--request-changes', '--because', 'fine'], /^error: give --approve or --request-changes, not both/],
    ['no grounds', ['--approve'], /^error: --because needs words: it is missing/],
    ['empty grounds', ['--approve', '--because', '  '], /^error: --because needs words: it is empty/],
  ])('%s', async (_name, argv, line) => {
    const data = copy(concluded);
    const r = await asBob(data, ['cases', 'review', 'Reviewed', ...argv]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(count(data)).toBe(custodyOf(concluded, id).length);
  });

  it('no conclusion yet: nothing to review, and how to conclude', async () => {
    const data = copy(concluded);
    expect((await asAlice(data, ['cases', 'create', '--name', 'Bare', '--local'])).code).toBe(0);
    const r = await asBob(data, ['cases', 'review', 'Bare', '--approve', '--because', 'fine']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: nothing to review: case lc_\w+ has no conclusion yet .*geo cases conclude lc_\w+ --at PLACE\|LAT,LNG --within METRES/);
    expect(custodyOf(data, caseId(data, 'Bare'))).toHaveLength(1);
  });

  it('no signing key chosen: how to make one', async () => {
    const data = copy(concluded);
    const r = await analyst(sb)(data, ['cases', 'review', 'Reviewed', '--approve', '--because', 'fine']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no signing key is chosen .*geo keys signing create/);
    expect(count(data)).toBe(custodyOf(concluded, id).length);
  });
});

describe('the review changed in geo.db after the fact', () => {
  it('its text changed with the sqlite3 CLI: verify exits 1 naming the entry', async () => {
    const data = copy(approved);
    const rev = custodyOf(data, id).find((e) => e.event === 'review_made')!.seq;
    sqlite3(data, `UPDATE custody SET line = replace(line, 'shadows agree', 'nothing agrees') WHERE case_id = '${id}' AND seq = ${rev};`);
    const r = await verify(data, STRICT);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: case ${id} does not verify: custody log: entry ${rev} \\(review_made\\): its content does not match its hash: it was altered`));
  });

  it('its verdict changed and every hash recomputed, count and head re-pinned: the review\'s own signature fails', async () => {
    const data = rewriteLog(approved, id, (e) => e.map((x) => (x.event === 'review_made' ? { ...x, data: { review: { ...x.data.review, verdict: 'request_changes' } } } : x)));
    const rev = custodyOf(data, id).find((e) => e.event === 'review_made')!.seq;
    const r = await verify(data);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`✗ review at entry ${rev} does not hold: the signature by SHA256:\\S+ does not match these bytes`));
  });
});
