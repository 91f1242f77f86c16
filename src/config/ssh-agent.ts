/**
 * A client of ssh-agent (draft-miller-ssh-agent, OpenSSH PROTOCOL.agent) over its Unix socket
 * (SSH_AUTH_SOCK), so an analyst's own key, passphrase-protected or on a token, signs without geo
 * ever seeing it. Two requests only:
 *   SSH_AGENTC_REQUEST_IDENTITIES (11) -> SSH_AGENT_IDENTITIES_ANSWER (12): uint32 n, n x (string blob, string comment)
 *   SSH_AGENTC_SIGN_REQUEST (13): string key blob, string data, uint32 flags (0 for Ed25519)
 *     -> SSH_AGENT_SIGN_RESPONSE (14): string signature (string "ssh-ed25519", string sig[64])
 *   SSH_AGENT_FAILURE (5) for a refusal.
 * Every message is framed by a uint32 length. One connection per request; each bounded in time
 * (an agent that asks for confirmation, `ssh-add -c`, waits for a person: hence a minute).
 */
import { connect } from 'node:net';
import { KeyringError } from '../errors.js';
import { shellQuote } from '../files/shell.js';
import type { Env } from './env.js';
import { ED25519, type SshPublicKey, fingerprint, parsePublicKeyBlob, publicKeyBlob } from '../evidence/ssh-key.js';
import type { SshSigner } from '../evidence/sshsig.js';
import { SshFormatError, SshReader, sshString, u32 } from '../evidence/ssh-wire.js';

const FAILURE = 5;
const REQUEST_IDENTITIES = 11;
const IDENTITIES_ANSWER = 12;
const SIGN_REQUEST = 13;
const SIGN_RESPONSE = 14;
/** OpenSSH's own limit on an agent message (AGENT_MAX_LEN). */
const MAX_MESSAGE = 256 * 1024;
export const AGENT_TIMEOUT_MS = 60_000;

/** How to start an agent with the key: the file the analyst chose when there is one, else the usual place. */
const startHint = (keyFile?: string) => `start one and add your key: \`eval "$(ssh-agent)" && ssh-add ${keyFile ? shellQuote(keyFile) : '~/.ssh/id_ed25519'}\``;

/** The agent's socket, or a KeyringError (exit 3) saying there is none; `keyFile`: the key to add to one. */
export function agentSocket(env: Env, keyFile?: string): string {
  const sock = env.SSH_AUTH_SOCK;
  if (!sock) throw new KeyringError('no ssh-agent: SSH_AUTH_SOCK is not set', startHint(keyFile));
  return sock;
}

/** One request, one answer (its type byte and body). */
function request(sock: string, type: number, body: Buffer, timeoutMs: number, keyFile?: string): Promise<{ type: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const conn = connect(sock);
    let got = Buffer.alloc(0);
    const fail = (message: string, hint?: string) => {
      conn.destroy();
      reject(new KeyringError(message, hint));
    };
    const timer = setTimeout(() => fail(`ssh-agent (${sock}) did not answer within ${Math.round(timeoutMs / 1000)} s`, 'is it waiting for a confirmation (ssh-add -c) or a token touch?'), timeoutMs);
    conn.on('connect', () => conn.write(Buffer.concat([u32(body.length + 1), Buffer.from([type]), body])));
    conn.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(`ssh-agent at ${sock} cannot be reached (${err.code ?? err.message})`, startHint(keyFile));
    });
    conn.on('data', (c: Buffer) => {
      got = Buffer.concat([got, c]);
      if (got.length < 4) return;
      const len = got.readUInt32BE(0);
      if (len < 1 || len > MAX_MESSAGE) {
        clearTimeout(timer);
        return fail(`ssh-agent at ${sock} sent a message of ${len} bytes: not an agent`);
      }
      if (got.length < 4 + len) return;
      clearTimeout(timer);
      conn.end();
      resolve({ type: got[4]!, body: got.subarray(5, 4 + len) });
    });
    conn.on('end', () => {
      clearTimeout(timer);
      if (got.length < 4 || got.length < 4 + got.readUInt32BE(0)) fail(`ssh-agent at ${sock} closed the connection without an answer`);
    });
  });
}

export interface AgentKey {
  publicKey: SshPublicKey;
  fingerprint: string;
}

/** The Ed25519 keys the agent holds (other types and certificates are left out: geo cannot sign with them). */
export async function agentKeys(sock: string, timeoutMs = AGENT_TIMEOUT_MS, keyFile?: string): Promise<AgentKey[]> {
  const answer = await request(sock, REQUEST_IDENTITIES, Buffer.alloc(0), timeoutMs, keyFile);
  if (answer.type !== IDENTITIES_ANSWER) throw new KeyringError(`ssh-agent at ${sock} would not list its keys (answer type ${answer.type})`);
  const keys: AgentKey[] = [];
  try {
    const r = new SshReader(answer.body, 'the agent\'s list of keys');
    for (let n = r.u32(); n > 0; n--) {
      const blob = r.string();
      const comment = r.string().toString('utf8'); // a comment is a label: a stray byte in it must not hide the key
      if (new SshReader(blob, 'an agent key').text() !== ED25519) continue;
      const publicKey = parsePublicKeyBlob(blob, 'an agent key');
      keys.push({ publicKey: comment ? { ...publicKey, comment } : publicKey, fingerprint: fingerprint(publicKey) });
    }
  } catch (err) {
    if (err instanceof SshFormatError) throw new KeyringError(`ssh-agent at ${sock} sent a list of keys geo cannot read (${err.message})`);
    throw err;
  }
  return keys;
}

/** Signs through the agent with `publicKey`; the agent keeps the private key (sshsig.ts checks each answer). */
export function agentSigner(sock: string, publicKey: SshPublicKey, timeoutMs = AGENT_TIMEOUT_MS): SshSigner {
  return {
    publicKey,
    async sign(data) {
      const fp = fingerprint(publicKey);
      const answer = await request(sock, SIGN_REQUEST, Buffer.concat([sshString(publicKeyBlob(publicKey)), sshString(data), u32(0)]), timeoutMs);
      if (answer.type === FAILURE) throw new KeyringError(`ssh-agent refused to sign with key ${fp}`, 'is the key still added (ssh-add -l), the agent unlocked, and any confirmation accepted?');
      if (answer.type !== SIGN_RESPONSE) throw new KeyringError(`ssh-agent answered a signing request with message type ${answer.type}`);
      try {
        const r = new SshReader(answer.body, 'the agent\'s signature');
        const sig = new SshReader(r.string(), 'the agent\'s signature');
        r.end();
        if (sig.text() !== ED25519) throw new SshFormatError('not an ssh-ed25519 signature');
        const raw = Buffer.from(sig.string());
        sig.end();
        return raw;
      } catch (err) {
        if (err instanceof SshFormatError) throw new KeyringError(`ssh-agent sent a signature geo cannot read (${err.message})`);
        throw err;
      }
    },
  };
}
