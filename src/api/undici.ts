/**
 * The two parts of undici the client uses (Agent and request), loaded from their own files.
 * undici's index also loads fetch, WebSocket, caches, mocks and interceptors: about 60 ms more
 * start-up on every API command on Node 20 (start-up budgets; bench/startup.mjs). undici has no
 * "exports" map, so these are reachable files of the package (pinned by the lockfile); the types
 * are undici's own. Imported on the first request, not when the client module loads: `geo history`
 * and every other command that sends nothing skip ~6 ms of undici's start-up (bench/store.mjs).
 * The build makes each import() a require inside dist/ (one file to load, not a hundred: module
 * loading dominated `geo credits` start-up).
 */
import type { Agent as AgentClass, Dispatcher } from 'undici';
import { tuneV8 } from './v8-tuning.js';

export type Agent = AgentClass;
type ApiRequest = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

let loaded: Promise<{ AgentCtor: typeof AgentClass; apiRequest: ApiRequest }> | undefined;
function undici() {
  loaded ??= (async () => {
    // @ts-expect-error undici's internal files ship no type declarations; typed with undici's own.
    const agent = await import('undici/lib/dispatcher/agent.js');
    // @ts-expect-error as above
    const api = await import('undici/lib/api/api-request.js');
    return { AgentCtor: agent.default as typeof AgentClass, apiRequest: api.default as ApiRequest };
  })();
  return loaded;
}

/**
 * undici's Agent; the first one also applies tuneV8(), after undici is loaded (the code cache
 * saved right before the tuning then holds undici's code too).
 */
export async function createAgent(options: ConstructorParameters<typeof AgentClass>[0]): Promise<Agent> {
  const { AgentCtor } = await undici();
  tuneV8();
  return new AgentCtor(options);
}

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** undici's request(url, opts) for an explicit dispatcher: the URL split into origin and path. */
export async function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { apiRequest } = await undici();
  const u = new URL(url);
  const { dispatcher, ...rest } = opts;
  return apiRequest.call(dispatcher, { ...rest, origin: u.origin, path: u.pathname + u.search });
}
