/**
 * `geo cases show <case>`: a local case read from the store, offline and free: its results with a
 * map link each (built from the coordinates, output/maps.ts), and its custody log's summary.
 */
import type { Ctx } from '../../context.js';
import { describeBroken } from '../../evidence/custody-verify.js';
import { isSimulated } from '../../evidence/simulated.js';
import { mapLinks } from '../../output/maps.js';
import { render, resolveFormat } from '../../output/render.js';
import type { CaseShow } from '../../output/views/case-show.js';
import { findCase } from '../../store/find.js';
import type { Handler } from '../types.js';
import { caseChain } from './check.js';

export async function runShow(ctx: Pick<Ctx, 'store'>, ref: string): Promise<CaseShow> {
  const store = ctx.store();
  const c = findCase(store, ref);
  const chain = await caseChain(store, c);
  const results = store.cases().results(c.id).map((r) => {
    const place = [...new Set([r.neighborhood, r.city, r.country].map((p) => (p ?? '').trim()).filter(Boolean))].join(', ');
    return {
      id: r.id, ref: r.sha256 ? r.sha256.slice(0, 12) : (r.analysis_id ?? String(r.id)), input: r.input_path, place,
      latitude: r.latitude, longitude: r.longitude, confidence: r.confidence, depth: r.depth, analysis_id: r.analysis_id, sandbox: r.sandbox === 1, linked_at: r.linked_at,
      map_links: r.latitude !== null && r.longitude !== null ? mapLinks(r.latitude, r.longitude) : [],
    };
  });
  return {
    case: { id: c.id, name: c.name, description: c.description, team: c.team, created_at: c.created_at, service: c.service, service_id: c.service_id, service_note: c.service_note },
    results,
    simulated: results.filter(isSimulated).length,
    custody: chain.ok ? { entries: chain.entries, verified: true, head: chain.head } : { entries: chain.entries, verified: false, broken: describeBroken(chain.broken) },
  };
}

export const show: Handler = async (ctx, args) => {
  resolveFormat(ctx, ['table', 'json']);
  const data = await runShow(ctx, args[0] as string);
  await render(ctx, { data, human: async (view) => (await import('../../output/views/case-show.js')).caseShowView(data, view) }, ['table', 'json']);
};
