/**
 * A case's investigation as its custody log holds it: the notes, the judgements (the latest per
 * clue), the places ruled out, the conclusion in force and those it replaced, the working copies and
 * the reviews, each stale or current. Pure: read from entries already checked by the chain
 * (case-results.ts), so `cases show`, `cases report`, `cases work`, `cases verify` and the MCP
 * server see one investigation. Every item keeps its entry's position and author.
 */
import type { Numbered } from './case-vouch.js';
import type { CustodyEntry } from './custody.js';
import { ATTESTATIONS, type InvestigationEvents } from './investigation-events.js';

/** Who wrote an entry and when (custody.ts Actor, as logged). */
export interface Authored {
  entry: number;
  hash: string;
  at: string;
  user: string;
  host: string;
  key?: string;
  role?: string;
}

type Data<K extends keyof InvestigationEvents> = InvestigationEvents[K];
export type Note = Data<'note_made'>['note'] & Authored;
export type RuledOut = Data<'place_ruled_out'>['ruled_out'] & Authored;
export type Conclusion = Data<'conclusion_made'>['conclusion'] & Authored;
export type Judgement = Data<'clue_judged'>['judgement'] & Authored;
export type WorkingCopy = Data<'working_copy_made'>['copy'] & Authored;
/** A review, and whether an entry that changes the case came after it (stale: it no longer covers the case). */
export type Review = Data<'review_made'>['review'] & Authored & { stale: boolean; stale_by?: number };

export interface Investigation {
  notes: Note[];
  /** The latest judgement of each clue, in log order; `earlier_judgements` keeps the ones they replaced. */
  judgements: Judgement[];
  earlier_judgements: Judgement[];
  ruled_out: RuledOut[];
  /** The conclusion in force (the latest), and those it superseded, newest first. */
  conclusion?: Conclusion;
  superseded: Conclusion[];
  working_copies: WorkingCopy[];
  reviews: Review[];
}

function authored(e: CustodyEntry, n: number): Authored {
  return { entry: n, hash: e.hash, at: e.at, user: e.user, host: e.host, ...(e.key ? { key: e.key } : {}), ...(e.role !== undefined ? { role: e.role } : {}) };
}

const part = <T>(e: CustodyEntry, key: string): T => (e.data[key] ?? {}) as T;

export function investigationOf(entries: readonly Numbered[]): Investigation {
  const inv: Investigation = { notes: [], judgements: [], earlier_judgements: [], ruled_out: [], superseded: [], working_copies: [], reviews: [] };
  const conclusions: Conclusion[] = [];
  const judged = new Map<string, Judgement>();
  for (const { n, e } of entries) {
    const who = authored(e, n);
    if (e.event === 'note_made') inv.notes.push({ ...part<Note>(e, 'note'), ...who });
    else if (e.event === 'place_ruled_out') inv.ruled_out.push({ ...part<RuledOut>(e, 'ruled_out'), ...who });
    else if (e.event === 'conclusion_made') conclusions.push({ ...part<Conclusion>(e, 'conclusion'), ...who });
    else if (e.event === 'working_copy_made') inv.working_copies.push({ ...part<WorkingCopy>(e, 'copy'), ...who });
    else if (e.event === 'review_made') inv.reviews.push({ ...part<Review>(e, 'review'), ...who, stale: false });
    else if (e.event === 'clue_judged') {
      const j = { ...part<Judgement>(e, 'judgement'), ...who };
      const before = judged.get(j.clue);
      if (before) inv.earlier_judgements.push(before);
      judged.set(j.clue, j);
    }
    // An entry that changes the case makes every review before it stale: it covers what it saw.
    if (!ATTESTATIONS.includes(e.event)) {
      for (const r of inv.reviews) if (!r.stale) Object.assign(r, { stale: true, stale_by: n });
    }
  }
  inv.judgements = [...judged.values()].sort((a, b) => a.entry - b.entry);
  inv.conclusion = conclusions.at(-1);
  inv.superseded = conclusions.slice(0, -1).reverse();
  return inv;
}
