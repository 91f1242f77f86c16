/**
 * Issue 31, item 1: allowed_signers files read as ssh-keygen reads them. Each case is one file, a
 * principal (or none) and a signature by alice in namespace geo-custody; geo's verdict must equal
 * `ssh-keygen -Y verify` (or `-Y find-principals` without a principal) on the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedSignerLine, matchPatternList, parseAllowedSigners, principalProblem } from '../../src/evidence/allowed-signers.js';
import { parsePublicKeyLine } from '../../src/evidence/ssh-key.js';
import { verifySshsig } from '../../src/evidence/sshsig.js';
import { makeKey, sshKeygen, sshSign, sshVerify, tmp } from '../helpers/ssh.js';

const dir = tmp('geo-allowed-');
const alice = makeKey(dir, 'alice');
const bob = makeKey(dir, 'bob');
const HEAD = Buffer.from('head bytes\n');
writeFileSync(join(dir, 'head'), HEAD);
const sig = sshSign(alice.path, join(dir, 'head'), 'geo-custody');
const [, aliceB64] = alice.pub.split(' ');

const CASES: Array<[string, string, string | undefined, boolean]> = [
  ['a plain line', `alice@example.org ${alice.pub}\n`, 'alice@example.org', true],
  ['namespaces="geo-custody"', `alice@example.org namespaces="geo-custody" ${alice.pub}\n`, 'alice@example.org', true],
  ['namespaces of another use', `alice@example.org namespaces="git,file" ${alice.pub}\n`, 'alice@example.org', false],
  ['a namespace pattern', `alice@example.org namespaces="geo-*" ${alice.pub}\n`, 'alice@example.org', true],
  ['several principals, the second asked for', `a@x,alice@example.org ${alice.pub}\n`, 'alice@example.org', true],
  ['a principal pattern', `*@example.org ${alice.pub}\n`, 'alice@example.org', true],
  ['a negated principal', `*@example.org,!alice@example.org ${alice.pub}\n`, 'alice@example.org', false],
  ['another principal', `bob@example.org ${alice.pub}\n`, 'alice@example.org', false],
  ['another key', `alice@example.org ${bob.pub}\n`, 'alice@example.org', false],
  ['comments and blank lines around', `# team\n\n   \nalice@example.org ${alice.pub} laptop key\n`, 'alice@example.org', true],
  ['a quoted principal list', `"alice@example.org,a b" ${alice.pub}\n`, 'alice@example.org', true],
  ['valid-after in the past, valid-before in the future', `alice@example.org valid-after="20200101",valid-before="29991231Z" ${alice.pub}\n`, 'alice@example.org', true],
  ['expired (valid-before in the past)', `alice@example.org valid-before="20200101000000Z" ${alice.pub}\n`, 'alice@example.org', false],
  ['cert-authority (vouches for certificates, never a plain key)', `alice@example.org cert-authority ${alice.pub}\n`, 'alice@example.org', false],
  ['an RSA line before the Ed25519 one', `bob@x ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC7\nalice@example.org ${alice.pub}\n`, 'alice@example.org', true],
  ['option names in capitals', `alice@example.org NAMESPACES="geo-custody" ${alice.pub}\n`, 'alice@example.org', true],
];

describe('allowed_signers: geo agrees with ssh-keygen -Y verify', () => {
  it.each(CASES)('%s', (_name, file, principal, expected) => {
    const ssh = sshVerify(dir, { allowed: file, principal: principal!, namespace: 'geo-custody', signature: sig, message: HEAD });
    expect(ssh.status === 0, `ssh-keygen: ${ssh.stdout}${ssh.stderr}`).toBe(expected);
    const geo = verifySshsig(HEAD, sig, parseAllowedSigners(file), 'geo-custody', { principal: principal! });
    expect(geo.ok, JSON.stringify(geo)).toBe(expected);
  });
});

describe('finding the principal of a key', () => {
  it('gives the principals of the key\'s line, as ssh-keygen -Y find-principals does', () => {
    const text = `bob@example.org ${bob.pub}\nalice@example.org,alice@laptop namespaces="geo-custody" ${alice.pub}\n`;
    writeFileSync(join(dir, 'find'), text);
    writeFileSync(join(dir, 'find.sig'), sig);
    const ssh = sshKeygen(['-Y', 'find-principals', '-f', join(dir, 'find'), '-n', 'geo-custody', '-s', join(dir, 'find.sig')]);
    expect(ssh.stdout.trim().split('\n')).toEqual(['alice@example.org', 'alice@laptop']);
    expect(verifySshsig(HEAD, sig, parseAllowedSigners(text))).toMatchObject({ ok: true, principals: ['alice@example.org', 'alice@laptop'] });
  });

  it('names each line it cannot use and keeps reading', () => {
    const text = `alice ${aliceB64}\nbob@x nosuch-option ${bob.pub}\nc@x valid-after="2020" ${bob.pub}\n"unclosed ${bob.pub}\nalice@example.org ${alice.pub}\n`;
    const parsed = parseAllowedSigners(text);
    expect(parsed.problems[0]).toMatch(/^line 1: unknown option AAAA/);
    expect(parsed.problems.slice(1)).toEqual(['line 2: unknown option nosuch-option', 'line 3: "2020" is not a time (YYYYMMDD[HHMM[SS]][Z])', 'line 4: a quote is not closed']);
    expect(parsed.entries.map((e) => e.line)).toEqual([5]);
  });
});

describe('lines geo writes', () => {
  it('allowedSignerLine is read back by ssh-keygen and by geo', () => {
    const line = allowedSignerLine('alice@example.org', parsePublicKeyLine(alice.pub), 'geo-custody');
    expect(line).toBe(`alice@example.org namespaces="geo-custody" ssh-ed25519 ${aliceB64}`);
    expect(sshVerify(dir, { allowed: `${line}\n`, principal: 'alice@example.org', namespace: 'geo-custody', signature: sig, message: HEAD }).status).toBe(0);
    expect(verifySshsig(HEAD, sig, parseAllowedSigners(line)).ok).toBe(true);
  });

  it('principals that would break the line are refused', () => {
    expect(principalProblem('alice@example.org')).toBeUndefined();
    for (const bad of ['', 'a b', 'a,b', 'a*', '"a"', 'ü@x']) expect(principalProblem(bad), bad).toBeDefined();
  });

  it('matchPatternList: wildcards, ? and negation as OpenSSH match.c', () => {
    expect(matchPatternList('alice@example.org', '*@example.org')).toBe(1);
    expect(matchPatternList('al.ce', 'al?ce')).toBe(1);
    expect(matchPatternList('alXce', 'al.ce')).toBe(0);
    expect(matchPatternList('alice', 'bob,!alice,*')).toBe(-1);
  });
});
