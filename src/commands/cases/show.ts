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
import { investigationOf } from '../../evidence/investigation.js';
import type { VouchedResult } from '../../evidence/case-vouch.js';
import { resultColumns } from '../../evidence/record-types.js';
import { isSimulated } from '../../evidence/simulated.js';
import { mapLinks } from '../../output/maps.js';
import { render, resolveFormat } from '../../output/render.js';
import type { CaseShow, CaseShowCopy, CaseShowResult, CaseShowStamp } from '../../output/views/case-show.js';
import type { CopyLinked } from '../../evidence/copy-events.js';
import type { StampedHead } from '../../evidence/custody-stamps.js';
import { sha256Hex } from '../../evidence/custody.js';
import { findCase } from '../../store/find.js';
import type { StoreApi } from '../../store/index.js';
import type { Handler } from '../types.js';

function shown(r: VouchedResult): CaseShowResult {
  const col = resultColumns(r.record.response.body, r.record.request);
  const place = [...new Set([col.neighborhood, col.city, col.country].map((p) => (p ?? '').trim()).filter(Boolean))].join(', ');
  return {
    id: r.id, ref: r.input.sha256 ? r.input.sha256.slice(0, 12) : (col.analysis_id ?? String(r.id)), input: r.input.path ?? `(sha256 ${r.input.sha256.slice(0, 12)}…)`, place,
    latitude: col.latitude, longitude: col.longitude, confidence: col.confidence, depth: col.depth, analysis_id: col.analysis_id, sandbox: r.answer.sandbox, linked_at: r.linked_at,
    map_links: col.latitude !== null && col.longitude !== null ? mapLinks(col.latitude, col.longitude) : [],
    ...(r.fetched ? { fetched: r.fetched } : {}),
  };
}

/**
 * The head_stamped entries of the log, as logged, each marked when its kept token is the sandbox
 * TSA's; whether a token holds is geo cases verify's to say.
 */
async function stampsOf(ev: CaseEvidence, store: StoreApi, caseId: string): Promise<CaseShowStamp[]> {
  const logged = ev.entries.filter(({ e }) => e.event === 'head_stamped');
  if (logged.length === 0) return [];
  const { isSandboxToken } = await import('../../evidence/tsa-verify.js');
  // Each engine gives the BLOB its own way (check.ts reads it the same).
  const kept = (await store.timestamps.forCase(caseId)).flatMap((t) => (t.reply !== null ? [Buffer.from(t.reply as Uint8Array)] : []));
  const byHash = new Map(kept.map((bytes) => [sha256Hex(bytes), bytes]));
  return logged.map(({ n, e }) => {
    const d = (e.data.stamp ?? {}) as Partial<StampedHead>;
    const token = d.token_sha256 === undefined ? undefined : byHash.get(d.token_sha256);
    return { entry: n, seq: Number(d.seq), tsa: String(d.tsa ?? ''), gen_time: String(d.gen_time ?? ''), ...(token && isSandboxToken(token) ? { sandbox: true as const } : {}) };
  });
}

/** The copy_linked entries of the log, as logged (cases verify checks them: evidence/copy-check.ts). */
function copiesOf(ev: CaseEvidence): CaseShowCopy[] {
  return ev.entries.filter(({ e }) => e.event === 'copy_linked').flatMap(({ n, e }) => {
    const c = (e.data as Partial<CopyLinked>).copy;
    if (!c?.input || !c.of) return [];
    return [{ entry: n, input: c.input.path, sha256: c.input.sha256, of: { input: c.of.input_path, sha256: c.of.sha256, analysis_id: c.of.analysis_id }, distance: c.distance, answer: c.answer }];
  });
}

function caseShowOf(ev: CaseEvidence, timestamps: CaseShowStamp[]): CaseShow {
  const c = ev.vouch.case;
  const chain = ev.chain;
  const results = ev.vouch.results.map(shown);
  return {
    case: { id: c.id, name: c.name, description: c.description, team: c.team, created_at: c.created_at, service: c.service, service_id: c.service_id, service_note: c.note },
    results,
    copies: copiesOf(ev),
    simulated: results.filter(isSimulated).length,
    custody: chain.ok ? { entries: chain.entries, verified: true, head: chain.head } : { entries: chain.entries, verified: false, broken: describeBroken(chain.broken) },
    timestamps,
    investigation: investigationOf(ev.entries),
    problems: ev.vouch.failures,
  };
}

export async function runShow(ctx: Pick<Ctx, 'storeApi'>, ref: string): Promise<CaseShow> {
  const store = await ctx.storeApi();
  const c = await findCase(store, ref);
  const ev = await readCaseEvidence(store, c);
  return caseShowOf(ev, await stampsOf(ev, store, c.id));
}

export const show: Handler = async (ctx, args) => {
  resolveFormat(ctx, ['table', 'json']);
  const data = await runShow(ctx, args[0] as string);
  await render(ctx, { data, human: async (view) => (await import('../../output/views/case-show.js')).caseShowView(data, view) }, ['table', 'json']);
};
