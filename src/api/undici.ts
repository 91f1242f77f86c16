/**
 * The two parts of undici the client uses (Agent and request), loaded from their own files.
 * undici's index also loads fetch, WebSocket, caches, mocks and interceptors: about 60 ms more
 * start-up on every API command on Node 20 (issue 7 budgets; bench/startup.mjs). undici has no
 * "exports" map, so these are reachable files of the package (pinned by the lockfile); the types
 * are undici's own. Static imports let the build bundle them into dist/ (one file to load, not
 * a hundred: module loading dominated `geo credits` start-up).
 */
import { setFlagsFromString } from 'node:v8';
import type { Agent as AgentClass, Dispatcher } from 'undici';
// @ts-expect-error undici's internal files ship no type declarations; typed below with undici's own.
import AgentImpl from 'undici/lib/dispatcher/agent.js';
// @ts-expect-error as above
import apiRequestImpl from 'undici/lib/api/api-request.js';

const AgentCtor = AgentImpl as typeof AgentClass;
export type Agent = AgentClass;

let tuned = false;
/**
 * V8 settings for a short-lived client process, set once, right before the first connection.
 * - undici parses HTTP with llhttp compiled to WebAssembly, and a CLI parses a few small answers,
 *   so V8's baseline code is enough and its optimising tier only costs. Node 20 compiles llhttp
 *   with that tier up front (~35 MB more peak RSS, ~150 ms that Node waits for at exit);
 *   --liftoff-only stops it. Node 24 tiers the hot parser function up in the background after a
 *   few answers and exit waits ~80-100 ms for that compile; a tiering budget nobody reaches stops
 *   it (the run-time --liftoff-only does not, there).
 * - The young generation does not grow: each doubling stays resident until exit, and streaming a
 *   15 MB photo as base64 strings doubled it twice (about 3 MiB of peak RSS).
 * Why here and not at start-up: changing a V8 flag at run time changes the flag hash that code
 * caches are checked against, so whatever is compiled afterwards (node's own modules, and ours on
 * Node 22+) compiles from scratch. By the first connection the command's code is loaded.
 * All measured with bench/ (startup.mjs, image.mjs).
 */
function tuneV8(): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--wasm-tiering-budget=2000000000');
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** undici's Agent; the first one also applies tuneV8(). */
export function createAgent(options: ConstructorParameters<typeof AgentClass>[0]): Agent {
  tuneV8();
  return new AgentCtor(options);
}

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };
const apiRequest = apiRequestImpl as (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/** undici's request(url, opts) for an explicit dispatcher: the URL split into origin and path. */
export function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  const { dispatcher, ...rest } = opts;
  return apiRequest.call(dispatcher, { ...rest, origin: u.origin, path: u.pathname + u.search });
}
