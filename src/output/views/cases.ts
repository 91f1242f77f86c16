/** Human views of cases: the list as a table, one case as key/value rows. Every server string is sanitized. */
import type { Case } from '../../api/schemas.js';
import { renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';
import { renderTable } from '../table.js';

const str = (v: unknown) => sanitizeInline(typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
/** The Case shape has no team field (spec "Case"); show one when the server sends it anyway. */
const teamOf = (c: Case) => str((c as Record<string, unknown>).teamId ?? (c as Record<string, unknown>).team_id ?? '');

export function casesView(cases: readonly Case[], view: ViewOpts): string {
  if (cases.length === 0) return 'No cases yet. Create one with: geo cases create';
  return renderTable(
    {
      head: ['ID', 'NAME', 'DESCRIPTION', 'TEAM', 'CREATED', 'UPDATED'],
      rows: cases.map((c) => [str(c.id), str(c.name), str(c.description), teamOf(c), str(c.createdAt), str(c.updatedAt)]),
      // Narrow terminals list these under the table; id, name and description stay in it.
      optional: [5, 3, 4],
    },
    view,
  );
}

export function caseView(c: Case, view: ViewOpts): string {
  return renderKv(
    [
      ['id', str(c.id)],
      ['name', str(c.name)],
      ['description', str(c.description)],
      ['team', teamOf(c)],
      ['created', str(c.createdAt)],
      ['updated', str(c.updatedAt)],
    ],
    view,
  );
}
