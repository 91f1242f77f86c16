/**
 * The real OpenSSH tools for signing tests (issue 31): keys made by ssh-keygen, signatures made and
 * checked by `ssh-keygen -Y sign/verify`, and a private ssh-agent on its own socket, started in the
 * foreground (-D) so the test owns its process and ends it by pid.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function sshKeygen(args: string[], opts: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): Run {
  const r = spawnSync('ssh-keygen', args, { input: opts.input ?? '', env: { PATH: process.env.PATH, ...opts.env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface SshKey {
  /** The private key file. */
  path: string;
  /** Its public key line (`ssh-ed25519 AAAA… comment`). */
  pub: string;
}

/** `ssh-keygen -t ed25519`, unencrypted (-N '') unless a passphrase is given. */
export function makeKey(dir: string, name: string, opts: { passphrase?: string; comment?: string } = {}): SshKey {
  const path = join(dir, name);
  const r = sshKeygen(['-q', '-t', 'ed25519', '-N', opts.passphrase ?? '', '-C', opts.comment ?? `${name}@test`, '-f', path]);
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
  return { path, pub: readFileSync(`${path}.pub`, 'utf8').trim() };
}

/** `ssh-keygen -Y sign -f KEY -n NS FILE`: the armored signature it wrote to FILE.sig. */
export function sshSign(keyPath: string, file: string, namespace: string): string {
  const r = sshKeygen(['-Y', 'sign', '-f', keyPath, '-n', namespace, file]);
  if (r.status !== 0) throw new Error(`ssh-keygen -Y sign failed: ${r.stderr}`);
  return readFileSync(`${file}.sig`, 'utf8');
}

/** `ssh-keygen -Y verify -f allowed_signers -I principal -n NS -s sig < message`. */
export function sshVerify(dir: string, o: { allowed: string; principal: string; namespace: string; signature: string; message: Buffer | string }): Run {
  const allowed = join(dir, `allowed_signers.${Math.random().toString(36).slice(2)}`);
  const sig = `${allowed}.sig`;
  writeFileSync(allowed, o.allowed);
  writeFileSync(sig, o.signature);
  return sshKeygen(['-Y', 'verify', '-f', allowed, '-I', o.principal, '-n', o.namespace, '-s', sig], { input: o.message });
}

/** `ssh-keygen -lf FILE`: "256 SHA256:… comment (ED25519)". */
export const sshFingerprint = (file: string): string => sshKeygen(['-lf', file]).stdout.split(' ')[1]!;

export interface Agent {
  sock: string;
  /** ssh-add KEY, answering its passphrase through SSH_ASKPASS when there is one. */
  add(key: string, passphrase?: string): Run;
  close(): Promise<void>;
}

export async function startAgent(dir: string): Promise<Agent> {
  const sock = join(dir, 'agent.sock');
  const child: ChildProcess = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore', env: { PATH: process.env.PATH } });
  for (let i = 0; i < 100 && !existsSync(sock); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(sock)) throw new Error('ssh-agent did not start');
  const add = (key: string, passphrase?: string): Run => {
    const askpass = join(dir, 'askpass.sh');
    writeFileSync(askpass, '#!/bin/sh\nprintf "%s\\n" "$TEST_PASSPHRASE"\n');
    chmodSync(askpass, 0o700);
    const env = { PATH: process.env.PATH, SSH_AUTH_SOCK: sock, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0', TEST_PASSPHRASE: passphrase ?? '' };
    const r = spawnSync('ssh-add', [key], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const close = async () => {
    if (child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
  return { sock, add, close };
}
