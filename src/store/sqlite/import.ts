/**
 * The import of older files ("Import"): geo before the database kept one JSON provenance
 * record per result (<data dir>/results/<sha256>/*.json) and one NDJSON journal per command
 * (<state dir>/journals/*.ndjson). On first use they are read once, into results and claims; the
 * files stay where they are. Each file read is noted in legacy_files, so a later scan (only when a
 * folder changed: its mtime) reads only new files, and nothing is imported twice.
 *
 * A file that cannot be read is named on stderr and noted as damaged with the sha256 its folder
 * names: an image whose only record was damaged is never paid again silently (the batch plan asks).
 * A journal's unanswered keys become open claims, so the next run resends them (free if the service
 * finished them); its answers become results; its final failures, failed claims.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type DoneLine, type HeadLine, parseJournal } from '../../batch/journal-format.js';
import { type ProvenanceRecord, RECORD_SCHEMA, isResultBody } from '../../evidence/record-types.js';
import { soundsSimulated } from '../../evidence/simulated.js';
import { fingerprint } from './claims.js';
import { insertResult } from './results.js';
import type { Sql } from './sqlite.js';

export interface LegacyFolders {
  /** <data dir>/results */
  resultsDir: string;
  /** <state dir>/journals */
  journalsDir: string;
}

export interface ImportReport {
  records: number;
  journals: number;
  damaged: number;
}

const SHA = /^[0-9a-f]{64}$/;
/** Inserts per transaction: one fsync per few hundred records, not per record. */
const CHUNK = 500;

function mtime(dir: string): number | undefined {
  try {
    return statSync(dir).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Folder mtimes, so an unchanged pair of folders costs two stats and no directory listing. */
function scanStamp(f: LegacyFolders): string {
  return JSON.stringify([mtime(f.resultsDir) ?? null, mtime(f.journalsDir) ?? null]);
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

export function importLegacy(sql: Sql, f: LegacyFolders, now: number, warn: (line: string) => void): ImportReport | undefined {
  const stamp = scanStamp(f);
  if (stamp === JSON.stringify([null, null])) return undefined;
  if (sql.one<{ value: string }>("SELECT value FROM meta WHERE name = 'legacy_scan'")?.value === stamp) return undefined;
  const seen = new Set(sql.all<{ file: string }>('SELECT file FROM legacy_files').map((r) => r.file));
  const report: ImportReport = { records: 0, journals: 0, damaged: 0 };
  const note = (file: string, sha256: string | null, outcome: 'imported' | 'duplicate' | 'damaged', reason?: string) =>
    sql.run('INSERT OR IGNORE INTO legacy_files (file, sha256, outcome, reason, found_at) VALUES (?, ?, ?, ?, ?)', file, sha256, outcome, reason ?? null, now);

  const files: Array<{ file: string; sha: string }> = [];
  for (const folder of listDir(f.resultsDir).filter((d) => SHA.test(d))) {
    for (const name of listDir(join(f.resultsDir, folder)).filter((n) => n.endsWith('.json'))) {
      const file = join(f.resultsDir, folder, name);
      if (!seen.has(file)) files.push({ file, sha: folder });
    }
  }
  for (let i = 0; i < files.length; i += CHUNK) {
    sql.tx(() => {
      for (const { file, sha } of files.slice(i, i + CHUNK)) {
        let rec: ProvenanceRecord;
        try {
          rec = JSON.parse(readFileSync(file, 'utf8')) as ProvenanceRecord;
          if (rec?.schema !== RECORD_SCHEMA || typeof rec.response !== 'object' || rec.response === null) throw new Error('not a geo provenance record');
          if (rec.unusable === undefined && !isResultBody(rec.response.body)) throw new Error('no usable location');
        } catch (e) {
          report.damaged++;
          warn(`skipped ${file}: ${e instanceof Error ? e.message : String(e)} (kept as it is; that image is not reused from it)`);
          note(file, sha, 'damaged', e instanceof Error ? e.message : String(e));
          continue;
        }
        const had = rec.idempotency_key ? sql.one('SELECT 1 FROM results WHERE idem_key = ?', rec.idempotency_key) : undefined;
        if (!had) {
          // Older geo did not record the sandbox's header: its answers are known by its own words (evidence/simulated.ts).
          insertResult(sql, { record: { ...rec, input: { ...rec.input, sha256: rec.input?.sha256 || sha } }, sandbox: soundsSimulated(rec.response?.body), listed: true, importedFrom: file });
          report.records++;
        }
        note(file, sha, had ? 'duplicate' : 'imported');
      }
    });
  }

  for (const name of listDir(f.journalsDir).filter((n) => n.endsWith('.ndjson'))) {
    const file = join(f.journalsDir, name);
    if (seen.has(file)) continue;
    sql.tx(() => {
      try {
        importJournal(sql, file, readFileSync(file, 'utf8'), now);
        report.journals++;
        note(file, null, 'imported');
      } catch (e) {
        report.damaged++;
        warn(`skipped the journal ${file}: ${e instanceof Error ? e.message : String(e)} (kept as it is)`);
        note(file, null, 'damaged', e instanceof Error ? e.message : String(e));
      }
    });
  }
  sql.run("INSERT INTO meta (name, value) VALUES ('legacy_scan', ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value", stamp);
  if (report.records || report.journals) {
    warn(`imported ${report.records} stored result${report.records === 1 ? '' : 's'} and ${report.journals} journal${report.journals === 1 ? '' : 's'} of an older geo into the store; the old files stay where they are`);
  }
  return report;
}

/** The record an older journal's answer stands for (journals kept the raw body, not the headers). */
function recordOfDone(head: HeadLine, d: DoneLine, input: string, sha256: string): ProvenanceRecord {
  let body: unknown = d.ok ? d.result : null;
  if (!d.ok && d.raw !== undefined) {
    try {
      body = JSON.parse(d.raw);
    } catch {
      body = d.raw;
    }
  }
  return {
    schema: RECORD_SCHEMA, stored_at: d.at, origin: 'store', cli: { version: 'journal', base_url: head.baseUrl },
    ...(head.account !== undefined ? { account: head.account } : {}),
    input: { path: input, sha256 }, request: head.params,
    response: { status: d.status ?? 200, body: body as ProvenanceRecord['response']['body'], ...(d.raw !== undefined ? { raw: d.raw } : {}), ...(d.deviations ? { deviations: d.deviations } : {}) },
    headers: { idempotent_replayed: Boolean(d.ok && d.replayed), rate_limit: {} },
    idempotency_key: d.key,
    ...(d.ok ? {} : { unusable: d.error.message }),
  };
}

/**
 * One journal (an older geo's, or a `--resume FILE` from another machine) into claims and results;
 * keys and answers already known are left as they are. Returns the head, or throws when there is none.
 */
export function importJournal(sql: Sql, file: string, text: string, now: number, batchId?: string): HeadLine {
  const state = parseJournal(text);
  const head = state.head;
  if (!head) throw new Error('not a geo batch journal (no head line)');
  const inputs = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.includes('"t":"send"')) continue;
    try {
      const v = JSON.parse(line) as { id?: string; input?: string };
      if (typeof v.id === 'string' && typeof v.input === 'string') inputs.set(v.id, v.input);
    } catch {
      /* counted by parseJournal */
    }
  }
  const batch = batchId ?? basename(file).replace(/\.ndjson$/, '');
  // Claims without an account are looked for (and adopted) only in stores that hold some.
  if (head.account === undefined && state.keys.size > 0) sql.run("INSERT OR IGNORE INTO meta (name, value) VALUES ('accountless_claims', '1')");
  sql.run('INSERT OR IGNORE INTO batches (id, head, created_at, updated_at) VALUES (?, ?, ?, ?)', batch, JSON.stringify(head), Date.parse(head.created) || now, now);
  for (const [id, key] of state.keys) {
    if (sql.one('SELECT 1 FROM claims WHERE key = ?', key)) continue;
    const image = id.startsWith('url:') ? id.slice(4) : id;
    const fp = fingerprint({ account: head.account, origin: head.baseUrl, image, upload: { keepMetadata: head.metadata !== 'removed' }, request: head.params });
    const d = state.done.get(id);
    const at = d ? Date.parse(d.at) || now : now;
    let state_ = 'open';
    let resultId: number | null = null;
    let error: string | null = null;
    if (d && (d.ok || d.raw !== undefined) && (d.ok || d.error.final)) {
      const rec = recordOfDone(head, d, inputs.get(id) ?? id, id.startsWith('url:') ? '' : id);
      resultId = sql.one<{ id: number }>('SELECT id FROM results WHERE idem_key = ?', key)?.id ?? insertResult(sql, { record: rec, sandbox: soundsSimulated(rec.response?.body), listed: true, batch, importedFrom: file });
      state_ = 'answered';
    } else if (d && !d.ok && d.error.final) {
      state_ = 'failed';
      error = JSON.stringify(d.error);
    }
    sql.run(
      'INSERT INTO claims (key, fp, state, owner, lease_until, created_at, updated_at, batch, input, result_id, error, credits) VALUES (?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, ?)',
      key, fp, state_, at, now, batch, inputs.get(id) ?? null, resultId, error, d?.credits ?? null,
    );
  }
  return head;
}
