/**
 * `geo cases show <case>`: a local case read from the store, offline and free: its results with a
 * map link each (built from the coordinates, output/maps.ts), and its custody log's summary. Every
 * value is the log's or its raw answers' (batch/case-results.ts): the case as case_created logged
 * it, each result's place, coordinates and confidence from its raw answer, its input, service and
 * sandbox flag from its entries. A result the log does not vouch for is not shown, and said.
 */
import { type CaseEvidence, readCaseEvidence } from '../../batch/case-results.js';
import type { Ctx } from '../../context.js';
import { describeBroken } from '../../evidence/custody-verify.js';
import type { VouchedResult } from '../../evidence/case-vouch.js';
import { resultColumns } from '../../evidence/record-types.js';
import { isSimulated } from '../../evidence/simulated.js';
import { mapLinks } from '../../output/maps.js';
import { render, resolveFormat } from '../../output/render.js';
import type { CaseShow, CaseShowResult } from '../../output/views/case-show.js';
import { findCase } from '../../store/find.js';
import type { Handler } from '../types.js';

function shown(r: VouchedResult): CaseShowResult {
  const col = resultColumns(r.record.response.body, r.record.request);
  const place = [...new Set([col.neighborhood, col.city, col.country].map((p) => (p ?? '').trim()).filter(Boolean))].join(', ');
  return {
    id: r.id, ref: r.input.sha256 ? r.input.sha256.slice(0, 12) : (col.analysis_id ?? String(r.id)), input: r.input.path ?? `(sha256 ${r.input.sha256.slice(0, 12)}…)`, place,
    latitude: col.latitude, longitude: col.longitude, confidence: col.confidence, depth: col.depth, analysis_id: col.analysis_id, sandbox: r.answer.sandbox, linked_at: r.linked_at,
    map_links: col.latitude !== null && col.longitude !== null ? mapLinks(col.latitude, col.longitude) : [],
  };
}

function caseShowOf(ev: CaseEvidence): CaseShow {
  const c = ev.vouch.case;
  const chain = ev.chain;
  const results = ev.vouch.results.map(shown);
  return {
    case: { id: c.id, name: c.name, description: c.description, team: c.team, created_at: c.created_at, service: c.service, service_id: c.service_id, service_note: c.note },
    results,
    simulated: results.filter(isSimulated).length,
    custody: chain.ok ? { entries: chain.entries, verified: true, head: chain.head } : { entries: chain.entries, verified: false, broken: describeBroken(chain.broken) },
    problems: ev.vouch.failures,
  };
}

export async function runShow(ctx: Pick<Ctx, 'storeApi'>, ref: string): Promise<CaseShow> {
  const store = await ctx.storeApi();
  return caseShowOf(await readCaseEvidence(store, await findCase(store, ref)));
}

export const show: Handler = async (ctx, args) => {
  resolveFormat(ctx, ['table', 'json']);
  const data = await runShow(ctx, args[0] as string);
  await render(ctx, { data, human: async (view) => (await import('../../output/views/case-show.js')).caseShowView(data, view) }, ['table', 'json']);
};
