/**
 * Issue 31, item 2: what a signature over a custody log signs, and how a log's signatures are
 * judged. The message is exactly `geo-custody/1 case=<id> seq=<n> head=<hex>\n` (ssh-keygen -Y
 * verify checks geo's signature over it, and refuses it for another case or seq); a signature
 * lifted to another case or another seq fails; every entry past the last valid signature is
 * named; with your allowed_signers, only its keys count. Real Ed25519 keys from ssh-keygen.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keySigner, readOpenSshPrivateKey } from '../../src/config/openssh-private-key.js';
import { parseAllowedSigners } from '../../src/evidence/allowed-signers.js';
import type { CustodyEntry } from '../../src/evidence/custody.js';
import { CustodyLog, MemoryCustodyStorage } from '../../src/evidence/custody-log.js';
import { checkSignatures, custodyMessage } from '../../src/evidence/custody-sign.js';
import { fingerprint, publicKeyLine } from '../../src/evidence/ssh-key.js';
import { type SshSigner, signSshsig } from '../../src/evidence/sshsig.js';
import { makeKey, sshVerify, tmp } from '../helpers/ssh.js';

const dir = tmp('geo-custody-sign-');
const alice = makeKey(dir, 'alice', { comment: 'alice@example.org' });
const bob = makeKey(dir, 'bob', { comment: 'bob@example.org' });
const ACTOR = { user: 'analyst', host: 'desk-1', geo: 'test' };

function signerOf(path: string): SshSigner {
  const k = readOpenSshPrivateKey(readFileSync(path, 'utf8'));
  if (k.encrypted) throw new Error('encrypted');
  return keySigner(k.privateKey, k.publicKey);
}

/** A case's log: case_created and three inputs hashed. */
async function caseLog(id = 'lc_000000000001') {
  const storage = new MemoryCustodyStorage();
  let t = Date.parse('2026-01-01T00:00:00Z');
  const log = new CustodyLog(storage, ACTOR, () => (t += 1000));
  await log.append(id, { event: 'case_created', data: { case: { id, name: 'Harbour fire' } } });
  for (const c of ['a', 'b', 'c']) await log.append(id, { event: 'input_hashed', data: { input: { path: `${c}.jpg`, sha256: c.repeat(64), size: 1 } } });
  const entries = async () => (await storage.lines(id)).map((l) => JSON.parse(l) as CustodyEntry);
  /** head_signed over the current head, signed by `key` (what geo cases sign appends). */
  const sign = async (key: { path: string }, principal: string) => {
    const last = (await entries()).at(-1)!;
    const signer = signerOf(key.path);
    const sshsig = await signSshsig(custodyMessage(id, last.seq, last.hash), signer);
    await log.append(id, { event: 'head_signed', data: { signature: { seq: last.seq, head: last.hash, sshsig, fingerprint: fingerprint(signer.publicKey), public_key: publicKeyLine({ key: signer.publicKey.key }), principal } } });
  };
  return { id, log, storage, entries, sign };
}

const allowed = (...lines: Array<[string, { pub: string }]>) => parseAllowedSigners(lines.map(([p, k]) => `${p} namespaces="geo-custody" ${k.pub}`).join('\n'));

describe('the signed message', () => {
  it('is one ASCII line naming the case, the seq and the head; ssh-keygen verifies geo\'s signature over it, and not over another case or seq', async () => {
    const head = 'ab'.repeat(32);
    const msg = custodyMessage('lc_0123456789ab', 7, head);
    expect(msg.toString('latin1')).toBe(`geo-custody/1 case=lc_0123456789ab seq=7 head=${head}\n`);
    const sig = await signSshsig(msg, signerOf(alice.path));
    const allowedLine = `alice@example.org namespaces="geo-custody" ${alice.pub}\n`;
    const check = (message: Buffer) => sshVerify(dir, { allowed: allowedLine, principal: 'alice@example.org', namespace: 'geo-custody', signature: sig, message });
    expect(check(msg).status).toBe(0);
    expect(check(custodyMessage('lc_0123456789ac', 7, head)).status).not.toBe(0);
    expect(check(custodyMessage('lc_0123456789ab', 8, head)).status).not.toBe(0);
  });
});

describe('checkSignatures', () => {
  it('an unsigned log: nothing to check, nothing fails (unless a signature is required)', async () => {
    const c = await caseLog();
    expect(checkSignatures(await c.entries())).toMatchObject({ signed: false, ok: true, covered: null, failures: [] });
    expect(checkSignatures(await c.entries(), { required: true }).failures).toEqual(['the custody log carries no signature (--require-signature): geo cases sign signs its head']);
  });

  it('a signed log: each signature valid, by which key, covering up to its head; an entry after it is named', async () => {
    const c = await caseLog();
    await c.sign(alice, 'alice@example.org');
    const ok = checkSignatures(await c.entries());
    expect(ok).toMatchObject({ signed: true, ok: true, covered: 4, counting: 'any-valid', failures: [] });
    expect(ok.signatures).toEqual([expect.objectContaining({ entry: 5, seq: 4, ok: true, trust: 'unlisted', principal: 'alice@example.org' })]);
    await c.log.append(c.id, { event: 'file_written', data: { file: { kind: 'report', format: 'html', path: 'r.html', sha256: 'd'.repeat(64), size: 1 } } });
    expect(checkSignatures(await c.entries()).failures).toEqual(['entry 6 (file_written) is past the last valid signature (entry 5, over entry 4): appended by someone without the key, or the log was rewritten']);
  });

  it('a signature lifted into another case, or to another seq, does not hold', async () => {
    const a = await caseLog('lc_00000000000a');
    await a.sign(alice, 'alice@example.org');
    const lifted = (await a.entries()).at(-1)!.data;
    // Another case whose entry 4 has the very same hash is impossible; the same head claimed for it still fails on the case id.
    const b = await caseLog('lc_00000000000b');
    const bEntries = await b.entries();
    await b.log.append(b.id, { event: 'head_signed', data: { signature: { ...(lifted.signature as object), head: bEntries.at(-1)!.hash } as never } });
    const r = checkSignatures(await b.entries());
    expect(r.signatures[0]).toMatchObject({ ok: false, problem: expect.stringMatching(/does not match these bytes/) });
    expect(r.failures[0]).toBe('entry 1 (case_created) is past the last valid signature (none holds): appended by someone without the key, or the log was rewritten');
    // The same signature said to be over entry 3 (its head put in): the seq is in the message too.
    const c = await caseLog('lc_00000000000a');
    const cEntries = await c.entries();
    await c.log.append(c.id, { event: 'head_signed', data: { signature: { ...(lifted.signature as object), seq: 3, head: cEntries[2]!.hash } as never } });
    expect(checkSignatures(await c.entries()).signatures[0]).toMatchObject({ ok: false, problem: expect.stringMatching(/does not match these bytes/) });
  });

  it('with your allowed_signers: its keys are "allowed" for the principals its lines match; another key\'s valid signature is unlisted and covers nothing', async () => {
    const c = await caseLog();
    await c.sign(alice, 'alice@example.org');
    await c.log.append(c.id, { event: 'file_written', data: { file: { kind: 'report', format: 'html', path: 'r.html', sha256: 'd'.repeat(64), size: 1 } } });
    await c.sign(bob, 'bob@example.org');
    const both = checkSignatures(await c.entries(), { allowed: allowed(['alice@example.org', alice], ['*@example.org', bob]) });
    expect(both).toMatchObject({ ok: true, covered: 6, counting: 'allowed-signers' });
    expect(both.signatures.map((s) => [s.trust, s.principal])).toEqual([['allowed', 'alice@example.org'], ['allowed', 'bob@example.org']]);
    // Bob's key under another name: ssh-keygen -Y verify -I bob@example.org refuses it, so does geo.
    const renamed = checkSignatures(await c.entries(), { allowed: allowed(['alice@example.org', alice], ['bob@desk', bob]) });
    expect(renamed.signatures.map((s) => s.trust)).toEqual(['allowed', 'unlisted']);
    const onlyAlice = checkSignatures(await c.entries(), { allowed: allowed(['alice@example.org', alice]) });
    expect(onlyAlice.signatures.map((s) => s.trust)).toEqual(['allowed', 'unlisted']);
    expect(onlyAlice.failures).toEqual(['entry 6 (file_written) is past the last valid signature (entry 5, over entry 4): appended by someone without the key, or the log was rewritten']);
    const nobody = checkSignatures(await c.entries(), { allowed: allowed(['carol@example.org', { pub: makeKey(dir, 'carol').pub }]) });
    expect(nobody.failures[0]).toMatch(/^entry 1 \(case_created\) is past the last valid signature \(none by a key of your allowed_signers\)/);
    // A bundle's own allowed_signers names the principals; it trusts no one.
    const bundled = checkSignatures(await c.entries(), { bundled: allowed(['alice@example.org', alice]) });
    expect(bundled.signatures.map((s) => [s.trust, s.principal])).toEqual([['bundle', 'alice@example.org'], ['unlisted', 'bob@example.org']]);
    expect(bundled.ok).toBe(true);
  });

  it('a signature whose entry names another key than the one that signed is named', async () => {
    const c = await caseLog();
    await c.sign(alice, 'alice@example.org');
    const lines = c.storage.raw(c.id);
    const e = JSON.parse(lines.at(-1)!) as CustodyEntry;
    (e.data.signature as { public_key: string }).public_key = bob.pub;
    lines[lines.length - 1] = JSON.stringify(e); // its own hash no longer holds either: the chain says so apart
    expect(checkSignatures((await c.storage.lines(c.id)).map((l) => JSON.parse(l) as CustodyEntry)).signatures[0]).toMatchObject({ ok: false, problem: expect.stringMatching(/^it names key SHA256:\S+, but the signature is by SHA256:/) });
  });
});
