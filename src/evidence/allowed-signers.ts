/**
 * OpenSSH's allowed_signers file (ssh-keygen(1) "ALLOWED SIGNERS"): who may sign, with which key,
 * for which namespaces. One line per key:
 *   principals [options] keytype base64-key [comment]
 * principals: a comma-separated pattern list (`*`, `?`, `!negation`), quoted when it holds spaces;
 * options: cert-authority, namespaces="a,b", valid-after="YYYYMMDD[HHMM[SS]][Z]", valid-before=…
 * Read the way sshsig.c reads it, so the same file gives the same answer in geo and in
 * `ssh-keygen -Y verify -f allowed_signers -I principal -n geo-custody`. Lines geo cannot use (a
 * malformed line, an unknown option) are skipped and named in `problems`; lines of other key types
 * are kept (they simply never match an Ed25519 signature).
 */
import { ED25519, type SshPublicKey, fingerprint, parsePublicKeyLine, publicKeyLine, sameKey } from './ssh-key.js';
import { SshFormatError } from './ssh-wire.js';

export interface AllowedSigner {
  /** 1-based line number in the file. */
  line: number;
  /** The principals field as written: a pattern list. */
  principals: string;
  /** namespaces="…": a pattern list; absent = every namespace. */
  namespaces?: string;
  validAfter?: Date;
  validBefore?: Date;
  /** A CA line: it vouches for certificates, never for a plain key (sshsig.c). */
  certAuthority: boolean;
  /** The key, when it is Ed25519; undefined for another type. */
  key?: SshPublicKey;
}

export interface AllowedSigners {
  entries: AllowedSigner[];
  /** "line N: why" for each line skipped. */
  problems: string[];
}

/** One word, or a "quoted" run (OpenSSH's strdelim: no escapes inside quotes). */
function word(s: string): [string, string] {
  if (s.startsWith('"')) {
    const end = s.indexOf('"', 1);
    if (end < 0) throw new SshFormatError('a quote is not closed');
    return [s.slice(1, end), s.slice(end + 1).trimStart()];
  }
  const m = /^(\S+)\s*/.exec(s)!;
  return [m[1]!, s.slice(m[0].length)];
}

/** The options field: up to the first whitespace outside quotes (sshkey_advance_past_options). */
function optionsField(s: string): [string, string] {
  let quoted = false;
  let i = 0;
  for (; i < s.length; i++) {
    if (s[i] === '"') quoted = !quoted;
    else if (!quoted && /\s/.test(s[i]!)) break;
  }
  if (quoted) throw new SshFormatError('a quote is not closed in the options');
  return [s.slice(0, i), s.slice(i).trimStart()];
}

/** YYYYMMDD[HHMM[SS]], local time, or UTC with a trailing Z (ssh-keygen(1)). */
function parseTime(v: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?(Z?)$/i.exec(v);
  if (!m) throw new SshFormatError(`"${v}" is not a time (YYYYMMDD[HHMM[SS]][Z])`);
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  const date = m[7] ? new Date(Date.UTC(y, mo - 1, d, h, mi, s)) : new Date(y, mo - 1, d, h, mi, s);
  const back = m[7] ? [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()] : [date.getFullYear(), date.getMonth() + 1, date.getDate()];
  if (back[0] !== y || back[1] !== mo || back[2] !== d || h > 23 || mi > 59 || s > 59) throw new SshFormatError(`"${v}" is not a valid date`);
  return date;
}

function applyOptions(entry: AllowedSigner, field: string): void {
  for (const opt of field.match(/(?:[^,"]|"[^"]*")+/g) ?? []) {
    const m = /^([A-Za-z-]+)(?:="([^"]*)")?$/.exec(opt);
    const name = m?.[1]?.toLowerCase();
    if (name === 'cert-authority' && m![2] === undefined) entry.certAuthority = true;
    else if (name === 'namespaces' && m![2] !== undefined) entry.namespaces = m![2];
    else if (name === 'valid-after' && m![2] !== undefined) entry.validAfter = parseTime(m![2]);
    else if (name === 'valid-before' && m![2] !== undefined) entry.validBefore = parseTime(m![2]);
    else throw new SshFormatError(`unknown option ${opt}`);
  }
}

function parseLine(text: string, line: number): AllowedSigner {
  const [principals, rest] = word(text);
  const entry: AllowedSigner = { line, principals, certAuthority: false };
  let keyPart = rest;
  // The key comes right after the principals unless options sit between (sshsig.c tries the key first).
  if (!/^(ssh-|ecdsa-|sk-|rsa-)\S*\s/.test(rest)) {
    const [opts, after] = optionsField(rest);
    applyOptions(entry, opts);
    keyPart = after;
  }
  if (keyPart === '') throw new SshFormatError('no key');
  const type = /^\S+/.exec(keyPart)![0];
  if (type === ED25519) entry.key = parsePublicKeyLine(keyPart, 'the key');
  return entry;
}

export function parseAllowedSigners(text: string): AllowedSigners {
  const entries: AllowedSigner[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const t = raw.trim();
    if (t === '' || t.startsWith('#')) return;
    try {
      entries.push(parseLine(t, i + 1));
    } catch (err) {
      if (!(err instanceof SshFormatError)) throw err;
      problems.push(`line ${i + 1}: ${err.message}`);
    }
  });
  return { entries, problems };
}

/** OpenSSH's match_pattern_list: 1 when a pattern matches, -1 when a !pattern does, else 0. */
export function matchPatternList(value: string, list: string): 1 | 0 | -1 {
  let positive: 1 | 0 = 0;
  for (const raw of list.split(',')) {
    const negated = raw.startsWith('!');
    const glob = negated ? raw.slice(1) : raw;
    const re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 's');
    if (!re.test(value)) continue;
    if (negated) return -1;
    positive = 1;
  }
  return positive;
}

const names = (principals: string) => principals.split(',').filter((p) => p !== '' && !p.startsWith('!'));

/** A principal a bundle's files can put on a command line: letters, digits and . _ @ + = : - */
export const PLAIN = /^[A-Za-z0-9._@+=:-]{1,128}$/;

/**
 * Who a head_signed entry (the n-th of its log) says signed it, as VERIFY.md passes it to
 * `ssh-keygen -Y verify -I`: its principal when plain, else signer-<n>. geo checks the same
 * identity, so an allowed_signers file trusts a signature in geo exactly when it does in ssh-keygen.
 */
export function signerIdentity(principal: unknown, n: number): string {
  return typeof principal === 'string' && PLAIN.test(principal) ? principal : `signer-${n}`;
}

/**
 * Does the file let `key` sign in `namespace` at time `at` (as `principal`, when given: its line's
 * pattern list must match it, a `!pattern` that matches wins, as with `ssh-keygen -Y verify -I`)?
 * The principal, or without one the principals of the lines that do; else why none does.
 */
export function allows(file: AllowedSigners, key: SshPublicKey, namespace: string, opts: { principal?: string; at?: Date } = {}): { principals: string[] } | { problem: string } {
  const fp = fingerprint(key);
  const at = opts.at ?? new Date();
  const lines = file.entries.filter((e) => e.key && !e.certAuthority && sameKey(e.key, key));
  const named = opts.principal === undefined ? lines : lines.filter((e) => matchPatternList(opts.principal!, e.principals) === 1);
  if (named.length === 0) return { problem: lines.length ? `key ${fp} is not allowed for principal "${opts.principal}"` : `key ${fp} is not in the allowed signers` };
  const found: string[] = [];
  let why = '';
  for (const e of named) {
    if (e.namespaces !== undefined && matchPatternList(namespace, e.namespaces) !== 1) why = `line ${e.line} does not allow key ${fp} to sign in namespace "${namespace}"`;
    else if (e.validAfter && at < e.validAfter) why = `line ${e.line} allows key ${fp} only from ${e.validAfter.toISOString()}`;
    else if (e.validBefore && at > e.validBefore) why = `line ${e.line} allowed key ${fp} only until ${e.validBefore.toISOString()}`;
    else for (const n of opts.principal !== undefined ? [opts.principal] : names(e.principals)) if (!found.includes(n)) found.push(n);
  }
  return found.length ? { principals: found } : { problem: why };
}

/**
 * What a principal may be in geo: it goes unquoted into an allowed_signers line and into `-I`, so no
 * spaces, commas, quotes or pattern characters. The problem in words, or undefined.
 */
export function principalProblem(p: string): string | undefined {
  if (p === '') return 'is empty';
  if (p.length > 256) return 'is longer than 256 characters';
  if (!/^[\x21-\x7e]+$/.test(p)) return 'has a space, a control or a non-ASCII character';
  if (/[,"*?!#]/.test(p)) return 'has one of , " * ? ! # (allowed_signers reads them as patterns or syntax)';
  return undefined;
}

/** The line for an allowed_signers file: `principal namespaces="geo-custody" ssh-ed25519 AAAA…`. */
export function allowedSignerLine(principal: string, key: SshPublicKey, namespace: string): string {
  return `${principal} namespaces="${namespace}" ${publicKeyLine({ key: key.key })}`;
}
