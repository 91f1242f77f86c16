/**
 * What this process already read of each result beside its columns: who paid for it, its tags
 * (batch, video, set) and its copy link (copy-links.ts: which earlier result it is a copy of). `geo history` reads a page of rows and then asks who paid for them (and, for
 * a search, their tags), `geo history show` its result and then who paid; on a team store each
 * question was another round trip, a few ms each on a fresh backend. The first query reads them
 * too, and the questions are answered from here.
 * Neither changes once a result is stored (paid_at is set by the statement that inserts it,
 * push.ts), so what was read stays true for the process.
 */
import type { Analyst, CopyLink, Tag } from '../api.js';

export type Paid = Analyst & { at: string };

/**
 * The columns a page's query adds to read who paid (paidBy's, results.ts), and the row's copy link
 * as JSON text (null: it is no copy), which history marks the row with next.
 */
export const PAID_COLUMNS = `paid_role, paid_user, paid_host, to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS paid_at_utc,
  (SELECT json_build_object('result', l.result, 'of_result', l.of_result, 'distance', l.distance, 'reused', l.reused = 1, 'linked_at', l.linked_at)::text FROM copy_links l WHERE l.result = results.id) AS copy_json`;
export interface PaidColumns {
  paid_role: string | null;
  paid_user: string;
  paid_host: string;
  paid_at_utc: string;
  copy_json: string | null;
}

/** The columns a page's query adds to read a result's tags (tagsOf's). */
export const TAG_COLUMNS = "batch, (record::jsonb -> 'video')::text AS video_json, (record::jsonb -> 'set')::text AS set_json";

export function paidOf(row: PaidColumns): Paid {
  return { ...(row.paid_role !== null ? { role: row.paid_role } : {}), user: row.paid_user, host: row.paid_host, at: row.paid_at_utc };
}

export class Seen {
  private readonly paid = new Map<number, Paid>();
  private readonly tags = new Map<number, Tag>();
  private readonly copies = new Map<number, CopyLink | null>();

  /** The row as the caller knows it (without the paid columns), its payer remembered. */
  keepPaid<T extends PaidColumns & { id: number }>(row: T): Omit<T, keyof PaidColumns> {
    const { paid_role: _r, paid_user: _u, paid_host: _h, paid_at_utc: _a, copy_json, ...rest } = row;
    this.paid.set(row.id, paidOf(row));
    this.copies.set(row.id, copy_json === null ? null : (JSON.parse(copy_json) as CopyLink));
    return rest;
  }

  keepTag(t: Tag): void {
    this.tags.set(t.id, { id: t.id, batch: t.batch, video_json: t.video_json, set_json: t.set_json });
  }

  /** Who paid for each of `ids`, when all were read already; else undefined (ask the server). */
  paidBy(ids: readonly number[]): Map<number, Paid> | undefined {
    return ids.every((id) => this.paid.has(id)) ? new Map(ids.map((id) => [id, this.paid.get(id)!])) : undefined;
  }

  /** The copy links of `ids` (only those that are copies), when all were read already; else undefined. A link made later by this process is asked of the server. */
  copiesOf(ids: readonly number[]): Map<number, CopyLink> | undefined {
    if (!ids.every((id) => this.copies.has(id))) return undefined;
    return new Map(ids.flatMap((id) => {
      const l = this.copies.get(id);
      return l ? [[id, l] as const] : [];
    }));
  }

  /** A link this process made: what a page read of that result no longer holds. */
  forgetCopy(id: number): void {
    this.copies.delete(id);
  }

  tagsOf(ids: readonly number[]): Map<number, Tag> | undefined {
    return ids.every((id) => this.tags.has(id)) ? new Map(ids.map((id) => [id, this.tags.get(id)!])) : undefined;
  }
}
