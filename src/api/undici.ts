/**
 * The two parts of undici the client uses (Agent and request), loaded from their own files.
 * undici's index also loads fetch, WebSocket, caches, mocks and interceptors: about 60 ms more
 * start-up on every API command on Node 20 (issue 7 budgets; bench/startup.mjs). undici has no
 * "exports" map, so these are reachable files of the package (pinned by the lockfile); the types
 * are undici's own. Static imports let the build bundle them into dist/ (one file to load, not
 * a hundred: module loading dominated `geo credits` start-up).
 */
import type { Agent as AgentClass, Dispatcher } from 'undici';
// @ts-expect-error undici's internal files ship no type declarations; typed below with undici's own.
import AgentImpl from 'undici/lib/dispatcher/agent.js';
// @ts-expect-error as above
import apiRequestImpl from 'undici/lib/api/api-request.js';
import { tuneV8 } from './v8-tuning.js';

const AgentCtor = AgentImpl as typeof AgentClass;
export type Agent = AgentClass;

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
