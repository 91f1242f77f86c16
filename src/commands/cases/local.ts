/**
 * Local cases: a case recorded in the store, with the first entry of its custody log
 * (case_created), in one transaction. geo's own id (`lc_` and 12 hex digits) names it whatever
 * the service does; the service's id, when it was created there too, names it as well.
 */
import { randomBytes } from 'node:crypto';
import type { Ctx } from '../../context.js';
import { type CustodyEvents, sealEntry, serializeEntry } from '../../evidence/custody.js';
import { caseActor } from '../../batch/case-sign.js';
import { currentActor } from '../../evidence/custody-log.js';
import type { CaseRow } from '../../store/index.js';

export interface LocalCase {
  name: string;
  description: string;
  team: string | null;
  /** The service's case: the service as the store names it (Ctx.serviceId) and its id there. */
  service?: { origin: string; id: string };
  /** Why the case is on this machine only although the service was asked (unreachable, outcome unknown). */
  note?: string;
}

export const newCaseId = (): string => `lc_${randomBytes(6).toString('hex')}`;

export async function recordCase(ctx: Pick<Ctx, 'storeApi' | 'now' | 'version'> & Partial<Pick<Ctx, 'config' | 'vault'>>, c: LocalCase): Promise<CaseRow> {
  const id = newCaseId();
  const at = new Date(ctx.now());
  const actor = ctx.config && ctx.vault ? await caseActor({ version: ctx.version, signing: { config: ctx.config, vault: ctx.vault } }) : currentActor(ctx.version);
  const data: CustodyEvents['case_created'] = {
    case: { id, name: c.name, ...(c.description ? { description: c.description } : {}), ...(c.team ? { team: c.team } : {}), ...(c.service ? { service: c.service.origin, service_id: c.service.id } : {}), ...(c.note ? { note: c.note } : {}) },
  };
  return (await ctx.storeApi()).cases.create(
    { id, name: c.name, description: c.description, team: c.team, created_at: at.toISOString(), service: c.service?.origin ?? null, service_id: c.service?.id ?? null, service_note: c.note ?? null },
    (role) => serializeEntry(sealEntry(undefined, id, { event: 'case_created', data }, role !== undefined ? { ...actor, role } : actor, at)),
  );
}
