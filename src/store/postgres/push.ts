/**
 * `geo store push`: the local file's rows copied into the team store as they are stored:
 * a record's text, its raw bytes, a custody line are never rebuilt, so every hash (a result's
 * sha256s, a custody chain's entries) is what it was. Idempotent: a result is known by its idempotency
 * key or its content (results.content_sha), a claim by its key, a case by its id, a custody entry by
 * (case, seq), a timestamp by (case, head, TSA), what an original embedded by its sha256; a second
 * push copies nothing.
 *
 * An open local claim goes in open and unowned: whoever asks for that request next resends its key,
 * which the service replays free if it finished. A case whose team copy has other entries at the
 * same places than the local one (both went on after an earlier push) is not touched: it is named.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HeadLine } from '../journal-format.js';
import { parseEntry } from '../../evidence/custody.js';
import type { ProcessProbe } from '../sqlite/claims.js';
import { Store } from '../sqlite/store.js';
import type { SqliteRows } from '../sqlite/rows.js';
import { searchTextOf, toStored } from '../sqlite/results.js';
import { inTx } from './driver.js';
import type { Pool } from 'pg';
import type { Analyst } from '../api.js';
import { storeRow } from './results.js';
import { PUT } from './perceptual.js';
import { LINK } from './copy-links.js';
import { chunkKeys } from '../pdq-index.js';

export interface PushReport {
  results: { copied: number; already: number };
  claims: { copied: number; already: number };
  batches: number;
  cases: { copied: number; already: number };
  custody: { copied: number; already: number };
  links: number;
  timestamps: number;
  embedded: number;
  /** Kept files (exhibits, working copies, kept originals) copied. */
  kept: number;
  /** Cases whose two logs went different ways: left as they are. */
  diverged: string[];
}

/** What a push writes through: the team store's pool, its analyst, and its guard (engine.ts PgEngine). */
export interface PushTarget {
  readonly pool: Pool;
  readonly who: Analyst;
  guard<T>(fn: () => Promise<T>): Promise<T>;
}

export async function pushLocal(local: SqliteRows, team: PushTarget): Promise<PushReport> {
  const rep: PushReport = { results: { copied: 0, already: 0 }, claims: { copied: 0, already: 0 }, batches: 0, cases: { copied: 0, already: 0 }, custody: { copied: 0, already: 0 }, links: 0, timestamps: 0, embedded: 0, kept: 0, diverged: [] };
  const ids = new Map<number, number>();
  const g = <T>(fn: () => Promise<T>) => team.guard(fn);

  for (let after = 0; ;) {
    const page = local.results(after);
    if (!page.length) break;
    await g(() => inTx(team.pool, async (c) => {
      for (const { id, ...row } of page) {
        const search = searchTextOf(row.input_path, toStored({ id, record: row.record, raw: row.raw, body: row.body, sandbox: row.sandbox, batch: row.batch, listed: row.listed }).record.response.body);
        // Paid when it was received, not when it was pushed; by the role that pushes it (the server says which).
        const put = await storeRow(c, row, search, team.who, Number.isNaN(Date.parse(row.stored_at)) ? undefined : row.stored_at);
        ids.set(id, put.id);
        if (put.inserted) rep.results.copied++;
        else rep.results.already++;
      }
    }));
    after = page[page.length - 1]!.id;
  }

  await g(() => inTx(team.pool, async (c) => {
    for (const b of local.batches()) {
      rep.batches += (await c.query('INSERT INTO batches (id, head, created_at, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [b.id, b.head, b.created_at, b.updated_at])).rowCount ?? 0;
    }
    for (const k of local.claims()) {
      const r = await c.query(
        'INSERT INTO claims (key, fp, state, owner, lease_until, created_at, updated_at, batch, input, result_id, error, credits) VALUES ($1, $2, $3, NULL, NULL, $4, geo_now_ms(), $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING',
        [k.key, k.fp, k.state, k.created_at, k.batch, k.input, k.result_id === null ? null : (ids.get(k.result_id) ?? null), k.error, k.credits],
      );
      if (r.rowCount) rep.claims.copied++;
      else rep.claims.already++;
    }
  }));

  for (const cs of local.cases()) {
    const lines = local.custody(cs.id);
    await g(() => inTx(team.pool, async (c) => {
      const ins = await c.query(
        'INSERT INTO cases (id, name, description, team, created_at, service, service_id, service_note, custody_entries, custody_head) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, NULL) ON CONFLICT (id) DO NOTHING',
        [cs.id, cs.name, cs.description, cs.team, cs.created_at, cs.service, cs.service_id, cs.service_note],
      );
      if (ins.rowCount) rep.cases.copied++;
      else rep.cases.already++;
      await c.query('SELECT id FROM cases WHERE id = $1 FOR UPDATE', [cs.id]);
      const theirs = new Map((await c.query<{ seq: number; line: string }>('SELECT seq, line FROM custody WHERE case_id = $1', [cs.id])).rows.map((r) => [r.seq, r.line]));
      if (lines.some((l) => theirs.has(l.seq) && theirs.get(l.seq) !== l.line)) {
        rep.diverged.push(cs.id);
        return;
      }
      const fresh = lines.filter((l) => !theirs.has(l.seq));
      rep.custody.already += lines.length - fresh.length;
      // Only a log that continues the team's (no gap) is appended to.
      if (fresh.length && fresh[0]!.seq !== theirs.size + 1) {
        rep.diverged.push(cs.id);
        return;
      }
      for (const l of fresh) await c.query('INSERT INTO custody (case_id, seq, line) VALUES ($1, $2, $3)', [cs.id, l.seq, l.line]);
      rep.custody.copied += fresh.length;
      const last = lines[lines.length - 1];
      if (fresh.length && last) await c.query('UPDATE cases SET custody_entries = $1, custody_head = $2 WHERE id = $3', [last.seq, parseEntry(last.line).hash, cs.id]);
    }));
  }

  await g(() => inTx(team.pool, async (c) => {
    for (const l of local.links()) {
      const rid = ids.get(l.result_id);
      if (rid === undefined) continue;
      rep.links += (await c.query('INSERT INTO case_results (case_id, result_id, linked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [l.case_id, rid, l.linked_at])).rowCount ?? 0;
    }
    for (const t of local.timestamps()) {
      rep.timestamps += (await c.query(
        'INSERT INTO timestamps (case_id, head, seq, tsa, state, requested_at, attempts, last_error, reply, ca_pem, gen_time, stamped_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (case_id, head, tsa) DO NOTHING',
        [t.case_id, t.head, t.seq, t.tsa, t.state, t.requested_at, t.attempts, t.last_error, t.reply, t.ca_pem, t.gen_time, t.stamped_at],
      )).rowCount ?? 0;
    }
    for (const e of local.embedded()) {
      rep.embedded += (await c.query('INSERT INTO embedded (sha256, read_at, metadata, c2pa) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING', [e.sha256, e.read_at, e.metadata, e.c2pa])).rowCount ?? 0;
    }
    const known = new Set((await c.query<{ sha256: string }>('SELECT sha256 FROM kept_files')).rows.map((r) => r.sha256));
    for (const sha of local.keptShas()) {
      const k = known.has(sha) ? undefined : local.keptFile(sha);
      if (k) rep.kept += (await c.query('INSERT INTO kept_files (sha256, size, media_type, kept_at, bytes) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (sha256) DO NOTHING', [k.sha256, k.size, k.media_type, k.kept_at, k.bytes])).rowCount ?? 0;
    }
    // Perceptual hashes go with their images' results, so the team's look-ups find them (perceptual.ts).
    for (const h of local.perceptual()) await c.query(PUT, [h.sha256, h.pdq, h.quality, h.hashed_at, chunkKeys(h.pdq)]);
    // Copy links between results the push copied, by their ids on the team store.
    for (const l of local.copyLinks()) {
      const [result, of] = [ids.get(l.result), ids.get(l.of_result)];
      if (result !== undefined && of !== undefined) await c.query(LINK, [result, of, l.distance, l.reused ? 1 : 0, l.linked_at]);
    }
  }));
  return rep;
}

/**
 * A journal file (`--resume FILE`, one machine's batch) into the team's claims and results: read
 * by the local file's own import (sqlite/import.ts) into a scratch store, then pushed like a local
 * store: claims known by key and answers known by key or content are left as they are, and an
 * unanswered key goes in open and unowned, so the batch resends it (replayed free if it finished).
 */
export async function pushJournal(team: PushTarget, file: string, text: string, batchId: string, o: { probe: ProcessProbe; now: () => number }): Promise<HeadLine> {
  const dir = mkdtempSync(join(tmpdir(), 'geo-journal-'));
  try {
    const scratch = Store.open(dir, o);
    try {
      const head = scratch.importJournal(file, text, batchId);
      await pushLocal(scratch.rows(), team);
      return head;
    } finally {
      scratch.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
