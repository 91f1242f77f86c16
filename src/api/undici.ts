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

// undici parses HTTP with llhttp compiled to WebAssembly. A CLI parses a few small answers, so
// V8's baseline code is enough, and its optimising tier only costs (both measured with bench/):
// - Node 20 compiles llhttp with the optimising tier up front: ~35 MB more peak RSS and ~150 ms
//   that Node waits for at exit. --liftoff-only keeps it to the baseline compiler.
// - Node 24 starts on baseline code and tiers the hot parser function up in the background after
//   a few answers; exit then waits ~80-100 ms for that compile to finish. The set-at-run-time
//   --liftoff-only does not stop this on Node 24; a tiering budget nobody reaches does.
// Set here, after node's own modules are loaded, and before llhttp is compiled on first connect.
setFlagsFromString('--liftoff-only');
setFlagsFromString('--wasm-tiering-budget=2000000000');

export const Agent = AgentImpl as typeof AgentClass;
export type Agent = AgentClass;

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };
const apiRequest = apiRequestImpl as (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/** undici's request(url, opts) for an explicit dispatcher: the URL split into origin and path. */
export function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  const { dispatcher, ...rest } = opts;
  return apiRequest.call(dispatcher, { ...rest, origin: u.origin, path: u.pathname + u.search });
}
