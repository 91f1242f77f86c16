/**
 * Issue 31, item 2 ("Must show"): after signing, a cut, a rewrite with a re-pinned head, a
 * re-ordered log and an entry added by someone without the key, each done to geo.db with the
 * sqlite3 CLI as anyone holding the file could, fail `geo cases verify`, naming the first entry
 * past the last valid signature. The case is signed as it is appended (locate --case with a key
 * chosen); a key that cannot sign never holds up the paid answer (entries appended, said on
 * stderr, signed later with geo cases sign); two analysts, two HOMEs over one data folder, both
 * sign and both signatures verify. Real Ed25519 keys from ssh-keygen; ssh-keygen checks what geo
 * signed.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { custodyMessage } from '../../src/evidence/custody-sign.js';
import { GEO_BIN } from '../helpers/run-cli.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { type Agent, makeKey, sshVerify, startAgent, tmp as sshTmp } from '../helpers/ssh.js';
import { type Loose, caseId, caseRunner, custodyOf, events, rewriteLog, tmp } from './helpers.js';

const sb = withSandbox();
const keys = sshTmp('geo-signed-keys-');
const alice = makeKey(keys, 'alice', { comment: 'alice@example.org' });
const bob = makeKey(keys, 'bob', { comment: 'bob@example.org' });
const ALLOWED = join(keys, 'allowed_signers');
writeFileSync(ALLOWED, `alice@example.org namespaces="geo-custody" ${alice.pub}\nbob@example.org namespaces="geo-custody" ${bob.pub}\n`);

/** One analyst: a config folder of their own (their chosen key) over a shared data folder. */
const analyst = (data: string, config: string) => {
  const { run } = caseRunner(sb, data);
  return (argv: string[], env: Record<string, string | undefined> = {}) => run(argv, { env: { GEO_CONFIG_DIR: config, HOME: config, ...env } });
};

let base: { data: string; id: string; config: string };
beforeAll(async () => {
  const data = tmp('geo-signed-data-');
  const config = tmp('geo-signed-alice-');
  const geo = analyst(data, config);
  expect((await geo(['keys', 'signing', 'use', alice.path, '--principal', 'alice@example.org'])).code).toBe(0);
  expect((await geo(['cases', 'create', '--name', 'Signed', '--local'])).code).toBe(0);
  for (const f of ['paris.jpg', 'tokyo.jpg']) {
    const r = await geo(['locate', FIXTURES + f, '--case', 'Signed']);
    expect(r.code, r.stderr).toBe(0);
  }
  base = { data, id: caseId(data, 'Signed'), config };
  expect(events(custodyOf(data, base.id))).toEqual([
    'case_created', 'input_hashed', 'request_sent', 'answer_received', 'result_linked', 'head_signed',
    'input_hashed', 'request_sent', 'answer_received', 'result_linked', 'head_signed',
  ]);
}, 60_000);

const verify = (data: string, extra: string[] = []) => caseRunner(sb, data).run(['cases', 'verify', 'Signed', '--allow-sandbox', ...extra], { env: { GEO_API_KEY: undefined, GEO_BASE_URL: 'http://127.0.0.1:9' } });

describe('a case signed as it is appended', () => {
  it('geo cases sign after the automatic signature says where the allowed_signers file comes from; its check lines run as written', async () => {
    const data = tmp('geo-signed-again-');
    cpSync(base.data, data, { recursive: true });
    const r = await analyst(data, base.config)(['cases', 'sign', 'Signed']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/this key signed its head \(entry 10\) already, at entry 11: nothing appended/);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  check    '));
    expect(lines[at]).toBe('  check    geo keys signing show --jq .allowedSigners >> allowed_signers');
    expect(lines[at + 1]).toBe(`           geo cases verify ${base.id} --allowed-signers allowed_signers`);
    // As a person would: the two commands in a shell, in a folder of their own, geo on PATH.
    const bin = tmp('geo-signed-bin-');
    writeFileSync(join(bin, 'geo'), `#!/bin/sh\nexec "${process.execPath}" "${GEO_BIN}" "$@"\n`, { mode: 0o755 });
    const here = tmp('geo-signed-check-');
    const script = [lines[at]!, lines[at + 1]!].map((l) => l.replace(/^ {2}check {4}| {11}/, '')).join(' && ');
    const out = execFileSync('sh', ['-c', `${script} --allow-sandbox`], { cwd: here, encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH}`, HOME: base.config, GEO_CONFIG_DIR: base.config, GEO_DATA_DIR: data } });
    expect(out).toMatch(/signatures +2 of 2 signatures valid; entries 1 to 10 covered \(keys of your allowed_signers count\)/);
  });

  it('verifies: each signature valid, in your allowed_signers, the whole log covered', async () => {
    const r = await verify(base.data, ['--allowed-signers', ALLOWED, '--require-signature']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/integrity +the chain is intact and bound by the signatures below/);
    expect(r.stdout).toMatch(/signatures +2 of 2 signatures valid; entries 1 to 10 covered \(keys of your allowed_signers count\)\n +✓ entry 6 signs entry 5: alice@example\.org, key SHA256:\S+, in your allowed_signers\n +✓ entry 11 signs entry 10: alice@example\.org/);
    const json = JSON.parse((await verify(base.data, ['--json'])).stdout);
    expect(json.signatures).toMatchObject({ signed: true, ok: true, covered: 10, counting: 'any-valid', signatures: [{ entry: 6, seq: 5, trust: 'unlisted', ok: true }, { entry: 11, seq: 10, trust: 'unlisted', ok: true }] });
    expect(json.integrity).toMatchObject({ ok: true, signed: true });
  });

  it('ssh-keygen -Y verify, knowing nothing of geo, accepts each signature over the line the log names', () => {
    const entries = custodyOf(base.data, base.id);
    for (const e of entries.filter((x) => x.event === 'head_signed')) {
      const s = e.data.signature as { seq: number; head: string; sshsig: string };
      expect(s.head).toBe(entries[s.seq - 1]!.hash);
      const v = sshVerify(keys, { allowed: `alice@example.org namespaces="geo-custody" ${alice.pub}\n`, principal: 'alice@example.org', namespace: 'geo-custody', signature: s.sshsig, message: custodyMessage(base.id, s.seq, s.head) });
      expect(v.status, v.stderr).toBe(0);
    }
  });

  it('an allowed_signers file without its key: no signature counts, entry 1 is past the last valid one', async () => {
    const other = join(keys, 'others');
    writeFileSync(other, `carol@example.org namespaces="geo-custody" ${makeKey(keys, 'carol').pub}\n`);
    const r = await verify(base.data, ['--allowed-signers', other]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✓ entry 6 signs entry 5: valid signature by an unlisted key SHA256:');
    expect(r.stderr).toMatch(/^error: case lc_\w+ does not verify: entry 1 \(case_created\) is past the last valid signature \(none by a key of your allowed_signers\)/);
  });
});

describe('an allowed_signers principal list read as ssh-keygen reads it: comma-separated patterns, * and ?, a matching !pattern wins', () => {
  // The signer's principal is alice@example.org; each line holds her key. ssh-keygen -Y verify -I
  // alice@example.org over the message of entry 6 gives the answer geo must give.
  it.each([
    ['*,!alice@example.org', false],
    ['!alice@example.org,*', false],
    ['*@example.org,!alice@*', false],
    ['bob@example.org', false],
    ['ALICE@example.org', false],
    ['alice@example.org,!bob@example.org', true],
    ['*', true],
    ['?lice@example.or?', true],
    ['bob@example.org,al*', true],
  ])('%s: trusted %s, as ssh-keygen -Y verify says', async (principals, trusted) => {
    const file = join(keys, `patterns-${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, `${principals} namespaces="geo-custody" ${alice.pub}\n`);
    const s = custodyOf(base.data, base.id)[5]!.data.signature as { seq: number; head: string; sshsig: string };
    const ssh = sshVerify(keys, { allowed: `${principals} namespaces="geo-custody" ${alice.pub}\n`, principal: 'alice@example.org', namespace: 'geo-custody', signature: s.sshsig, message: custodyMessage(base.id, s.seq, s.head) });
    expect(ssh.status === 0, `ssh-keygen: ${ssh.stdout}${ssh.stderr}`).toBe(trusted);
    const r = await verify(base.data, ['--allowed-signers', file]);
    expect(r.code, r.stderr).toBe(trusted ? 0 : 1);
    if (trusted) expect(r.stdout).toMatch(/✓ entry 6 signs entry 5: alice@example\.org, key SHA256:\S+, in your allowed_signers/);
    else expect(r.stdout).toContain('✓ entry 6 signs entry 5: valid signature by an unlisted key SHA256:');
  });
});

/** The attacker's rewrite of geo.db (helpers.ts rewriteLog), on a copy of the signed case. */
const rewrite = (change: (entries: Loose[]) => Loose[], extraSql = ''): string => rewriteLog(base.data, base.id, change, extraSql);

describe('after signing, each way of changing the log in geo.db fails, naming the first entry past the last valid signature', () => {
  it.each([
    [
      'a cut: the last result and its signature removed (its link too), count and head re-pinned',
      () => rewrite((e) => e.slice(0, 8), "DELETE FROM case_results WHERE case_id = '%ID' AND rowid = (SELECT max(rowid) FROM case_results WHERE case_id = '%ID');"),
      /entry 7 \(input_hashed\) is past the last valid signature \(entry 6, over entry 5\): appended by someone without the key, or the log was rewritten/,
    ],
    [
      'a rewrite with the head re-pinned: the second request\'s fields changed, every hash recomputed',
      () => rewrite((e) => e.map((x) => (x.event === 'request_sent' && x.seq === 8 ? { ...x, data: { request: { ...x.data.request, idempotency_key: 'forged' } } } : x))),
      /entry 7 \(input_hashed\) is past the last valid signature \(entry 6, over entry 5\)/,
    ],
    [
      're-ordered: two entries swapped and re-sealed in their new order',
      () => rewrite((e) => [...e.slice(0, 6), e[7]!, e[6]!, ...e.slice(8)]),
      /entry 7 \(request_sent\) is past the last valid signature \(entry 6, over entry 5\)/,
    ],
    [
      'an entry added by someone without the key: a well-formed file_written after the last signature',
      () => rewrite((e) => [...e, { ...e.at(-1)!, event: 'file_written', data: { file: { kind: 'report', format: 'html', path: '/tmp/planted.html', sha256: 'ab'.repeat(32), size: 10 } } }]),
      /entry 12 \(file_written\) is past the last valid signature \(entry 11, over entry 10\)/,
    ],
  ])('%s', async (_name, make, line) => {
    const data = make();
    const r = await verify(data);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`✗ ${line.source}`));
    expect(r.stdout).toMatch(/integrity +the chain is intact and bound by the signatures below/); // the chain alone cannot tell
    expect(r.stderr).toMatch(new RegExp(`^error: case lc_\\w+ does not verify: ${line.source}`));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('the rewrite also names the signature that no longer matches its head', async () => {
    const data = rewrite((e) => e.map((x) => (x.seq === 8 ? { ...x, data: { request: { ...x.data.request, idempotency_key: 'forged' } } } : x)));
    const r = await verify(data);
    expect(r.stdout).toMatch(/✗ entry 11 \(head_signed\): it signs head [0-9a-f]{16}… as entry 10's, but entry 10's hash is [0-9a-f]{16}…: the log was rewritten after it was signed/);
  });
});

describe('signing never holds up a paid answer', () => {
  let agent: Agent;
  beforeAll(async () => {
    agent = await startAgent(sshTmp('geo-signed-agent-'));
  });

  it('the chosen key is in an agent that is gone: the answer is shown and stored, the entries appended, the failure said; geo cases sign signs them later', async () => {
    const data = tmp('geo-signed-agent-data-');
    const config = tmp('geo-signed-agent-config-');
    const geo = analyst(data, config);
    expect(agent.add(alice.path).status).toBe(0);
    const fp = execFileSync('ssh-keygen', ['-lf', alice.path], { encoding: 'utf8' }).split(' ')[1]!;
    expect((await geo(['keys', 'signing', 'use', `agent:${fp}`, '--principal', 'alice@example.org'], { SSH_AUTH_SOCK: agent.sock })).code).toBe(0);
    expect((await geo(['cases', 'create', '--name', 'Signed', '--local'])).code).toBe(0);
    expect((await geo(['locate', FIXTURES + 'paris.jpg', '--case', 'Signed'], { SSH_AUTH_SOCK: agent.sock })).code).toBe(0);
    await agent.close();
    const r = await geo(['locate', FIXTURES + 'tokyo.jpg', '--case', 'Signed', '--json'], { SSH_AUTH_SOCK: agent.sock });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ analysis_id: expect.any(String) }); // the answer, shown
    const id = caseId(data, 'Signed');
    expect(r.stderr).toMatch(new RegExp(`custody: case ${id} is not signed: .*; the entries are appended, unsigned until geo cases sign ${id}`));
    expect(events(custodyOf(data, id)).slice(-5)).toEqual(['head_signed', 'input_hashed', 'request_sent', 'answer_received', 'result_linked']);
    const before = await verify(data);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('✗ entry 7 (input_hashed) is past the last valid signature (entry 6, over entry 5)');
    // Another key, named for once: it covers what was appended since.
    const signed = await geo(['cases', 'sign', 'Signed', '--key', bob.path]);
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.stdout).toMatch(/signed case lc_\w+ \(Signed\): entry 11 signs the head of entry 10\n {2}signer +\S+, key SHA256:\S+\n {2}head +[0-9a-f]{64}\n {2}covers +entries 7 to 10 \(input_hashed, request_sent, answer_received, result_linked\), unsigned until now/);
    // Bob's key signed under the one principal of this config (alice@example.org): a file that
    // trusts both keys for anyone at example.org counts it, as ssh-keygen -Y verify -I would.
    const team = join(keys, 'team_signers');
    writeFileSync(team, `*@example.org namespaces="geo-custody" ${alice.pub}\n*@example.org namespaces="geo-custody" ${bob.pub}\n`);
    expect((await verify(data, ['--allowed-signers', team])).code).toBe(0);
    expect((await verify(data, ['--allowed-signers', ALLOWED])).code).toBe(1);
  });
});

describe('a signed case, appended to where no key is chosen', () => {
  it('the entries are appended and it is said they are unsigned; a bundle of it is refused until a key is chosen', async () => {
    const data = tmp('geo-signed-nokey-');
    cpSync(base.data, data, { recursive: true });
    const geo = analyst(data, tmp('geo-signed-nokey-config-'));
    const r = await geo(['locate', FIXTURES + 'paris.jpg', '--case', 'Signed', '--depth', '2']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`custody: case ${base.id} is signed, but no signing key is chosen (geo keys signing use): entries from 12 on are unsigned until geo cases sign ${base.id}, and geo cases verify fails them`);
    const b = await geo(['cases', 'bundle', 'Signed', join(tmp(), 'signed.zip')]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/^error: case lc_\w+ is signed, so its bundle must be too, and no signing key is chosen: no bundle is written — hint: geo keys signing use REF/);
  });
});

describe('two analysts, two HOMEs over one data folder, sign one case', () => {
  it('both signatures verify, each under its own principal; signing the same head twice appends nothing', async () => {
    const data = tmp('geo-two-analysts-');
    cpSync(base.data, data, { recursive: true });
    const bobGeo = analyst(data, tmp('geo-signed-bob-'));
    expect((await bobGeo(['keys', 'signing', 'use', bob.path, '--principal', 'bob@example.org'])).code).toBe(0);
    const r = await bobGeo(['cases', 'sign', 'Signed', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ signature: { entry: 12, seq: 11, principal: 'bob@example.org', appended: true }, newly: null });
    const again = JSON.parse((await bobGeo(['cases', 'sign', 'Signed', '--json'])).stdout);
    expect(again.signature).toMatchObject({ entry: 12, appended: false });
    const v = await verify(data, ['--allowed-signers', ALLOWED, '--require-signature', '--json']);
    expect(v.code).toBe(0);
    const sigs = JSON.parse(v.stdout).signatures.signatures as Array<{ principal: string; trust: string; ok: boolean }>;
    expect(sigs.map((s) => [s.principal, s.trust, s.ok])).toEqual([['alice@example.org', 'allowed', true], ['alice@example.org', 'allowed', true], ['bob@example.org', 'allowed', true]]);
  });
});
