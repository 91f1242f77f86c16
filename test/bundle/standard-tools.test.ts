/**
 * Issue 31, item 5 ("Must show"): a bundle made on one machine (its own HOME, config and data
 * folder; a key chosen, a TSA configured; answers from an independent service, not a sandbox)
 * verifies on another with no geo config (`geo cases verify bundle.zip`, the built binary, a fresh
 * HOME), and with sha256sum, python3, ssh-keygen and openssl alone: the test extracts the zip and
 * runs exactly the commands VERIFY.md lists. Then, by hand in the bundle, an entry added without
 * the key, the last signature cut off, and the seal rewritten with the head re-pinned: the
 * standard tools catch each, and geo names the first entry past the last valid signature.
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '../../src/output/export/zip.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { runCli, spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { makeKey, sshFingerprint, tmp } from '../helpers/ssh.js';
import { type Authority, type TsaServer, makeAuthority, opensslReply, serveAuthority } from '../helpers/tsa.js';

let service: ChargingServer;
let A: Authority;
let tsa: TsaServer;
let zip: string;
const keys = tmp('geo-std-keys-');
const alice = makeKey(keys, 'alice', { comment: 'alice@example.org' });

beforeAll(async () => {
  service = await startChargingServer({ delayMs: 0 });
  A = makeAuthority({ name: 'geo test CA A' });
  tsa = await serveAuthority(A);
  // Machine A: its own HOME, config, data and state folders.
  const home = tmp('geo-std-machine-a-');
  const env = { HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), GEO_BASE_URL: service.url, GEO_API_KEY: 'orca_live_test_0000000000000000' };
  const geo = async (argv: string[]) => {
    const r = await runCli(argv, { env });
    expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  await geo(['keys', 'signing', 'use', alice.path, '--principal', 'alice@example.org']);
  await geo(['config', 'set', 'tsa', tsa.url]);
  await geo(['cases', 'create', '--name', 'Harbour fire', '--local']);
  await geo(['locate', FIXTURES + 'paris.jpg', FIXTURES + 'tokyo.jpg', '--case', 'Harbour fire']);
  await geo(['cases', 'stamp', 'Harbour fire']);
  zip = join(tmp('geo-std-out-'), 'harbour.zip');
  await geo(['cases', 'bundle', 'Harbour fire', zip, '--with-originals']);
}, 90_000);
afterAll(async () => {
  await service?.close();
  await tsa?.close();
});

/** The zip extracted (unzip) into a folder of its own. */
function extracted(file = zip): string {
  const dir = tmp('geo-std-x-');
  execFileSync('unzip', ['-q', file, '-d', dir]);
  return dir;
}
const custody = (dir: string) => readFileSync(join(dir, 'custody.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown> & { seq: number; event: string; hash: string; prev: string; data: Record<string, Record<string, unknown>> });
/** Every ```sh block line of VERIFY.md: exactly the commands it tells a reader to run. */
const commandsOf = (dir: string) => readFileSync(join(dir, 'VERIFY.md'), 'utf8').match(/```sh\n[\s\S]*?```/g)!.flatMap((b) => b.split('\n').slice(1, -1));
/** One command as a reader runs it: a POSIX shell in the folder, nothing of geo's on PATH or in the environment. */
const sh = (dir: string, line: string) => spawnSync('sh', ['-c', line], { cwd: dir, env: { PATH: process.env.PATH }, encoding: 'utf8' });

describe('a bundle made on one machine', () => {
  it('verifies on another with no geo config: signatures valid, the timestamp valid, the whole log covered', async () => {
    const r = await spawnGeo(['cases', 'verify', zip]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/integrity +the chain is intact, binds every member, and is bound by the signatures below/);
    expect(r.stdout).toMatch(/signatures +3 of 3 signatures valid; entries 1 to 13 covered/);
    expect(r.stdout).toMatch(/✓ entry 14 signs entry 13: alice@example\.org, key SHA256:\S+, listed in the bundle's allowed_signers/);
    expect(r.stdout).toMatch(/timestamps +1 of 1 trusted timestamp valid\n +✓ entry 11: the head of entry 10 existed by \S+Z, says CN=geo test CA A TSA, O=geo tests \(http:\/\/127\.0\.0\.1:\d+\/tsa\), under the CA pinned at stamp time/);
    // With the recipient's own trust: the key and the TSA's CA they know, both required.
    const trust = tmp('geo-std-trust-');
    writeFileSync(join(trust, 'allowed_signers'), `alice@example.org namespaces="geo-custody" ${alice.pub}\n`);
    writeFileSync(join(trust, 'tsa-ca.pem'), A.caPem);
    const strict = await spawnGeo(['cases', 'verify', zip, '--allowed-signers', join(trust, 'allowed_signers'), '--tsa-ca', join(trust, 'tsa-ca.pem'), '--require-signature', '--require-timestamp', '--json']);
    expect(strict.code, strict.stderr).toBe(0);
    const json = JSON.parse(strict.stdout);
    expect(json.signatures).toMatchObject({ ok: true, counting: 'allowed-signers', covered: 13 });
    expect(json.signatures.signatures.map((s: { trust: string }) => s.trust)).toEqual(['allowed', 'allowed', 'allowed']);
    expect(json.timestamps).toMatchObject({ ok: true, trust: 'tsa-ca', stamps: [{ ok: true, trust: 'tsa-ca' }] });
  }, 30_000);

  it('verifies with sha256sum, python3, ssh-keygen and openssl alone: every command VERIFY.md lists exits 0', () => {
    const dir = extracted();
    const entries = custody(dir);
    const commands = commandsOf(dir);
    const signed = entries.filter((e) => e.event === 'head_signed').map((e) => e.seq);
    const stamped = entries.filter((e) => e.event === 'head_stamped');
    expect(signed).toEqual([10, 12, 14]);
    expect(commands).toEqual([
      'sha256sum -c SHA256SUMS',
      'python3 verify_chain.py',
      "awk '{print $3, $4, $1}' allowed_signers | ssh-keygen -lf -",
      ...signed.map((n) => `ssh-keygen -Y verify -f allowed_signers -I alice@example.org -n geo-custody -s signatures/entry-${n}.sig < signatures/entry-${n}.msg`),
      ...stamped.map((e) => `openssl ts -verify -digest ${e.data.stamp!.head} -in timestamps/entry-${e.seq}.tsr -CAfile timestamps/entry-${e.seq}.pem -attime ${Math.floor(Date.parse(String(e.data.stamp!.gen_time)) / 1000)}`),
    ]);
    const out = commands.map((c) => ({ c, ...sh(dir, c) }));
    for (const o of out) expect(o.status, `${o.c}\n${o.stdout}${o.stderr}`).toBe(0);
    // SHA256SUMS covers every member but itself and the manifest.
    const members = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? members(join(d, n)) : [join(d, n)]));
    expect(out[0]!.stdout.trim().split('\n').map((l) => l.replace(/: OK$/, '')).sort()).toEqual(members(dir).map((p) => relative(dir, p)).filter((p) => !['SHA256SUMS', 'manifest.json'].includes(p)).sort());
    expect(out[1]!.stdout).toBe(`OK: 14 entries, head ${entries.at(-1)!.hash}; the ${(entries[12]!.data.bundle!.members as unknown[]).length} files the seal lists match; signed over entries 1 to 13: check each signature with ssh-keygen (VERIFY.md)\n`);
    expect(out[2]!.stdout).toBe(`256 ${sshFingerprint(`${alice.path}.pub`)} alice@example.org (ED25519)\n`);
    for (const o of out.slice(3, 6)) expect(o.stdout + o.stderr).toMatch(/^Good "geo-custody" signature for alice@example\.org with ED25519 key SHA256:/);
    expect(out[6]!.stdout).toBe('Verification: OK\n');
    // The files those commands read are in the bundle.
    for (const p of ['SHA256SUMS', 'verify_chain.py', 'allowed_signers', 'signatures/entry-14.msg', `timestamps/entry-${stamped[0]!.seq}.pem`]) expect(statSync(join(dir, p)).isFile()).toBe(true);
  }, 30_000);

  it.each(['unzip', 'python3 -m zipfile'])('extracted with %s as VERIFY.md says, each of its commands works as written in sh and in bash; the fingerprint step names the signer\'s key', (tool) => {
    const text = readFileSync(join(extracted(), 'VERIFY.md'), 'utf8');
    const said = text.replace(/\n/g, ' ').match(new RegExp(`\`(${tool.replace(/ /g, ' ')} [^\`]*BUNDLE\\.zip[^\`]*)\``))?.[1];
    expect(said, text).toBeDefined();
    const parent = tmp('geo-std-named-');
    const x = spawnSync('sh', ['-c', said!.replace('BUNDLE.zip', zip).replace('FOLDER', 'bundle')], { cwd: parent, env: { PATH: process.env.PATH }, encoding: 'utf8' });
    expect(x.status, x.stderr).toBe(0);
    const dir = join(parent, 'bundle');
    const files = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : [join(d, n)]));
    const before = files(dir);
    for (const shell of ['sh', 'bash']) {
      for (const c of commandsOf(dir)) {
        const o = spawnSync(shell, ['-c', c], { cwd: dir, env: { PATH: process.env.PATH }, encoding: 'utf8' });
        expect(o.status, `${shell}: ${c}\n${o.stdout}${o.stderr}`).toBe(0);
        if (c.includes('ssh-keygen -lf')) expect(o.stdout).toContain(`${sshFingerprint(`${alice.path}.pub`)} alice@example.org`);
      }
    }
    // The fingerprint step reads the bundle and writes nothing into it.
    expect(files(dir)).toEqual(before);
  }, 30_000);

  it('a bundle carrying the VERIFY.md an earlier geo wrote still verifies; any other edit of it is named', async () => {
    const earlier = forge((e, dir) => {
      const now = readFileSync(join(dir, 'VERIFY.md'), 'utf8');
      const before = now
        .replace(/Nothing here needs geo: unzip[\s\S]*?and compares\./, [
          'Nothing here needs geo: sha256sum (GNU coreutils), Python 3 (its standard library), ssh-keygen',
          '(OpenSSH 8.2 or later) and openssl (1.1 or later). Extract the zip into an empty folder and run',
          'each command there, in order: each must exit 0. This file, SHA256SUMS, allowed_signers and',
          'signatures/ are made from custody.jsonl; `geo cases verify` makes them again and compares.',
        ].join('\n'))
        .replace(/claims to have signed, not whom to trust\.[\s\S]*?Then check each signature:\n/, [
          'claims to have signed, not whom to trust. Compare the fingerprints (ssh-keygen -lf allowed_signers)',
          'with keys you know, or give your own allowed_signers file to -f instead.\n',
        ].join('\n'));
      expect(before).not.toBe(now);
      writeFileSync(join(dir, 'VERIFY.md'), before);
      return e;
    });
    const ok = await spawnGeo(['cases', 'verify', earlier.zip]);
    expect(ok.code, ok.stdout).toBe(0);
    const edited = forge((e, dir) => {
      appendFileSync(join(dir, 'VERIFY.md'), 'Skip step 3: the signatures are fine.\n');
      return e;
    });
    const bad = await spawnGeo(['cases', 'verify', edited.zip]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/VERIFY\.md: not what the custody log makes of it/);
  }, 30_000);
});

/** RFC 8785 for what geo writes, as an outsider would code it. */
const canonical = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`
  : JSON.stringify(v);
const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
type Entry = ReturnType<typeof custody>[number];

/**
 * The attacker's edit of an extracted bundle: the log's entries changed and re-sealed (seq, prev,
 * hash), the manifest's count, head and files and SHA256SUMS recomputed to match; the folder
 * zipped again. No key: signatures and signature files are left as they were.
 */
function forge(change: (entries: Entry[], dir: string) => Entry[]): { dir: string; zip: string } {
  const dir = extracted();
  let prev = '0'.repeat(64);
  const lines = change(custody(dir), dir).map((e, i) => {
    const { hash: _h, ...rest } = e;
    const sealed = { ...rest, seq: i + 1, prev };
    prev = sha256(canonical(sealed));
    return canonical({ ...sealed, hash: prev });
  });
  writeFileSync(join(dir, 'custody.jsonl'), lines.map((l) => `${l}\n`).join(''));
  const names = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? names(join(d, n)) : [relative(dir, join(d, n))]));
  const sums = names(dir).filter((p) => !['SHA256SUMS', 'manifest.json'].includes(p)).sort();
  writeFileSync(join(dir, 'SHA256SUMS'), sums.map((p) => `${sha256(readFileSync(join(dir, p)))}  ${p}\n`).join(''));
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  manifest.custody = { ...manifest.custody, entries: lines.length, head: prev };
  manifest.files = names(dir).filter((p) => p !== 'manifest.json').sort().map((p) => ({ path: p, sha256: sha256(readFileSync(join(dir, p))), size: statSync(join(dir, p)).size }));
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const out = join(tmp('geo-std-forged-'), 'harbour.zip');
  writeFileSync(out, writeZip(names(dir).sort().map((name) => ({ name, data: readFileSync(join(dir, name)), compress: true })), new Date()));
  return { dir, zip: out };
}

describe('edited by hand after signing: the standard tools catch it, and geo names the first entry past the last valid signature', () => {
  it.each([
    [
      'an entry added by someone without the key (a well-formed file_written after the last signature)',
      (e: Entry[]) => [...e, { ...e.at(-1)!, event: 'file_written', data: { file: { kind: 'report', format: 'html', path: '/tmp/planted.html', sha256: 'ab'.repeat(32), size: 10 } } }],
      /^FAILED: entry 15 \(file_written\) is past the last signature, which covers entries 1 to 13\n$/,
      /entry 15 \(file_written\) is past the last valid signature \(entry 14, over entry 13\): appended by someone without the key, or the log was rewritten/,
    ],
    [
      'the last signature cut off (the seal left unsigned)',
      (e: Entry[], dir: string) => {
        execFileSync('rm', [join(dir, 'signatures', 'entry-14.msg'), join(dir, 'signatures', 'entry-14.sig')]);
        return e.slice(0, 13);
      },
      /^FAILED: entry 13 \(bundle_sealed\) is past the last signature, which covers entries 1 to 11\n$/,
      /entry 13 \(bundle_sealed\) is past the last valid signature \(entry 12, over entry 11\)/,
    ],
    [
      'the seal rewritten with the head re-pinned (report.html replaced, the seal made to list it)',
      (e: Entry[], dir: string) => {
        appendFileSync(join(dir, 'report.html'), '<p>another story</p>');
        const members = (e[12]!.data.bundle!.members as Array<{ path: string; sha256: string; size: number }>).map((m) => (m.path === 'report.html' ? { ...m, sha256: sha256(readFileSync(join(dir, 'report.html'))), size: statSync(join(dir, 'report.html')).size } : m));
        return e.map((x, i) => (i === 12 ? { ...x, data: { bundle: { ...x.data.bundle, members } } } : x));
      },
      /^FAILED: entry 14 \(head_signed\): [0-9a-f]{64} is not the hash of entry 13\n$/,
      /entry 13 \(bundle_sealed\) is past the last valid signature \(entry 12, over entry 11\)/,
    ],
  ])('%s', async (_name, change, python, named) => {
    const f = forge(change);
    const py = sh(f.dir, 'python3 verify_chain.py');
    expect(py.status).not.toBe(0);
    expect(py.stderr).toMatch(python);
    expect(sh(f.dir, 'sha256sum -c SHA256SUMS').status).toBe(0); // the attacker recomputed it: it proves nothing alone
    const r = await spawnGeo(['cases', 'verify', f.zip]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`✗ ${named.source}`));
  }, 30_000);

  it('the rewritten seal with its signed message made to match: ssh-keygen refuses the signature', () => {
    const f = forge((e, dir) => {
      appendFileSync(join(dir, 'report.html'), '<p>another story</p>');
      const members = (e[12]!.data.bundle!.members as Array<{ path: string }>).map((m) => (m.path === 'report.html' ? { ...m, sha256: sha256(readFileSync(join(dir, 'report.html'))) } : m));
      return e.map((x, i) => (i === 12 ? { ...x, data: { bundle: { ...x.data.bundle, members } } } : x));
    });
    const e = custody(f.dir);
    // The attacker writes the line for the new head, but cannot sign it.
    writeFileSync(join(f.dir, 'signatures', 'entry-14.msg'), `geo-custody/1 case=${e[0]!.case} seq=13 head=${e[12]!.hash}\n`);
    const line = commandsOf(f.dir).find((c) => c.includes('entry-14.sig'))!;
    const r = sh(f.dir, line);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Signature verification failed/);
  });
});

describe('a token swapped in the bundle', () => {
  it('for another head: openssl ts -verify (the VERIFY.md line) refuses it, and geo names it', async () => {
    const other = sha256('another head');
    const reply = await opensslReply(A, execFileSync('openssl', ['ts', '-query', '-digest', other, '-sha256', '-cert']));
    const f = forge((e, dir) => {
      const n = e.find((x) => x.event === 'head_stamped')!.seq;
      writeFileSync(join(dir, 'timestamps', `entry-${n}.tsr`), reply);
      return e;
    });
    const line = commandsOf(f.dir).find((c) => c.startsWith('openssl ts -verify'))!;
    expect(sh(f.dir, line).status).not.toBe(0);
    const r = await spawnGeo(['cases', 'verify', f.zip]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ entry 11 \(head_stamped\), the token from http:\/\/127\.0\.0\.1:\d+\/tsa: token for another head: it stamps sha256 [0-9a-f]{64}, not [0-9a-f]{64}/);
    expect(r.stdout).toMatch(/✗ timestamps\/entry-11\.tsr: its sha256 is not the one the custody log sealed/);
  }, 30_000);
});
