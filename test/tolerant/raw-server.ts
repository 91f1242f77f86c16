/**
 * An independent server below HTTP for the answers node:http will not write: plain node:net on
 * loopback, port 0. It reads each request (head and Content-Length body) as the bytes that came,
 * keeps it, and lets the test write the exact bytes of the answer: interim 1xx lines, a body
 * shorter than its Content-Length, a reset after the body was read. One request per connection.
 */
import { type Server, type Socket, createServer } from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** The whole declared body arrived. */
  complete: boolean;
}

export interface RawServer {
  url: string;
  /** Every request, complete or not, in arrival order. */
  seen: RawRequest[];
  close(): Promise<void>;
}

/** What to do with request number n (1-based) once its body is whole; `onBody` sees each body chunk first. */
export interface RawScript {
  answer(req: RawRequest, n: number, socket: Socket): unknown;
  onBody?(req: RawRequest, socket: Socket): void;
}

function parseHead(text: string): Omit<RawRequest, 'body' | 'complete'> {
  const [start = '', ...lines] = text.split('\r\n');
  const [method = '', path = ''] = start.split(' ');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return { method, path, headers };
}

export async function rawServer(script: RawScript): Promise<RawServer> {
  const seen: RawRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    let req: RawRequest | undefined;
    let need = 0;
    socket.on('data', (chunk: Buffer) => {
      if (!req) {
        buf = Buffer.concat([buf, chunk]);
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        req = { ...parseHead(buf.subarray(0, end).toString('latin1')), body: Buffer.alloc(0), complete: false };
        need = Number(req.headers['content-length'] ?? 0);
        seen.push(req);
        chunk = buf.subarray(end + 4);
      }
      if (req.complete) return;
      req.body = Buffer.concat([req.body, chunk]);
      script.onBody?.(req, socket);
      if (req.body.length >= need) {
        req.complete = true;
        void script.answer(req, seen.filter((s) => s.path === req!.path).length, socket);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

/** The bytes of a final answer: status line, headers (Content-Length from the body unless given), body. */
export function httpAnswer(status: number, body: Buffer | string, headers: Record<string, string> = {}): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const all = { 'Content-Type': 'application/json', 'Content-Length': String(bytes.length), Connection: 'close', ...headers };
  const head = `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Answer'}\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}
