/**
 * Issue 30, "Also": a request line over geo mcp's size limit (10 MiB, the MCP SDK's buffer) gets a
 * JSON-RPC error answer carrying the request's id, and the server goes on serving the next line.
 * The SDK alone closed the transport on such a line: no answer, and every later request lost.
 * Driven over raw stdio, as a client that writes such a line would.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GEO_BIN, binEnv } from '../helpers/run-cli.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const LIMIT = 10 * 1024 * 1024;

interface Answer {
  id: number | string | null;
  result?: { tools?: Array<{ name: string }> };
  error?: { code: number; message: string };
}

let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

/** geo mcp as a subprocess: send lines, wait for the answer with an id. */
function startRaw() {
  const env = binEnv({ GEO_DATA_DIR: tmp('geo-mcp-big-data-'), GEO_STATE_DIR: tmp('geo-mcp-big-state-') });
  const c = spawn(process.execPath, [GEO_BIN, 'mcp'], { cwd: tmp('geo-mcp-big-'), env, stdio: ['pipe', 'pipe', 'pipe'] });
  child = c;
  const answers: Answer[] = [];
  let buf = '';
  let stderr = '';
  c.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  c.stdout.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      answers.push(JSON.parse(buf.slice(0, i)) as Answer);
      buf = buf.slice(i + 1);
    }
  });
  const send = (line: string) => new Promise<void>((resolve) => (c.stdin.write(line + '\n') ? resolve() : c.stdin.once('drain', resolve)));
  const answerTo = async (id: number | string, ms = 15_000): Promise<Answer | undefined> => {
    for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
      const a = answers.find((x) => x.id === id);
      if (a) return a;
      if (c.exitCode !== null) return undefined;
    }
    return undefined;
  };
  return { send, answerTo, answers, stderr: () => stderr, alive: () => c.exitCode === null };
}

const call = (id: number | string, method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

async function initialized(s: ReturnType<typeof startRaw>) {
  await s.send(call(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }));
  expect((await s.answerTo(0))?.result).toBeDefined();
  await s.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
}

describe('geo mcp and a request line over its size limit', () => {
  it.each([
    ['the id first', (pad: string) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"inspect","arguments":{"files":["${pad}"]}}}`, 7],
    ['the id last', (pad: string) => `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"inspect","arguments":{"files":["${pad}"]}},"id":"big-1"}`, 'big-1'],
  ])('%s: a JSON-RPC error answers it (that id), and the next line is served', async (_n, line, id) => {
    const s = startRaw();
    await initialized(s);
    await s.send(line('A'.repeat(LIMIT + 1024)));
    await s.send(call(8, 'tools/list'));
    const big = await s.answerTo(id);
    expect(big, s.stderr()).toBeDefined();
    expect(big!.error?.code).toBe(-32600);
    expect(big!.error?.message).toMatch(/request line of more than 10485760 bytes .*geo mcp reads at most 10485760 bytes a line/);
    const next = await s.answerTo(8);
    expect(next?.result?.tools?.map((t) => t.name)).toContain('inspect');
    expect(s.alive()).toBe(true);
    expect(s.stderr()).toMatch(/geo mcp: a request line of more than 10485760 bytes was refused/);
  }, 60_000);

  it('a line of garbage over the limit (no id to find): answered with id null, and the server goes on', async () => {
    const s = startRaw();
    await initialized(s);
    await s.send('x'.repeat(LIMIT + 1));
    await s.send(call(9, 'tools/list'));
    expect((await s.answerTo(9))?.result?.tools).toBeDefined();
    expect(s.answers.find((a) => a.id === null)?.error?.code).toBe(-32600);
  }, 60_000);

  it('a line of exactly the limit still reaches the SDK and is answered', async () => {
    const s = startRaw();
    await initialized(s);
    const head = '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"pad":"';
    const tail = '"}}}';
    await s.send(head + 'B'.repeat(LIMIT - head.length - tail.length) + tail);
    expect((await s.answerTo(5, 30_000))?.result?.tools).toBeDefined();
    expect(s.alive()).toBe(true);
  }, 60_000);
});
