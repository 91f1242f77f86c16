/**
 * The tools of `geo mcp`, each a thin wrapper over the command's own plain function (run.ts), so
 * an agent gets what `geo <command> --json` gives, checked by the same rules.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { runAnalyses } from '../commands/analyses/run.js';
import { runCreate, runList } from '../commands/cases/run.js';
import { runCredits } from '../commands/credits/run.js';
import { gather, chooseFormat, renderRecords, selectRecords } from '../commands/export/run.js';
import { historyRowOf, runHistory, runHistoryShow } from '../commands/history/run.js';
import { runInspect } from '../commands/inspect/run.js';
import { runUsage } from '../commands/usage/run.js';
import { UsageError } from '../errors.js';
import { ANALYSES, CASE_NOTE, CASE_SUMMARY, CASES_CREATE, CASES_LIST, CHECK_CLAIM, EXPORT, HISTORY, INSPECT, LOCATE, NONE, jsonSchema, parseArgs } from './inputs.js';
import { caseNote, caseSummary } from './case-tools.js';
import { checkClaimTool } from './claim-tool.js';
import { locateTool } from './locate-tool.js';
import type { Tool, ToolCtx, ToolResult } from './tool.js';

/** Larger exports are written to a file (`out`), not returned inline: a model's context is not a disk. */
const MAX_INLINE_CHARS = 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const listOf = (body: unknown): unknown[] => (isObject(body) && Array.isArray(body.data) ? body.data : []);
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * A reference to stored results: a local name (an image file, a results file) is read only inside
 * the allowed folders, and passed on by its real path; a sha256 prefix or an analysis id as it is.
 * A name that exists is a name even without a slash or a dot (the command would hash it).
 */
async function allowedRef(t: ToolCtx, ref: string): Promise<string> {
  const pathLike = /[/\\.]/.test(ref) || ref === '-' || (await stat(resolve(ref)).then(() => true, () => false));
  return pathLike ? t.dirs.readable(ref) : ref;
}

async function inspect(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  const a = parseArgs(INSPECT(), raw);
  const records = await runInspect(t.ctx, await t.dirs.inputs(a.files));
  const text = records
    .map((r) => (r.ok ? `${r.input}: ${r.type.toUpperCase()} ${r.width ?? '?'}x${r.height ?? '?'}, ${r.exif.gps ? `GPS ${r.exif.gps.lat}, ${r.exif.gps.lng}${r.place ? ` (${r.place.text})` : ''}` : 'no GPS'}${r.exif.dateTimeOriginal ? `, taken ${r.exif.dateTimeOriginal}` : ''}` : `${r.input}: ${r.error.message}`))
    .join('\n');
  return { text, data: { files: records }, isError: records.every((r) => !r.ok) };
}

async function credits(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  parseArgs(NONE(), raw);
  const res = await runCredits(t.ctx);
  // Read leniently, as the CLI does: a body off the contract is still returned as received.
  const d: Record<string, unknown> = isObject(res.data.data) ? res.data.data : {};
  return { text: `credits: ${String(d.total_available)} available (balance ${String(d.balance)}, api_balance ${String(d.api_balance)}, used ${String(d.total_used)})`, data: res.data };
}

async function usage(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  parseArgs(NONE(), raw);
  const res = await runUsage(t.ctx);
  return { text: `usage: ${JSON.stringify(res.data.data)}`, data: res.data };
}

async function analyses(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  const a = parseArgs(ANALYSES(), raw);
  const res = await runAnalyses(t.ctx, { ...(a.search !== undefined ? { q: a.search } : {}), ...(a.city !== undefined ? { city: a.city } : {}), ...(a.limit !== undefined ? { limit: String(a.limit) } : {}) });
  const n = listOf(res.data).length;
  return { text: `${n} saved ${n === 1 ? 'analysis' : 'analyses'}`, data: res.data };
}

async function casesList(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  const a = parseArgs(CASES_LIST(), raw);
  const res = await runList(t.ctx, { ...(a.team !== undefined ? { team: a.team } : {}), ...(a.limit !== undefined ? { limit: String(a.limit) } : {}) });
  const names = res.cases.map((c) => `${c.id} ${c.name} (${c.where})`);
  return { text: [count(names.length, 'case'), ...names, ...(res.note ? [res.note] : [])].join('\n'), data: res.body };
}

async function casesCreate(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  const a = parseArgs(CASES_CREATE(), raw);
  const res = await runCreate(t.ctx, { name: a.name, ...(a.description !== undefined ? { description: a.description } : {}), ...(a.team !== undefined ? { team: a.team } : {}) });
  const c: Record<string, unknown> = res.service && isObject(res.service.data) ? res.service.data : {};
  return { text: `created case ${String(c.id)} (${String(c.name)}), recorded here as ${res.local.id}`, data: { ...c, local_id: res.local.id } };
}

async function history(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  const a = parseArgs(HISTORY(), raw);
  if (a.ref !== undefined) {
    const { record, runs, stored } = await runHistoryShow(t.ctx, await allowedRef(t, a.ref));
    const row = historyRowOf(stored);
    return { text: `${row.input}: ${[row.city, row.country].filter(Boolean).join(', ')} (${row.latitude}, ${row.longitude}), confidence ${row.confidence}, stored ${row.stored_at}; ${count(runs, 'stored run')}`, data: { record, runs } };
  }
  const { rows, total } = await runHistory(t.ctx, { ...(a.search !== undefined ? { search: a.search } : {}), ...(a.limit !== undefined ? { limit: String(a.limit) } : {}) });
  // A video (or a set) is one entry: how many of its frames agree, and the batch id that names it.
  const lines = rows.map((r) => `${r.stored_at} ${r.input}: ${[r.city, r.country].filter(Boolean).join(', ')} (${r.kind === 'result' ? r.confidence : `${r.kind}, ${r.agree ?? 0} of ${r.of ?? 0} agree`}) ${r.kind === 'result' ? r.sha256.slice(0, 12) : (r.batch ?? '').slice(0, 12)}`);
  return { text: [`${rows.length} of ${total} stored results`, ...lines].join('\n'), data: { rows, total } };
}

function exportTool(canWrite: boolean) {
  return async (t: ToolCtx, raw: unknown): Promise<ToolResult> => {
    const a = parseArgs(EXPORT(canWrite), raw) as { results?: string[]; all?: boolean; history?: boolean; include_sandbox?: boolean; format: string; out?: string };
    const sources = await Promise.all((a.results ?? []).map((r) => allowedRef(t, r)));
    const out = a.out !== undefined ? await t.dirs.writable(a.out) : undefined;
    const format = chooseFormat(a.format, out);
    // An agent's export is returned inline or written whole: read into memory (the CLI streams).
    const records = await gather(await selectRecords(t.ctx, { sources, all: Boolean(a.all), history: Boolean(a.history), includeSandbox: Boolean(a.include_sandbox) }, t.log));
    // A results file may name any path as a result's image: only those inside the allowed folders are read.
    const rendered = await renderRecords(t.ctx, format, records, t.log, { confine: (p) => t.dirs.readable(p) });
    const text = typeof rendered === 'string' || Buffer.isBuffer(rendered) ? rendered : (await gather(rendered)).join('');
    if (out !== undefined) {
      await t.dirs.write(out, text, sources);
      return { text: `wrote ${count(records.length, 'result')} to ${out} (${format})`, data: { out, format, results: records.length } };
    }
    // A zip (kmz) is no text to hand back inline: only a file can carry it.
    if (typeof text !== 'string') throw new UsageError(`${format} is a binary format: it cannot be returned inline`, canWrite ? 'give `out`: a file inside the allowed folders' : 'this server is --read-only, so it writes no files; choose kml instead');
    if (text.length > MAX_INLINE_CHARS) {
      throw new UsageError(`the ${format} export is ${text.length} characters, too large to return inline`, canWrite ? 'give `out`: a file inside the allowed folders' : 'this server is --read-only, so it writes no files; select fewer results');
    }
    return { text, data: { format, results: records.length, text } };
  };
}

/** Every tool; --read-only keeps those with readOnly, and export without `out`. */
export function tools(readOnly: boolean): Tool[] {
  const all: Tool[] = [
    {
      name: 'locate', title: 'Locate images', readOnly: false, idempotent: true, openWorld: true, inputSchema: jsonSchema(LOCATE()), run: locateTool,
      description: 'Estimate where photos were taken (Visual Geolocation API). Costs credits: depth 1 = 1, 2 = 2, 3 = 10 per image; an image already answered (same bytes and request) is reused free. Returns per input the API result, the EXIF check (the photo\'s own GPS against the estimate: an independent witness, since images are sent without their metadata), where the result is stored (stored_result) and map links. With case (a local case), each result is linked to it and logged in its custody log.',
    },
    {
      name: 'check_claim', title: 'Check where photos are said to have been taken', readOnly: false, idempotent: true, openWorld: true, inputSchema: jsonSchema(CHECK_CLAIM()), run: checkClaimTool,
      description: 'Is each photo where they say? Locates each image WITHOUT the claim (reusing any stored answer free), then gives per claim a verdict, agrees, contradicts or unverifiable, with the rule that fired and a reason with the numbers: the distance from the claim to the estimate and to the nearest candidate (depth 3), the confidence, the photo\'s own EXIF GPS (a witness that can be forged), and with scoped the service\'s scope_consistent. A true claim is almost never called contradicts: thin evidence is unverifiable. Costs what locate costs (depth 1 = 1, 2 = 2, 3 = 10 per image; scoped adds one request per claim). With case, each check is logged in the case\'s custody log.',
    },
    { name: 'inspect', title: 'Inspect image files', readOnly: true, idempotent: true, openWorld: false, inputSchema: jsonSchema(INSPECT()), run: inspect, description: 'Offline and free: sha256, type, size, dimensions, EXIF GPS/time/camera and the offline place name of the GPS point. Nothing is sent.' },
    { name: 'credits', title: 'Credit balance', readOnly: true, idempotent: true, openWorld: true, inputSchema: jsonSchema(NONE()), run: credits, description: 'The account\'s credits: balance, api_balance, total_available, purchased, used. Free.' },
    { name: 'usage', title: 'Usage snapshot', readOnly: true, idempotent: true, openWorld: true, inputSchema: jsonSchema(NONE()), run: usage, description: 'Meter status, overage mode and access lifecycle, as the service sends them. Free.' },
    { name: 'analyses', title: 'Saved analyses', readOnly: true, idempotent: true, openWorld: true, inputSchema: jsonSchema(ANALYSES()), run: analyses, description: 'The account\'s saved analyses, searchable by neighbourhood, city or filename. Free.' },
    { name: 'cases_list', title: 'List cases', readOnly: true, idempotent: true, openWorld: true, inputSchema: jsonSchema(CASES_LIST()), run: casesList, description: 'Investigation cases, the service\'s (pro and enterprise keys) and the local ones, each with where (both, service or local). Free.' },
    { name: 'cases_create', title: 'Create a case', readOnly: false, idempotent: false, openWorld: true, inputSchema: jsonSchema(CASES_CREATE()), run: casesCreate, description: 'Create an investigation case (pro and enterprise keys), recorded locally too (local_id) with its custody log begun. Not idempotent: if the outcome is unknown, list the cases before creating it again.' },
    {
      name: 'case_summary', title: 'Read a local case', readOnly: true, idempotent: true, openWorld: false, inputSchema: jsonSchema(CASE_SUMMARY()), run: caseSummary,
      description: 'A local case as JSON: the case, its custody (entries, chain verified), each result (result: r1, r2…, place, coordinates, confidence, depth, analysis id, sandbox) with every visual clue, forensic support, contradiction and candidate by its id (r1.clue2, r1.cand1) and the analyst\'s judgement of it, and the investigation: the conclusion in force and those it superseded, notes (an agent\'s marked by), judgements, places ruled out, reviews (current or stale) and working copies. Offline and free.',
    },
    {
      name: 'case_note', title: 'Note an observation or hypothesis in a case', readOnly: false, idempotent: false, openWorld: false, inputSchema: jsonSchema(CASE_NOTE()), run: caseNote,
      description: 'Adds an observation (what is seen) or a hypothesis (what is supposed) to a local case\'s custody log, as `geo cases note` does, optionally pointing at results (r1) and clues (r1.clue2) as case_summary names them. The entry is marked as written by an agent, naming this client. An agent never concludes, rules out places, judges clues or reviews: no tool does, and arguments for it are refused (not_for_agents). Not idempotent: each call is a new entry. Offline and free.',
    },
    { name: 'history', title: 'Stored results', readOnly: true, idempotent: true, openWorld: false, inputSchema: jsonSchema(HISTORY()), run: history, description: 'Results already paid for, from the local provenance store, newest first; with `ref`, one stored result in full. Offline and free.' },
    {
      name: 'export', title: 'Export results', readOnly: readOnly, idempotent: true, openWorld: false, inputSchema: jsonSchema(EXPORT(!readOnly)), run: exportTool(!readOnly),
      description: `Stored results (or a results file) as GeoJSON, KML, CSV, JSON, NDJSON or a self-contained HTML report. Offline and free.${readOnly ? ' Returns the text (this server is read-only: it writes no files).' : ' Returns the text, or writes it to `out` inside the allowed folders.'}`,
    },
  ];
  return readOnly ? all.filter((t) => t.readOnly) : all;
}
