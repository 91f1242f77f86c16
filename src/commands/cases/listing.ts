/**
 * `geo cases list`: the service's cases and the local ones together, each saying where
 * it is: `both` (created on the service and recorded here), `service` (on the service only: it
 * takes no --case until linked here), `local` (on this machine only), or the host of another
 * service it was created on (it said `both`, pointing at the service in use). Without a key or a
 * reachable service, the local cases are listed alone, with a note saying why.
 */
import type { ApiResponse } from '../../api/client.js';
import { NetworkError, TimeoutError } from '../../api/errors.js';
import type { CaseList } from '../../api/schemas.js';
import { MissingKeyError } from '../../errors.js';
import { describe } from '../../output/errors.js';
import type { CaseRow } from '../../store/index.js';
import type { ListedCase } from '../../output/views/cases.js';

export interface CaseListing {
  /** What --json prints: the service's body as received, its `data` the merged list (or {success, data} offline). */
  body: Record<string, unknown>;
  cases: ListedCase[];
  deviations: string[];
  /** Why the service's cases are not in the list (no key, unreachable). */
  note?: string;
}

/**
 * Failures that leave the local list standing: no key, no connection, no answer. What the service
 * answered (a refusal, a 5xx after retries, an unreadable body) is the command's failure, as before.
 */
export function offline(err: unknown): boolean {
  return err instanceof MissingKeyError || err instanceof NetworkError || err instanceof TimeoutError;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "api.example.com", "127.0.0.1:4010", or "sandbox" for --sandbox's own (context.ts serviceId). */
export function serviceHost(service: string): string {
  if (service.startsWith('geo-sandbox:')) return 'sandbox';
  try {
    return new URL(service).host || service;
  } catch {
    return service;
  }
}

/** A local case the service's list did not show: here only, or on the service in use, or on another named by its host. */
function localOnly(c: CaseRow, serviceId: string): ListedCase {
  const where = c.service_id === null || c.service === null ? 'local' : c.service === serviceId ? 'both' : serviceHost(c.service);
  return {
    id: c.id, name: c.name, description: c.description, teamId: c.team, createdAt: c.created_at, updatedAt: c.created_at,
    where, local_id: c.id, results: c.results,
  };
}

/** The service's list annotated with the local cases it holds, then the local cases it does not show. */
export function mergeCases(service: ApiResponse<CaseList> | undefined, serviceId: string, local: readonly CaseRow[], note?: string): CaseListing {
  const mine = new Map(local.filter((c) => c.service === serviceId && c.service_id !== null).map((c) => [c.service_id!, c]));
  const shown = new Set<string>();
  const items = service && Array.isArray(service.data?.data) ? service.data.data.filter(isObject) : [];
  // Each service case as received (its values untouched, deviations included), and where it is.
  const cases = items.map((c) => {
    const here = typeof c.id === 'string' ? mine.get(c.id) : undefined;
    if (here) shown.add(here.id);
    return { ...c, where: here ? 'both' : 'service', local_id: here?.id ?? null, results: here ? here.results : null } as ListedCase;
  });
  for (const c of local) if (!shown.has(c.id)) cases.push(localOnly(c, serviceId));
  const received = service && isObject(service.data) ? service.data : { success: true };
  return { body: { ...received, data: cases }, cases, deviations: service?.deviations ?? [], ...(note !== undefined ? { note } : {}) };
}

/** "no API key is configured", "the service could not be reached: …": why only local cases are listed. */
export function offlineNote(err: unknown): string {
  return `service cases not listed (${describe(err).message}): local cases only`;
}
