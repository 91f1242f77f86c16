/**
 * Account snapshots for people: credits as labelled figures, usage as its open object flattened
 * (api-spec.md: usage fields "not shown"), analyses as a table of the columns the items carry.
 */
import type { AnalysesList, Credits } from '../../api/schemas.js';
import { flatten, renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';
import { renderTable, type Cell } from '../table.js';

const figure = (n: unknown) => (n === null ? 'not reported' : n === undefined ? 'missing' : typeof n === 'number' ? String(n) : JSON.stringify(n));

const CREDIT_FIELDS = new Set(['balance', 'api_balance', 'total_available', 'total_purchased', 'total_used']);

/**
 * Read leniently: a snapshot off the contract shows what it has (the warnings name the rest).
 * The five figures of the spec come first, then whatever else the service sends in data (the
 * sandbox's `funding`, say: the spec gives two funding statements, so which applies is worth showing).
 */
export function creditsView(data: Credits['data'] | undefined, view: ViewOpts): string {
  if (typeof data !== 'object' || data === null) return 'No credit figures in the answer.';
  const extra = Object.fromEntries(Object.entries(data).filter(([k]) => !CREDIT_FIELDS.has(k)));
  return renderKv(
    [
      ['balance', figure(data.balance)],
      ['api balance', figure(data.api_balance)],
      ['total available', figure(data.total_available)],
      ['purchased', figure(data.total_purchased)],
      ['used', figure(data.total_used)],
      ...flatten(extra).map(([k, v]): [string, string] => [k.replace(/_/g, ' '), v]),
    ],
    view,
  );
}

export function usageView(data: Record<string, unknown>, view: ViewOpts): string {
  const rows = flatten(data);
  return rows.length ? renderKv(rows, view) : 'No usage data reported.';
}

type Item = AnalysesList['data'][number];
const get = (o: Item, ...keys: string[]): unknown => {
  for (const k of keys) {
    const v = k.includes('.') ? k.split('.').reduce<unknown>((acc, p) => (acc as Record<string, unknown> | undefined)?.[p], o) : o[k];
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
};

/**
 * Item fields are "not shown" in the spec, so each column lists the names it accepts and the
 * table keeps only columns at least one item fills. `--json` has everything.
 */
/** Narrow terminals list these under the table, in this order; id, file, city and confidence stay. */
const OPTIONAL = ['COORDINATES', 'NEIGHBORHOOD', 'CREATED', 'COUNTRY', 'DEPTH'];
/** Never cut: half a number is a wrong one, and a cut id cannot be copied. */
const WHOLE = new Set(['ID', 'COORDINATES', 'CONFIDENCE', 'DEPTH']);

const COLUMNS: Array<{ head: string; pick: (o: Item) => unknown; align?: 'right' }> = [
  { head: 'ID', pick: (o) => get(o, 'analysis_id', 'id') },
  { head: 'CREATED', pick: (o) => get(o, 'created_at', 'createdAt', 'created') },
  { head: 'FILE', pick: (o) => get(o, 'filename', 'file_name') },
  { head: 'NEIGHBORHOOD', pick: (o) => get(o, 'neighborhood', 'location.neighborhood') },
  { head: 'CITY', pick: (o) => get(o, 'city', 'location.city') },
  { head: 'COUNTRY', pick: (o) => get(o, 'country', 'location.country') },
  {
    head: 'COORDINATES',
    pick: (o) => {
      const lat = get(o, 'latitude', 'lat', 'location.latitude');
      const lng = get(o, 'longitude', 'lng', 'location.longitude');
      return typeof lat === 'number' && typeof lng === 'number' ? `${lat.toFixed(6)}, ${lng.toFixed(6)}` : undefined;
    },
  },
  { head: 'CONFIDENCE', pick: (o) => { const c = get(o, 'confidence'); return typeof c === 'number' ? c.toFixed(2) : c; }, align: 'right' },
  { head: 'DEPTH', pick: (o) => get(o, 'depth'), align: 'right' },
];

const cell = (v: unknown): Cell => (v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : (v as Cell));

export function analysesView(items: Item[], view: ViewOpts): string {
  if (!items.length) return 'No analyses found.';
  const cols = COLUMNS.filter((c) => items.some((o) => c.pick(o) !== undefined));
  if (!cols.length) return renderKv(items.flatMap((o, i) => flatten(o, String(i))), view);
  return renderTable(
    {
      head: cols.map((c) => c.head),
      rows: items.map((o) => cols.map((c) => cell(c.pick(o)))),
      align: cols.map((c) => c.align ?? 'left'),
      optional: OPTIONAL.map((h) => cols.findIndex((c) => c.head === h)).filter((i) => i >= 0),
      floor: cols.map((c) => (WHOLE.has(c.head) ? Infinity : undefined)),
      // A file name is told apart by its end.
      cutLeft: cols.flatMap((c, i) => (c.head === 'FILE' ? [i] : [])),
    },
    view,
  );
}
