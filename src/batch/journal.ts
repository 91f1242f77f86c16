/**
 * `--journal FILE`: the batch written out as NDJSON (format: src/batch/journal-format.ts) as it
 * runs, each line fsync'd. Since the SQLite store (issue 19) the claims and results in the store
 * are what a rerun trusts; the file is an export of the batch that `--resume FILE` can run again,
 * on this machine or another (its keys and answers are imported into the store first).
 *
 * geo never writes a journal through a symbolic link, into a FIFO or over a folder (files/safe.ts).
 */
import { constants } from 'node:fs';
import { type FileHandle, mkdir, open, readFile, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkWritableFile } from '../files/safe.js';
import { type JournalLine, type JournalState, parseJournal } from './journal-format.js';

export * from './journal-format.js';

export class Journal {
  private queue: Array<{ text: string; resolve: () => void; reject: (e: unknown) => void }> = [];
  private flushing = false;

  private constructor(readonly path: string, private fh: FileHandle) {}

  /**
   * Opens (creating missing folders 0700) and reads what an earlier run left. The file is opened
   * with O_NOFOLLOW: a link planted in its place is refused, never followed (files/safe.ts).
   */
  static async open(path: string, opts: { fresh?: boolean } = {}): Promise<{ journal: Journal; state: JournalState; existed: boolean }> {
    checkWritableFile(path, 'the journal');
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
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (opts.fresh ? constants.O_TRUNC : constants.O_APPEND);
    const fh = await open(path, flags, 0o600);
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
