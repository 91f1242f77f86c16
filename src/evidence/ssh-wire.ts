/**
 * The SSH wire encoding (RFC 4251 section 5: uint32 big-endian, `string` = uint32 length + bytes)
 * and OpenSSH's PEM-like armor, shared by SSHSIG (sshsig.ts), public keys (ssh-key.ts), the
 * private key file and the agent protocol (config/). Everything that reads bytes from outside goes
 * through SshReader, which never reads past the end: a short or lying length is an SshFormatError.
 */

/** Bytes that are not what an SSH format says they must be; the message never quotes secret bytes. */
export class SshFormatError extends Error {
  override readonly name = 'SshFormatError';
}

export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** An SSH `string`: its length, then its bytes (text as UTF-8). */
export function sshString(v: Uint8Array | string): Buffer {
  const bytes = typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return Buffer.concat([u32(bytes.length), bytes]);
}

export class SshReader {
  private at = 0;
  constructor(private readonly buf: Buffer, private readonly what: string) {}

  private need(n: number): void {
    if (n > this.buf.length - this.at) throw new SshFormatError(`${this.what} is cut short (${n} more bytes announced at byte ${this.at}, ${this.buf.length - this.at} left)`);
  }

  bytes(n: number): Buffer {
    this.need(n);
    const b = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }

  u32(): number {
    return this.bytes(4).readUInt32BE(0);
  }

  byte(): number {
    return this.bytes(1)[0]!;
  }

  string(): Buffer {
    return this.bytes(this.u32());
  }

  /** A `string` that holds text: UTF-8, no NUL (names, namespaces, comments). */
  text(): string {
    const b = this.string();
    const s = b.toString('utf8');
    if (!Buffer.from(s, 'utf8').equals(b) || s.includes('\0')) throw new SshFormatError(`${this.what} has a text field that is not clean UTF-8`);
    return s;
  }

  get left(): number {
    return this.buf.length - this.at;
  }

  rest(): Buffer {
    return this.bytes(this.left);
  }

  /** Nothing may follow the last field: trailing bytes would be data nobody checked. */
  end(): void {
    if (this.left !== 0) throw new SshFormatError(`${this.what} has ${this.left} unexpected bytes at its end`);
  }
}

/** OpenSSH wraps armored base64 at 70 columns (sshbuf_dtob64 in sshsig.c and sshkey.c). */
const ARMOR_WIDTH = 70;

export function armor(label: string, bytes: Uint8Array): string {
  const b64 = Buffer.from(bytes).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += ARMOR_WIDTH) lines.push(b64.slice(i, i + ARMOR_WIDTH));
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * The bytes between `-----BEGIN label-----` and `-----END label-----`. Text around the block is
 * allowed (ssh-keygen ignores it too); base64 must be clean, so a damaged block is named, not
 * silently shortened (Buffer.from(..., 'base64') skips what it cannot read).
 */
export function unarmor(label: string, text: string): Buffer {
  const begin = `-----BEGIN ${label}-----`;
  const end = `-----END ${label}-----`;
  const from = text.indexOf(begin);
  const to = from < 0 ? -1 : text.indexOf(end, from + begin.length);
  if (from < 0 || to < 0) throw new SshFormatError(`no "${begin}" … "${end}" block`);
  const b64 = text.slice(from + begin.length, to).replace(/[\r\n\t ]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) throw new SshFormatError(`the ${label} block is not valid base64`);
  return Buffer.from(b64, 'base64');
}
