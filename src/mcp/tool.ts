/** What every tool of `geo mcp` gets, and what it gives back. */
import type { Ctx } from '../context.js';
import type { AllowedDirs, Budget } from './guards.js';

export interface ToolCtx {
  /** The command's Ctx with stdout taken away (stdout carries the protocol) and no prompts. */
  ctx: Ctx;
  dirs: AllowedDirs;
  budget: Budget;
  /** A line on stderr (the server's log). */
  log: (line: string) => void;
  /** Aborted when the client cancels the call or geo is interrupted. */
  signal: AbortSignal;
  /** The client as it introduced itself at initialize: "name version". */
  client: () => string;
}

/** A short text for the model and the structured data for programs; isError marks a failed call. */
export interface ToolResult {
  text: string;
  data: Record<string, unknown>;
  isError?: boolean;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  /** The JSON Schema of the arguments (inputs.ts). */
  inputSchema: { type: 'object'; [k: string]: unknown };
  /** Spends nothing and changes nothing: the only kind --read-only exposes. */
  readOnly: boolean;
  /** Calling it again with the same arguments changes nothing more (locate: reused, never paid twice). */
  idempotent: boolean;
  /** Talks to the service (credits, analyses…) rather than only to local files. */
  openWorld: boolean;
  run: (t: ToolCtx, args: unknown) => Promise<ToolResult>;
}
