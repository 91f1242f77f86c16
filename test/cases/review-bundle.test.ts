/**
 * A reviewed case's bundle: each review's line and signature are in it (signatures/review-<n>.msg,
 * .sig), VERIFY.md lists an `ssh-keygen -Y verify` line for each, verify_chain.py checks each line
 * against its review_made entry, and every command VERIFY.md lists exits 0, run with standard
 * tools alone in a HOME with no geo config. geo itself, with no config, checks the reviews of the
 * bundle as it does a local case's: --require-reviews 1 passes, and fails once a note follows.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnGeo } from '../helpers/run-cli.js';
import { withSandbox } from '../helpers/sandbox.js';
import { tmp } from '../helpers/ssh.js';
import { custodyOf } from './helpers.js';
import { copy, reviewKeys, reviewedCase } from './review-setup.js';

const sb = withSandbox();
const k = reviewKeys();
const STRICT = ['--require-signature', '--require-reviews', '1', '--allowed-signers', k.allowed, '--allow-sandbox'];

/** The zip extracted (unzip) into a folder of its own. */
function extracted(zip: string): string {
  const dir = tmp('geo-review-x-');
  execFileSync('unzip', ['-q', zip, '-d', dir]);
  return dir;
}
/** Every ```sh block line of VERIFY.md: exactly the commands it tells a reader to run. */
const commandsOf = (dir: string) => readFileSync(join(dir, 'VERIFY.md'), 'utf8').match(/```sh\n[\s\S]*?```/g)!.flatMap((b) => b.split('\n').slice(1, -1));
/** One command as a reader runs it: a POSIX shell in the folder, nothing of geo's on PATH or in the environment. */
const sh = (dir: string, line: string) => spawnSync('sh', ['-c', line], { cwd: dir, env: { PATH: process.env.PATH }, encoding: 'utf8' });

let zip: string;
let stale: string;
let review: number;
beforeAll(async () => {
  const c = await reviewedCase(sb, k);
  review = custodyOf(c.approved, c.id).find((e) => e.event === 'review_made')!.seq;
  const out = tmp('geo-review-out-');
  zip = join(out, 'reviewed.zip');
  const made = await c.asAlice(c.approved, ['cases', 'bundle', 'Reviewed', zip]);
  expect(made.code, made.stderr).toBe(0);
  // The same case with a note after the review, bundled.
  const noted = copy(c.approved);
  expect((await c.asAlice(noted, ['cases', 'note', 'Reviewed', '--observation', 'a crane on the left edge'])).code).toBe(0);
  stale = join(out, 'noted.zip');
  expect((await c.asAlice(noted, ['cases', 'bundle', 'Reviewed', stale])).code).toBe(0);
}, 90_000);

describe('a reviewed case\'s bundle', () => {
  it('verifies with no geo config: the review current, its signature valid, --require-reviews 1 met', async () => {
    const r = await spawnGeo(['cases', 'verify', zip, ...STRICT]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`✓ entry ${review} approves: bob@example\\.org, key SHA256:\\S+, in your allowed_signers; current`));
    const json = JSON.parse((await spawnGeo(['cases', 'verify', zip, ...STRICT, '--json'])).stdout);
    expect(json.reviews).toMatchObject({ ok: true, approvals: 1, reviews: [{ entry: review, counts: true, trust: 'allowed' }] });
  }, 30_000);

  it('every command VERIFY.md lists exits 0 with standard tools alone, among them ssh-keygen -Y verify of the review', () => {
    const dir = extracted(zip);
    const commands = commandsOf(dir);
    const line = `ssh-keygen -Y verify -f allowed_signers -I bob@example.org -n geo-custody -s signatures/review-${review}.sig < signatures/review-${review}.msg`;
    expect(commands).toContain(line);
    expect(commands[0]).toBe('sha256sum -c SHA256SUMS');
    expect(commands[1]).toBe('python3 verify_chain.py');
    for (const c of commands) {
      const o = sh(dir, c);
      expect(o.status, `${c}\n${o.stdout}${o.stderr}`).toBe(0);
    }
    expect(sh(dir, line).stdout + sh(dir, line).stderr).toMatch(/^Good "geo-custody" signature for bob@example\.org with ED25519 key SHA256:/);
    expect(readFileSync(join(dir, `signatures/review-${review}.msg`), 'utf8')).toMatch(new RegExp(`^geo-custody-review/1 case=lc_\\w+ seq=${review - 1} head=[0-9a-f]{64} verdict=approve because=[0-9a-f]{64}\\n$`));
  }, 30_000);

  it('a review line edited in the extracted bundle: verify_chain.py and ssh-keygen refuse it', () => {
    const dir = extracted(zip);
    const file = join(dir, `signatures/review-${review}.msg`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('verdict=approve', 'verdict=request_changes'));
    const py = sh(dir, 'python3 verify_chain.py');
    expect(py.status).not.toBe(0);
    expect(py.stderr).toBe(`FAILED: signatures/review-${review}.msg is not the message entry ${review} (review_made) signs\n`);
    const ssh = sh(dir, commandsOf(dir).find((c) => c.includes(`review-${review}.sig`))!);
    expect(ssh.status).not.toBe(0);
  });

  it('bundled after a note: the review is stale and --require-reviews 1 fails, naming it', async () => {
    const r = await spawnGeo(['cases', 'verify', stale, ...STRICT]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: \\S+noted\\.zip does not verify: review at entry ${review} is stale: entry \\d+ \\(note_made\\) came after it`));
    const plain = await spawnGeo(['cases', 'verify', stale, '--allow-sandbox']);
    expect(plain.code, plain.stderr).toBe(0);
  }, 30_000);
});
