/**
 * The few pieces of PostgreSQL's wire protocol (version 3, "Frontend/Backend Protocol": Message
 * Formats) the keeper (keeper.ts) speaks itself: it answers a geo process's startup on the
 * server's behalf and then passes bytes through, watching only where messages begin.
 */

/** A startup packet's request code (its second Int32): protocol 3.0, or one of the special requests. */
export const PROTOCOL_3 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;

/** Message type bytes the keeper counts: a client's Query, Sync and Terminate; the server's ReadyForQuery. */
export const QUERY = 0x51; // 'Q'
export const SYNC = 0x53; // 'S'
export const TERMINATE = 0x58; // 'X'
export const READY = 0x5a; // 'Z'

/** A message: its type byte, then an Int32 length that counts itself and the body. */
export function message(type: string, body: Buffer): Buffer {
  const out = Buffer.alloc(5 + body.length);
  out.write(type, 0, 'latin1');
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}

export const AUTH_OK = message('R', Buffer.alloc(4));
export const READY_IDLE = message('Z', Buffer.from('I'));

export function parameterStatus(name: string, value: string): Buffer {
  return message('S', Buffer.from(`${name}\0${value}\0`));
}

export function backendKeyData(pid: number, secret: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeInt32BE(pid, 0);
  b.writeInt32BE(secret, 4);
  return message('K', b);
}

/** A FATAL ErrorResponse with a SQLSTATE code, as the server would send it. */
export function fatal(code: string, text: string): Buffer {
  return message('E', Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`));
}

/** A simple Query message. */
export function query(sql: string): Buffer {
  return message('Q', Buffer.from(`${sql}\0`));
}

/**
 * Finds where each message begins in a stream read chunk by chunk (a header may be split between
 * chunks; bodies are skipped, never copied). onMessage gets the type byte and the offset of the
 * message's first byte in the chunk at hand: negative when part of its header came in an earlier chunk.
 */
export class Framer {
  private bodyLeft = 0;
  private readonly head = Buffer.alloc(5);
  private headHave = 0;

  constructor(private readonly onMessage: (type: number, offset: number) => void) {}

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, chunk.length - i);
        this.bodyLeft -= n;
        i += n;
        continue;
      }
      const start = i - this.headHave;
      const n = Math.min(5 - this.headHave, chunk.length - i);
      chunk.copy(this.head, this.headHave, i, i + n);
      this.headHave += n;
      i += n;
      if (this.headHave < 5) return;
      this.headHave = 0;
      this.bodyLeft = this.head.readInt32BE(1) - 4;
      this.onMessage(this.head[0]!, start);
    }
  }
}
