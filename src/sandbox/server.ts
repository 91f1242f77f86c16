/**
 * The sandbox: a node:http server implementing src/api/routes.ts with src/api/schemas.ts, stateful
 * per key (DESIGN.md "Sandbox surface"). Dispatch order: route and method (404/405) -> faults that
 * act before any work -> auth (401) -> rate limit (429) -> the operation. Heavy pieces (docs, OpenAPI,
 * EXIF, geocoder) load on first use so start-up stays in milliseconds.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { Socket } from 'node:net';
import { type Route, routes, routesForPath } from '../api/routes.js';
import { authenticate, injected429, peekRate } from './auth.js';
import { FaultPlan, parseFault, parseFaultList } from './faults.js';
import { handleGeolocate } from './geolocate.js';
import { createCase, getCredits, getUsage, listAnalyses, listCases } from './history.js';
import { type Exchange, send, sendError, sleep } from './http.js';
import { handleInternal } from './internal.js';
import type { KnownModel } from './known.js';
import { type RateAlgorithm, createRateLimiter } from './ratelimit.js';
import { type SandboxRuntime, newId } from './runtime.js';
import { type Ledger, SandboxState } from './state.js';

export type { Ledger } from './state.js';

export interface SandboxOptions {
  host?: string;
  port?: number;
  /** Delay of every analysis (sync answers and async jobs), ms. Default 0. */
  latencyMs?: number;
  /** One quota for every tier, overriding free 5 / starter 15 / pro 30 / enterprise 120. */
  rateLimit?: number;
  /** Window length in seconds. Default 60. */
  rateWindowS?: number;
  /** How the quota is counted (ratelimit.ts): fixed windows (default), a sliding log, a token bucket. */
  rateAlgorithm?: RateAlgorithm;
  /** "500:0.1,reset-after:0.05": faults drawn for geolocate requests. */
  faults?: string;
  /** Seed of the fault draws and of the known-skill model's errors. Default 1. */
  seed?: number;
  /** A model of known skill (known.ts loadKnownModel): images of a truth file answered from it. */
  known?: KnownModel;
  now?: () => number;
}

export interface Sandbox {
  url: string;
  port: number;
  close(): Promise<void>;
  ledger(): Ledger;
}

const SERVICE_FAULTS: Record<string, Parameters<typeof sendError>[1]> = { '500': 'server_error', '502': 'analysis_failed', '503': 'service_unavailable', '504': 'analysis_timeout' };

async function dispatch(ex: Exchange, rt: SandboxRuntime): Promise<void> {
  const path = ex.url.pathname;
  if (path.startsWith('/__sandbox/')) return handleInternal(ex, rt);
  const candidates = routesForPath(path);
  const route: Route | undefined = candidates.find((r) => r.method === ex.req.method);
  if (!route) {
    peekRate(ex, rt);
    if (candidates.length === 0) return sendError(ex, 'not_found', `no endpoint ${path}; see ${ex.base}/api/v1/docs`);
    const allow = candidates.map((r) => r.method).join(', ');
    return sendError(ex, 'method_not_allowed', `${ex.req.method} is not allowed on ${path}; use ${allow}`, {}, { Allow: allow });
  }

  const header = ex.req.headers['sandbox-fault'];
  if (typeof header === 'string' && header !== '') {
    const f = parseFault(header);
    if (!f) {
      peekRate(ex, rt);
      return sendError(ex, 'invalid_request', `unknown Sandbox-Fault "${header}"; kinds: 429, 500, 502, 503, 504, reset-before, reset-after, truncate, stall:<ms>`);
    }
    ex.fault = f;
  } else if (route === routes.geolocate) {
    ex.fault = rt.faults.draw();
  }
  if (ex.fault?.kind === 'reset-before') {
    ex.req.socket.destroy();
    return;
  }
  if (ex.fault?.kind === 'stall') await sleep(ex.fault.ms ?? 0, rt.signal);

  if (!authenticate(ex, rt, route.auth)) return;
  if (ex.fault?.kind === '429') return injected429(ex);
  const service = ex.fault ? SERVICE_FAULTS[ex.fault.kind] : undefined;
  if (service && route !== routes.geolocate) {
    return sendError(ex, service, `injected fault ${ex.fault!.kind}`, ex.fault!.kind === '504' ? { retryable: true } : {});
  }

  switch (route.operationId) {
    case routes.geolocate.operationId:
      return handleGeolocate(ex, rt);
    case routes.credits.operationId:
      return getCredits(ex);
    case routes.usage.operationId:
      return getUsage(ex, rt);
    case routes.analyses.operationId:
      return listAnalyses(ex);
    case routes.listCases.operationId:
      return listCases(ex);
    case routes.createCase.operationId:
      return createCase(ex, rt);
    case routes.docs.operationId: {
      const { docsHtml } = await import('./docs.js');
      return send(ex, 200, 'text/html; charset=utf-8', docsHtml(ex.base));
    }
  }
  return sendError(ex, 'not_found', `no handler for ${route.operationId}`);
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  const now = opts.now ?? Date.now;
  const ac = new AbortController();
  const rt: SandboxRuntime = {
    state: new SandboxState(),
    limiter: createRateLimiter(opts.rateAlgorithm ?? 'fixed', now, opts.rateWindowS ?? 60),
    ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
    latencyMs: opts.latencyMs ?? 0,
    faults: new FaultPlan(opts.faults ? parseFaultList(opts.faults) : [], opts.seed ?? 1),
    now,
    signal: ac.signal,
    pending: new Set(),
    ...(opts.known ? { known: opts.known } : {}),
  };
  let base = '';
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const ex: Exchange = { req, res, id: newId('req'), url: new URL(req.url ?? '/', 'http://sandbox.invalid'), base };
    dispatch(ex, rt).catch((e: unknown) => {
      if (ac.signal.aborted) return void req.socket.destroy();
      if (!res.headersSent) sendError(ex, 'server_error', `sandbox bug: ${(e as Error).message}`);
      else req.socket.destroy();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? 0);
  base = `http://${formatHost(host)}:${port}`;
  return {
    url: base,
    port,
    ledger: () => rt.state.ledger(),
    async close() {
      ac.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await Promise.allSettled([...rt.pending]);
      await closed;
    },
  };
}
