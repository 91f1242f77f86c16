/**
 * The batch journal: append-only NDJSON, each line fsync'd before anyone acts on it.
 *
 *   {"t":"head","v":1,"params":{...},"args":[...],"cwd":"...","baseUrl":"...","account":"<fingerprint>","created":"..."}
 *   {"t":"send","id":"<sha256|url:...>","key":"<Idempotency-Key>","input":"a.jpg","at":"..."}   BEFORE the request
 *   {"t":"done","id":"...","key":"...","ok":true,"result":{...},"raw":"...","status":200,"credits":1,"at":"..."}   after the answer
 *   {"t":"done","id":"...","key":"...","ok":false,"error":{"code","message","status","final"},"raw":"...","status":200,"credits":1}
 *
 * `raw` is the body text as received, for every 2xx (and an unreadable one): a rerun re-emits
 * exactly what `locate --json` printed first. A paid answer without usable coordinates is a final
 * failure (code `unusable_answer`) that keeps its raw body and its charge: a rerun replays it from
 * here and sends nothing (DESIGN.md "Never lose what was paid"). `deviations` names what was off
 * the contract.
 *
 * Why this order makes kill -9 safe (api-spec.md "States and transitions"): a "send" line without
 * its "done" is resent with the SAME key, so a request that did complete is replayed by the server
 * (no model call, no debit); one that never arrived runs once. A "done" that is ok, or a final
 * error (422), is never sent again. A crash mid-write leaves a torn last line: it is cut off on
 * open, so the next append starts on a clean line.
 */
import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { BatchError } from './types.js';

/** The command that wrote the journal, so `--resume FILE` alone can run it again. */
export interface HeadLine {
  t: 'head';
  v: 1;
  params: Record<string, unknown>;
  args: string[];
  fromFile?: string;
  cwd: string;
  baseUrl: string;
  /**
   * accountFingerprint of the key that wrote it (never the key): answers are re-emitted only for
   * the same account (account.ts). Absent in journals written before geo recorded it.
   */
  account?: string;
  /**
   * 'removed' when the images went out without their metadata (issue 14). Absent: sent as they
   * are (--keep-metadata, or a journal from before geo removed metadata). A journal's keys must be
   * resent with the same bytes, so one journal never mixes the two.
   */
  metadata?: 'removed';
  created: string;
}
export interface SendLine {
  t: 'send';
  id: string;
  key: string;
  input: string;
  at: string;
}
/** What the answer itself was, when one arrived. */
interface Answered {
  raw?: string;
  /** The bytes as base64 when `raw` alone does not give them back (not UTF-8, a BOM; issue 21). */
  raw_b64?: string;
  status?: number;
  deviations?: string[];
}
export type DoneLine =
  | ({ t: 'done'; id: string; key: string; ok: true; result: unknown; credits: number; replayed?: boolean; at: string } & Answered)
  | ({ t: 'done'; id: string; key: string; ok: false; error: BatchError; credits?: number; at: string } & Answered);
export type JournalLine = HeadLine | SendLine | DoneLine;

export interface JournalState {
  head?: HeadLine;
  /** id -> the idempotency key it was (or is about to be) sent with. */
  keys: Map<string, string>;
  /** id -> its latest outcome. */
  done: Map<string, DoneLine>;
  /** Lines that did not parse (a torn tail, or damage): ignored, never fatal. */
  skippedLines: number;
  /** Byte length of the intact prefix (everything up to the last newline). */
  intactBytes: number;
}

/** Finished = nothing left to send: a success, or a failure that would fail the same way again. */
export function isFinished(d: DoneLine | undefined): boolean {
  return d !== undefined && (d.ok || d.error.final);
}

export function parseJournal(text: string): JournalState {
  const state: JournalState = { keys: new Map(), done: new Map(), skippedLines: 0, intactBytes: 0 };
  const lastNl = text.lastIndexOf('\n');
  const intact = lastNl < 0 ? '' : text.slice(0, lastNl + 1);
  state.intactBytes = Buffer.byteLength(intact, 'utf8');
  if (text.length > intact.length) state.skippedLines++; // the torn tail
  for (const line of intact.split('\n')) {
    if (line.trim() === '') continue;
    let v: JournalLine;
    try {
      v = JSON.parse(line) as JournalLine;
    } catch {
      state.skippedLines++;
      continue;
    }
    if (v?.t === 'head' && !state.head) state.head = v;
    else if (v?.t === 'send' && typeof v.id === 'string' && typeof v.key === 'string') state.keys.set(v.id, v.key);
    else if (v?.t === 'done' && typeof v.id === 'string') {
      // A later failure never hides an earlier success (cannot happen by construction, but cheap).
      if (!state.done.get(v.id)?.ok) state.done.set(v.id, v);
      if (typeof v.key === 'string' && !state.keys.has(v.id)) state.keys.set(v.id, v.key);
    } else state.skippedLines++;
  }
  return state;
}

/** A fresh key per image per journal; the journal, not a hash, is what makes it stable. */
export function newIdempotencyKey(): string {
  return `geo-batch-${randomUUID()}`;
}

export class Journal {
  private queue: Array<{ text: string; resolve: () => void; reject: (e: unknown) => void }> = [];
  private flushing = false;

  private constructor(readonly path: string, private fh: FileHandle) {}

  /** Opens (creating folders with mode 0700) and reads what an earlier run left. */
  static async open(path: string, opts: { fresh?: boolean } = {}): Promise<{ journal: Journal; state: JournalState; existed: boolean }> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    let text = '';
    let existed = false;
    if (!opts.fresh) {
      try {
        text = await readFile(path, 'utf8');
        existed = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    const state = parseJournal(text);
    // Cut a torn tail so the next line does not get glued onto half a line.
    if (existed && Buffer.byteLength(text, 'utf8') !== state.intactBytes) await truncate(path, state.intactBytes);
    const fh = await open(path, opts.fresh ? 'w' : 'a', 0o600);
    if (!existed) await syncDir(dirname(path));
    return { journal: new Journal(path, fh), state, existed };
  }

  /**
   * Resolves once the line is on disk. Lines queued while a write is in flight share the next
   * write and fsync (group commit), so a busy batch does not pay one fsync per request.
   */
  append(line: JournalLine): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ text: JSON.stringify(line) + '\n', resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        await this.fh.write(batch.map((b) => b.text).join(''));
        await this.fh.datasync();
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.flushing = false;
  }

  async close(): Promise<void> {
    while (this.flushing || this.queue.length > 0) await new Promise((r) => setImmediate(r));
    await this.fh.close();
  }
}

/** A new file's directory entry must survive a crash too. Best effort: some filesystems refuse. */
async function syncDir(dir: string): Promise<void> {
  try {
    const d = await open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    /* not supported here: the file's own fsyncs still hold */
  }
}

/** Reads a journal without opening it for writing (--dry-run writes nothing). */
export async function readJournalState(path: string): Promise<JournalState | undefined> {
  try {
    return parseJournal(await readFile(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
