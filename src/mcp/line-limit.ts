/**
 * geo mcp's stdin, one request line at a time, none longer than the limit. The MCP
 * SDK's stdio transport buffers up to 10 MiB and, past it, closes the transport: the request got no
 * answer and every later line was lost. Here a longer line is never held: its bytes are dropped as
 * they arrive (only its first and last KiB are kept, to find its id), it is answered with a
 * JSON-RPC error (-32600, Invalid Request) through onOversize, and the next line is served.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** The MCP SDK's own buffer (STDIO_DEFAULT_MAX_BUFFER_SIZE): a line up to it reaches the SDK whole. */
export const MAX_REQUEST_LINE = 10 * 1024 * 1024;

const EDGE = 1024;
const ID = String.raw`(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.){0,200}")`;
/** `{"jsonrpc":"2.0","id":7,` at the start of a request, or `,"id":"x"}` at its very end (one brace: the top level). */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*,`);
const TAIL_ID = new RegExp(String.raw`,\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/** The id of a request seen only by its first and last bytes, or null when neither shows one (JSON-RPC 2.0 §5). */
export function requestIdOf(head: string, tail: string): string | number | null {
  const m = HEAD_ID.exec(head) ?? TAIL_ID.exec(tail);
  if (!m) return null;
  try {
    const id = JSON.parse(m[1]!) as unknown;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

export class LineLimit extends Transform {
  /** The line so far, while it is within the limit. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Past the limit: the line's first KiB, its last KiB so far, and its length. */
  private over: { head: string; tail: Buffer; bytes: number } | undefined;

  constructor(private readonly limit: number, private readonly onOversize: (id: string | number | null, bytes: number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    for (let start = 0; ; ) {
      const nl = chunk.indexOf(0x0a, start);
      this.add(chunk.subarray(start, nl < 0 ? chunk.length : nl));
      if (nl < 0) break;
      this.endLine();
      start = nl + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    // A last line without its newline: the SDK reads only whole lines, but it is passed on as it is.
    if (!this.over && this.heldBytes > 0) this.push(Buffer.concat(this.held));
    done();
  }

  private add(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.over) {
      this.over.bytes += piece.length;
      this.over.tail = Buffer.concat([this.over.tail, piece.subarray(-EDGE)]).subarray(-EDGE);
      return;
    }
    if (this.heldBytes + piece.length <= this.limit) {
      this.held.push(piece);
      this.heldBytes += piece.length;
      return;
    }
    const line = Buffer.concat([...this.held, piece]);
    this.over = { head: line.subarray(0, EDGE).toString('utf8'), tail: Buffer.from(line.subarray(-EDGE)), bytes: line.length };
    this.held = [];
    this.heldBytes = 0;
  }

  private endLine(): void {
    if (this.over) {
      const { head, tail, bytes } = this.over;
      this.over = undefined;
      this.onOversize(requestIdOf(head, tail.toString('utf8')), bytes);
      return;
    }
    this.held.push(Buffer.from('\n'));
    this.push(Buffer.concat(this.held));
    this.held = [];
    this.heldBytes = 0;
  }
}
