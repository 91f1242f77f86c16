/**
 * `geo cases rule-out CASE (--at PLACE|LAT,LNG [--within KM] | --area FILE.geojson) --because TEXT`:
 * a place the analyst ruled out, with its geometry, appended as place_ruled_out. A place or point
 * is a circle (its default radius as claims take it: a point 1 km, a named place its extent); an
 * area file a polygon, kept in the entry with the file's name and sha256.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { UsageError } from '../../errors.js';
import { AreaProblem, readArea } from '../../evidence/area.js';
import { sha256Hex } from '../../evidence/custody.js';
import type { InvestigationEvents } from '../../evidence/investigation-events.js';
import { readFileWhole } from '../../files/read.js';
import { render, resolveFormat } from '../../output/render.js';
import { ruledOutLine } from '../../output/views/case-investigation.js';
import { sanitizeInline } from '../../output/sanitize.js';
import type { Handler } from '../types.js';
import { type Appended, type InvestigationCtx, type Say, appendedLines, appendInvestigation, openCase, placeAt, positiveWithin, words } from './investigation-append.js';

export type RuledOutData = InvestigationEvents['place_ruled_out']['ruled_out'];

export interface RuleOutOptions {
  case: string;
  /** A place name the offline index settles, or LAT,LNG; or else `area`. */
  at?: string;
  /** The circle's radius around `at`, in km (a number, or its text as typed). */
  withinKm?: number | string;
  /** A GeoJSON file: a Polygon or MultiPolygon (bare, a Feature, or a FeatureCollection of one). */
  area?: string;
  because: string;
}

export type RuledOut = Appended & { ruled_out: RuledOutData };

/** An area file is read whole: a country's outline is a few MB; more than this is not an area someone drew. */
const MAX_AREA_BYTES = 16 * 1024 * 1024;
const AREA_HINT = '--area takes a GeoJSON Polygon or MultiPolygon (bare, a Feature, or a FeatureCollection of one), longitude first';

async function readAreaFile(path: string): Promise<{ geometry: RuledOutData['geometry']; area: { name: string; sha256: string } }> {
  const st = await stat(path).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`--area ${path}: ${err.code === 'ENOENT' ? 'no such file' : `cannot be read (${err.code ?? err.message})`}`, 'check the path (quote it if it has spaces)');
  });
  if (!st.isFile()) throw new UsageError(`--area ${path} is not a regular file`, AREA_HINT);
  if (st.size > MAX_AREA_BYTES) throw new UsageError(`--area ${path} is ${st.size.toLocaleString('en-US')} bytes, more than the ${MAX_AREA_BYTES.toLocaleString('en-US')} geo reads for an area`, 'simplify the polygon (e.g. ogr2ogr -simplify, or mapshaper)');
  const bytes = await readFileWhole(path, st.size);
  try {
    return { geometry: readArea(bytes.toString('utf8')), area: { name: basename(path), sha256: sha256Hex(bytes) } };
  } catch (err) {
    if (err instanceof AreaProblem) throw new UsageError(`--area ${path}: ${err.message}`, AREA_HINT);
    throw err;
  }
}

export async function runRuleOut(ctx: InvestigationCtx, opts: RuleOutOptions, say: Say = () => undefined): Promise<RuledOut> {
  const o = await openCase(ctx, opts.case);
  const hasAt = opts.at !== undefined;
  if (hasAt === (opts.area !== undefined)) {
    throw new UsageError(hasAt ? 'give --at or --area, not both: one place ruled out each' : 'rule out a place: --at PLACE|LAT,LNG [--within KM] or --area FILE.geojson', 'e.g. geo cases rule-out CASE --at "Lviv, UA" --within 20 --because "the signs are not Ukrainian"');
  }
  if (!hasAt && opts.withinKm !== undefined) throw new UsageError('--within goes with --at: an --area is its own outline', AREA_HINT);
  const because = words('--because', opts.because, 'the road signs there are in Polish');
  let ruled: Omit<RuledOutData, 'because'>;
  if (hasAt) {
    const at = placeAt('--at', opts.at);
    const km = positiveWithin(opts.withinKm, 'km') ?? at.toleranceKm;
    ruled = { geometry: { type: 'Point', coordinates: [at.at.lng, at.at.lat] }, within_km: km, ...(at.at.place !== null ? { place: at.at.place } : {}) };
  } else {
    ruled = await readAreaFile(opts.area!);
  }
  const ruled_out: RuledOutData = { ...ruled, because };
  const done = await appendInvestigation(ctx, o, () => ({ event: 'place_ruled_out', data: { ruled_out } }), say);
  return { ...done, ruled_out };
}

export const ruleOut: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx, ['table', 'json']);
  const res = await runRuleOut(ctx, {
    case: args[0] as string, because: opts.because as string,
    ...(opts.at !== undefined ? { at: String(opts.at) } : {}), ...(opts.within !== undefined ? { withinKm: String(opts.within) } : {}), ...(opts.area !== undefined ? { area: String(opts.area) } : {}),
  }, (line) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`));
  const human = () => [...appendedLines(res, 'ruled out'), `  ${ruledOutLine(res.ruled_out)}`].join('\n');
  await render(ctx, { data: res, human }, ['table', 'json']);
};
