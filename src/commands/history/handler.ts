/** Glue for `geo history` and `geo history show`: local reads, then output/ renders. */
import type { Handler } from '../types.js';
import type { Ctx } from '../../context.js';
import type { GeolocateResponse } from '../../api/schemas.js';
import { isResultBody } from '../../evidence/records.js';
import { SIMULATED, isSimulated } from '../../evidence/simulated.js';
import { formatOutput, render, resolveFormat, viewOpts } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { parseHistoryLimit, runHistory, runHistoryShowAny } from './run.js';
import { UsageError } from '../../errors.js';
import type { StoredScene } from '../../media/find-scene.js';
import { BATCH_REF } from '../../output/views/history.js';

function warner(ctx: Ctx): (line: string) => void {
  return (line) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(sanitizeInline(line) + '\n');
  };
}

export const list: Handler = async (ctx, _args, opts) => {
  resolveFormat(ctx); // a bad --format fails before the store is read
  const warn = warner(ctx);
  if (opts.like !== undefined) return like(ctx, opts, warn);
  if (opts.distance !== undefined) throw new UsageError('--distance goes with --like', 'geo history --like photo.jpg --distance 20');
  const { rows, results, total, capped } = await runHistory(ctx, { ...(opts.search !== undefined ? { search: String(opts.search) } : {}), limit: opts.limit });
  await render(ctx, { data: rows, records: () => rows, human: async (view) => (await import('../../output/views/history.js')).historyView(rows, view, opts.search !== undefined && 'search') });
  // A video's frames (a set's photos) are one entry: the line counts both when they differ.
  const shown = results === rows.length ? String(rows.length) : `${rows.length} ${rows.length === 1 ? 'entry' : 'entries'} (${results} results)`;
  if (total > results) warn(`${shown} of ${total}${capped ? '+' : ''} ${opts.search !== undefined ? 'matching' : 'stored'} results shown; --limit ${total} for ${capped ? 'more' : 'all'}`);
};

/** `geo history --like IMG`: near-duplicates, nearest first, with their distance (like.ts). */
async function like(ctx: Ctx, opts: Record<string, unknown>, warn: (line: string) => void): Promise<void> {
  if (opts.search !== undefined) throw new UsageError('--like and --search cannot be combined', 'geo history --like photo.jpg, or geo history --search words');
  const { runHistoryLike, lowQualityLine } = await import('./like.js');
  const name = String(opts.like);
  const { rows, total, query } = await runHistoryLike(ctx, { like: name, distance: opts.distance, limit: parseHistoryLimit(opts.limit) });
  const low = lowQualityLine(query, name);
  if (low) warn(low);
  await render(ctx, { data: rows, records: () => rows, human: async (view) => (await import('../../output/views/history.js')).historyView(rows, view, 'like') });
  if (total > rows.length) warn(`${rows.length} of ${total} results within ${query.distance} bits shown; --limit ${total} for all`);
}

/**
 * A sandbox's answer says so before anything else: the view's first line on a terminal;
 * for --json (the body exactly as received) a line on stderr, written before stdout is.
 */
function markFirst(format: string, simulated: boolean, warn: (line: string) => void): boolean {
  if (simulated && format !== 'table') warn(SIMULATED);
  return simulated && format === 'table';
}

/** Which store answered, for the line that says nothing was sent (a team's, or this machine's file). */
const storeName = async (ctx: Ctx) => ((await ctx.storeApi()).kind === 'team' ? 'the team store' : 'the local store');

/** A video or a set: its consensus drawn again from the stored answers, as locate showed it. */
async function showScene(ctx: Ctx, s: StoredScene, format: string, warn: (line: string) => void): Promise<void> {
  const view = await viewOpts(ctx, format === 'table' && ctx.io.colorOut);
  const { sceneView } = await import('../../output/views/scene.js');
  const { simulatedLine } = await import('../../output/views/locate.js');
  const inView = markFirst(format, s.sandbox, warn);
  ctx.io.stdout.write(await formatOutput({ data: s.scene, human: (v) => `${inView ? `${simulatedLine(v)}\n` : ''}${sceneView(s.scene, v)}` }, format, view));
  const n = s.scene.frames.length;
  warn(`${n} stored answer${n === 1 ? '' : 's'} of batch ${s.batch ?? '(none)'}, the newest stored ${s.storedAt}: read from ${await storeName(ctx)}, nothing sent`);
}

export const show: Handler = async (ctx, args, opts) => {
  const format = resolveFormat(ctx);
  const warn = warner(ctx);
  const found = await runHistoryShowAny(ctx, String(args[0] ?? ''), { depth: opts.depth, agreeKm: opts.agreeKm });
  if ('scene' in found) return showScene(ctx, found.scene, format, warn);
  const { record: r, runs, stored } = found.result;
  // A copy that took an earlier answer holds none of its own (show-copy.ts).
  if (r.reused_similar) return (await import('./show-copy.js')).showReuse(ctx, { ...r, reused_similar: r.reused_similar }, format, warn);
  const body = r.response.body as GeolocateResponse;
  const t = r.timing ?? {};
  const meta = {
    input: r.input.path, replayed: r.headers?.idempotent_replayed === true, evidence: r.exif ?? null,
    ...(t.elapsed_ms !== undefined ? { elapsedMs: t.elapsed_ms } : {}), ...(t.attempts !== undefined ? { attempts: t.attempts } : {}),
    ...(r.headers?.request_id ? { requestId: r.headers.request_id } : {}),
    ...(markFirst(format, isSimulated(r), warn) ? { simulated: true } : {}),
  };
  const view = await viewOpts(ctx, format === 'table' && ctx.io.colorOut);
  const { locateView, simulatedLine } = await import('../../output/views/locate.js');
  // A record without usable coordinates (another geo version may keep those) cannot be drawn as a
  // place: its fields are listed instead (renderKv sanitizes them).
  const { flatten, renderKv } = await import('../../output/kv.js');
  const shown = (v: typeof view) => (isResultBody(body) ? locateView(body, meta, v) : `${meta.simulated ? `${simulatedLine(v)}\n` : ''}${v.style.bold('Stored answer without usable coordinates')}\n${renderKv(flatten(body), v, '  ')}`);
  // A photo geo fetched from the web: where it came from, below the answer.
  const source = r.fetched ? (await import('../../output/views/fetched.js')).fetchedView : undefined;
  const human = (v: typeof view) => `${shown(v)}${source && r.fetched ? `\n\n${v.style.bold('Source')}\n${source(r.fetched, v)}` : ''}`;
  ctx.io.stdout.write(await formatOutput({ ...(r.response.raw !== undefined ? { raw: r.response.raw } : {}), data: body, records: () => [r], human }, format, view));
  const part = r.video ? `a frame of ${r.video.path}` : r.set ? `a photo of ${r.set.id}` : undefined;
  if (part && stored.batch) warn(`${part}: geo history show ${stored.batch.slice(0, BATCH_REF)} shows the consensus of all its ${r.video ? 'frames' : 'photos'}`);
  for (const l of await (await import('./show-copy.js')).copyLines(ctx, stored.id)) warn(l);
  const paid = (await (await ctx.storeApi()).paidBy([stored.id])).get(stored.id);
  if (paid) warn(`paid for by ${paid.role !== undefined ? `${paid.role} (${paid.user}@${paid.host})` : `${paid.user}@${paid.host}`} at ${paid.at}`);
  warn(`stored ${r.stored_at}${r.cli?.base_url ? ` from ${r.cli.base_url}` : ''}: read from ${await storeName(ctx)}, nothing sent${runs > 1 ? ` (newest of ${runs} stored runs${opts.depth !== undefined ? ` at depth ${String(opts.depth)}` : ' of this image; --depth N picks a depth'}; geo export ${r.input.sha256.slice(0, 12)} --history --format csv lists them)` : ''}`);
};
