/**
 * `geo mcp` as an agent meets it: the built binary started as a subprocess and driven by the MCP
 * SDK's own client over stdio. Every message the server sends, and its stderr, is kept, so tests
 * can search them (for the key, for a path that must not leak).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GEO_BIN } from './run-cli.js';

export interface McpServer {
  client: Client;
  /** Every message from the server, the initialize answer included, as JSON text. */
  traffic: string[];
  stderr(): string;
  close(): Promise<void>;
}

export async function startMcpServer(args: string[], o: { cwd: string; env: Record<string, string> }): Promise<McpServer> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [GEO_BIN, 'mcp', ...args], env: o.env, cwd: o.cwd, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const traffic: string[] = [];
  // The client sets onmessage when it connects. (Undefined until set: the client chains to whatever handler it finds there.)
  let deliver: ((m: JSONRPCMessage) => void) | undefined;
  const record = (m: JSONRPCMessage) => {
    traffic.push(JSON.stringify(m));
    deliver?.(m);
  };
  Object.defineProperty(transport, 'onmessage', { get: () => (deliver ? record : undefined), set: (fn: (m: JSONRPCMessage) => void) => (deliver = fn) });
  const client = new Client({ name: 'geo-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, traffic, stderr: () => err, close: () => client.close() };
}

export interface ToolAnswer<T> {
  isError: boolean;
  data: T;
  text: string;
}

export async function callTool<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer<T>> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as Array<{ type: string; text: string }>;
  return { isError: r.isError === true, data: r.structuredContent as T, text: content.map((c) => c.text).join('\n') };
}
