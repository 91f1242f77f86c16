/** Human views of cases: the list as a table, one case as key/value rows. Every server string is sanitized. */
import type { Case } from '../../api/schemas.js';
import { renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';
import { renderTable } from '../table.js';
import { peopleTime } from '../time.js';

/**
 * both: on the service in use and recorded here; service: on the service only; local: on this
 * machine only; else the host of the other service the local case was created on.
 */
export type Where = 'both' | 'service' | 'local' | (string & {});

/** One row of `geo cases list` (commands/cases/listing.ts): the service's Case fields as received, where it is, the local facts. */
export interface ListedCase extends Case {
  teamId: string | null;
  where: Where;
  /** geo's id for the case when it is recorded here (what --case takes, as does the service's id). */
  local_id: string | null;
  /** Results linked to it here; null for a case on the service only. */
  results: number | null;
  [field: string]: unknown;
}

/** A local case as `geo cases create` shows it beside the service's answer. */
export interface LocalCaseView {
  id: string;
  service_id: string | null;
  service_note: string | null;
}

const str = (v: unknown) => sanitizeInline(typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
/** The Case shape has no team field (spec "Case"); show one when the server sends it anyway. */
const teamOf = (c: Case) => str((c as Record<string, unknown>).teamId ?? (c as Record<string, unknown>).team_id ?? '');

export function casesView(cases: readonly ListedCase[], view: ViewOpts): string {
  if (cases.length === 0) return 'No cases yet. Create one with: geo cases create';
  const head = ['ID', 'NAME', 'WHERE', 'RESULTS', 'DESCRIPTION', 'TEAM', 'CREATED', 'UPDATED'];
  const rows = cases.map((c) => [str(c.id), str(c.name), str(c.where), c.results ?? '', str(c.description), teamOf(c as unknown as Case), peopleTime(str(c.createdAt)), peopleTime(str(c.updatedAt))]);
  const align = ['left', 'left', 'left', 'right', 'left', 'left', 'left', 'left'] as const;
  // A DESCRIPTION or TEAM column empty in every row takes room from the id and the name for
  // nothing (at 120 columns an empty TEAM cut the names): it is left out.
  const shown = head.map((_, i) => i).filter((i) => !((i === 4 || i === 5) && rows.every((r) => r[i] === '')));
  const at = (i: number) => shown.indexOf(i);
  return renderTable(
    {
      head: shown.map((i) => head[i]!),
      rows: rows.map((r) => shown.map((i) => r[i]!)),
      align: shown.map((i) => align[i]!),
      // Narrow terminals list these under the table; id, name, where and description stay in it.
      optional: [7, 5, 6, 3].map(at).filter((i) => i >= 0),
    },
    view,
  );
}

export function caseView(c: Case, view: ViewOpts, local?: LocalCaseView): string {
  return renderKv(
    [
      ['id', str(c.id)],
      ['name', str(c.name)],
      ['description', str(c.description)],
      ['team', teamOf(c)],
      ['created', peopleTime(str(c.createdAt))],
      ['updated', peopleTime(str(c.updatedAt))],
      ...(local ? [['local', `${local.id}${local.service_id === null ? `, on this machine only${local.service_note ? `: ${str(local.service_note)}` : ''}` : ''} (custody log begun)`] as [string, string]] : []),
    ],
    view,
  );
}
