/**
 * `geo api --paginate` (gh's flag). api-spec.md's list endpoints (GET /api/v1/analyses,
 * GET /api/v1/cases) take only `limit`, 1 to 200, default 50: no page, cursor or offset, and no
 * Link header is described. So there are no further pages to fetch: --paginate asks a list for
 * its largest page (limit=200, unless a limit was given) and says so on stderr. Should the service
 * ever answer with a `Link: <…>; rel="next"` header (gh's convention), geo follows it, under the
 * base URL only (resolvePath refuses any other origin, so the key never leaves it).
 */
import { UsageError } from '../../errors.js';
import type { ApiPlan } from './run.js';
import { resolvePath } from './target.js';

const LISTS = ['/api/v1/analyses', '/api/v1/cases'];
/** Enough for any account; a server that links pages forever is stopped here. */
export const MAX_PAGES = 100;

/** The first request of a --paginate run, and the note that says what paging there is. */
export function firstPage(plan: ApiPlan): { plan: ApiPlan; note: string } {
  if (plan.method !== 'GET') throw new UsageError(`--paginate reads lists, with GET; this request is a ${plan.method}`, 'drop --paginate, or -X GET');
  const [pathname = '', query = ''] = plan.path.split('?');
  const list = LISTS.find((l) => pathname.endsWith(l));
  if (!list) return { plan, note: `--paginate: ${pathname} is not a list endpoint of the API (${LISTS.join(', ')}); one request, and any Link rel="next" it answers with is followed` };
  const q = new URLSearchParams(query);
  if (q.has('limit')) return { plan, note: `--paginate: the API has no pages (api-spec.md: ${list} takes only limit, 1-200); one request with your limit` };
  q.set('limit', '200');
  return { plan: { ...plan, path: `${pathname}?${q.toString()}` }, note: `--paginate: the API has no pages (api-spec.md: ${list} takes only limit, 1-200), so geo asks once for the most it gives (limit=200)` };
}

/** The next page from a `Link` header (RFC 8288), as a path under the base URL; undefined when none. */
export function nextPage(headers: Record<string, string>, baseUrl: string): string | undefined {
  const link = headers.link;
  if (!link) return undefined;
  const next = link.split(',').map((part) => /<([^>]*)>\s*;(.*)/.exec(part.trim())).find((m) => m && /\brel="?next"?/i.test(m[2] ?? ''));
  return next ? resolvePath(next[1]!, baseUrl) : undefined;
}
