/**
 * The MCP server over stdio (the official SDK's Server and StdioServerTransport). The low-level
 * Server, not McpServer: geo checks each call's arguments itself (inputs.ts), so a bad argument
 * gets the service's error code and hint as a tool error, where McpServer would answer with the
 * SDK's own validation message; and it keeps zod v3 and the SDK's schema converters out of the
 * bundle. stdout carries nothing but the protocol: the tools get a Ctx whose stdout is stderr,
 * and every log line goes to stderr.
 */
import { Readable } from 'node:stream';
import { CallToolRequestSchema, type CallToolResult, type JSONRPCMessage, ListToolsRequestSchema, Server, StdioServerTransport } from './sdk.js';
import { ApiError, ContractError, NetworkError, RequestValidationError, TimeoutError } from '../api/errors.js';
import { mapStrings } from '../api/mask.js';
import type { Ctx } from '../context.js';
import { CancelledError, ConfigError, KeyringError, MissingKeyError, ServiceAnswerError, UsageError } from '../errors.js';
import { describe, describeError } from '../output/errors.js';
import { redact, sanitizeInline } from '../output/sanitize.js';
import type { AllowedDirs, Budget } from './guards.js';
import { LineLimit, MAX_REQUEST_LINE } from './line-limit.js';
import { RefusedError } from './guards.js';
import type { Tool, ToolCtx, ToolResult } from './tool.js';
import { tools } from './tools.js';

export interface ServeOptions {
  dirs: AllowedDirs;
  budget: Budget;
  readOnly: boolean;
}

/** A code an agent can branch on: the service's own where there is one. */
function codeOf(err: unknown): string {
  if (err instanceof RefusedError || err instanceof ApiError || err instanceof RequestValidationError) return err.code;
  if (err instanceof MissingKeyError) return 'missing_key';
  if (err instanceof KeyringError) return 'keyring';
  if (err instanceof UsageError) return 'usage';
  if (err instanceof ConfigError) return 'config';
  if (err instanceof CancelledError) return 'cancelled';
  if (err instanceof TimeoutError) return 'timeout';
  if (err instanceof NetworkError) return 'network';
  if (err instanceof ContractError) return 'unreadable_response';
  if (err instanceof ServiceAnswerError) return 'outcome_unknown';
  return 'unexpected';
}

/** A failed call: the CLI's one line (message and hint) as text, and the same as data. */
function failure(err: unknown): ToolResult {
  const line = describeError(err);
  const d = describe(err);
  const hint = line.split(' — hint: ')[1];
  return { text: line, data: { error: { code: codeOf(err), message: d.message, ...(hint ? { hint } : {}) } }, isError: true };
}

/** The key never reaches the client: masked in everything a tool returns, whatever put it there. */
function masked(r: ToolResult, secrets: string[]): CallToolResult {
  const m = (s: string) => redact(s, secrets);
  // String by string (keys too), so a mask can never cut the JSON it sits in.
  const data = mapStrings(JSON.parse(JSON.stringify(r.data)) as Record<string, unknown>, m);
  return { content: [{ type: 'text', text: m(r.text) }], structuredContent: data, ...(r.isError ? { isError: true } : {}) };
}

/** What the tools may touch: the command's Ctx without stdout, stdin or prompts. */
function toolContext(ctx: Ctx): Ctx {
  const refuse = () => Promise.reject(new UsageError('geo mcp asks no questions'));
  return {
    ...ctx,
    io: { ...ctx.io, stdin: Readable.from([]), stdout: ctx.io.stderr, stdinIsTTY: false, stdoutIsTTY: false, colorOut: false, colorErr: false },
    globals: { ...ctx.globals, yes: false, input: false },
    interactive: false,
    animate: false,
    prompt: { ...ctx.prompt, confirm: refuse, input: refuse, select: refuse },
  };
}

const INSTRUCTIONS = `geo locates photos on the analyst's disk with the Visual Geolocation API. locate costs credits (depth 1 = 1, 2 = 2, 3 = 10 per image); an image already answered is reused free, so retrying never pays twice. The server refuses plans above its credit guards and files outside its allowed folders; the error says which guard and how to change it. inspect, history and export are offline and free. case_summary reads a local case (its results with clue ids, the analyst's notes, judgements, places ruled out, conclusion and reviews); case_note adds an observation or a hypothesis to it, marked as yours. Only the analyst concludes, rules out, judges clues or reviews. check_claim judges where photos are said to have been taken (agrees, contradicts or unverifiable, with its rule), at locate's cost.`;

/** Serves until the client closes stdin (or geo is interrupted); calls in flight are answered first. */
export async function serve(ctx: Ctx, o: ServeOptions): Promise<void> {
  const log = (line: string) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(`geo mcp: ${sanitizeInline(line)}\n`);
  };
  const list = tools(o.readOnly);
  const byName = new Map<string, Tool>(list.map((t) => [t.name, t]));
  // The tools --read-only leaves out: named as such when an agent calls one.
  const withheld = new Set(o.readOnly ? tools(false).map((t) => t.name).filter((n) => !byName.has(n)) : []);
  const tctx = toolContext(ctx);
  // The keys known so far: the environment's or the file's (resolving registers them), and one read
  // from the keyring (read before it is sent, so before any answer could echo it).
  const secrets = (): string[] => {
    try {
      ctx.resolved();
    } catch {
      // a key that does not resolve was never sent
    }
    return [...ctx.secrets()];
  };

  const server = new Server(
    { name: 'geo', version: ctx.version },
    {
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
      // Used only to check what a client answers to an elicitation request, which geo never sends;
      // the default (ajv) is left out of the bundle (package.json build script).
      jsonSchemaValidator: { getValidator: () => (input) => ({ valid: false, data: undefined, errorMessage: `geo mcp does not validate ${typeof input}` }) },
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: list.map((t) => ({
      name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema,
      annotations: { title: t.title, readOnlyHint: t.readOnly, destructiveHint: false, idempotentHint: t.idempotent, openWorldHint: t.openWorld },
    })),
  }));

  // What an agent's entries name it by: the client's own name and version, from initialize.
  const client = () => {
    const c = server.getClientVersion();
    return c ? `${c.name} ${c.version}` : 'an MCP client that gave no name';
  };
  const inFlight = new Set<Promise<unknown>>();
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    const call = (async (): Promise<CallToolResult> => {
      const tool = byName.get(req.params.name);
      if (!tool) {
        const why = withheld.has(req.params.name) ? ' (this server is --read-only)' : '';
        return masked(failure(new UsageError(`no tool named ${JSON.stringify(req.params.name)}${why}`, `tools: ${list.map((t) => t.name).join(', ')}`)), secrets());
      }
      log(`${tool.name} called`);
      const t: ToolCtx = { ctx: tctx, dirs: o.dirs, budget: o.budget, log, signal: AbortSignal.any([ctx.signal, extra.signal]), client };
      try {
        const r = await tool.run(t, req.params.arguments);
        log(`${tool.name}: ${r.isError ? 'failed' : 'done'}`);
        return masked(r, secrets());
      } catch (err) {
        const f = failure(err);
        log(`${tool.name}: ${f.text}`);
        return masked(f, secrets());
      }
    })();
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
    return call;
  });

  // Request lines over the limit are answered with an error here and never reach the SDK, which
  // would close the transport on one (line-limit.ts); the SDK's buffer gets room for the newline.
  const oversize = (id: string | number | null, bytes: number) => {
    const message = `a request line of more than ${MAX_REQUEST_LINE} bytes was refused (${bytes} bytes): geo mcp reads at most ${MAX_REQUEST_LINE} bytes a line; nothing of it was run`;
    log(message);
    void transport.send({ jsonrpc: '2.0', id, error: { code: -32600, message } } as unknown as JSONRPCMessage);
  };
  const input = ctx.io.stdin.pipe(new LineLimit(MAX_REQUEST_LINE, oversize));
  const transport = new StdioServerTransport(input, ctx.io.stdout, { maxBufferSize: MAX_REQUEST_LINE + 1 });
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  server.onerror = (err) => log(`protocol error: ${err.message}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Requests read before the end of input are answered: the last one's handler starts on a microtask.
    await new Promise((r) => setImmediate(r));
    await Promise.allSettled([...inFlight]);
    // The SDK sends each answer on a microtask after its handler settles: let those go out first.
    await new Promise((r) => setImmediate(r));
    await server.close();
  };
  // The end of input, once every line before it went through the limit.
  input.once('end', () => void stop());
  ctx.io.stdin.once('close', () => input.end());
  ctx.signal.addEventListener('abort', () => void stop(), { once: true });
  await server.connect(transport);
  log(`serving ${list.length} tools on stdio${o.readOnly ? ' (read-only)' : ''}; files inside ${o.dirs.dirs.join(', ')}; at most ${o.budget.o.perCall} credits a call${o.budget.o.total !== undefined ? `, ${o.budget.o.total} in all` : ''}`);
  await closed;
}
