/**
 * `--journal FILE`: the batch written out as NDJSON (format: src/batch/journal-format.ts) as it
 * runs, each line fsync'd. Since the SQLite store the claims and results in the store
 * are what a rerun trusts; the file is an export of the batch that `--resume FILE` can run again,
 * on this machine or another (its keys and answers are imported into the store first).
 *
 * geo never writes a journal through a symbolic link or a second name (hard link), into a FIFO or
 * over a folder or an input of the run: it goes through the one writer (files/own-file.ts).
 */
import { close, fdatasync, ftruncateSync, write } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { dirname } from 'node:path';
import { type OwnFile, openOwnFile } from '../files/own-file.js';
import { ensureOwnDir } from '../files/safe.js';
import { type JournalLine, type JournalState, parseJournal } from './journal-format.js';

export * from './journal-format.js';

const writeAsync = (fd: number, b: Buffer, at: number, n: number) => new Promise<number>((res, rej) => write(fd, b, at, n, null, (e, w) => (e ? rej(e) : res(w))));
const datasync = promisify(fdatasync);

export class Journal {
  private queue: Array<{ text: string; resolve: () => void; reject: (e: unknown) => void }> = [];
  private flushing = false;

  private constructor(readonly path: string, private f: OwnFile) {}

  /**
   * Opens (creating missing folders 0700) and reads what an earlier run left. Through the one writer
   * (files/own-file.ts): a link, a FIFO or a file with a second name is refused, never followed; a
   * new journal (or --fresh) is a new 0600 file put in place before its first line, an existing
   * one is appended to.
   */
  static async open(path: string, opts: { fresh?: boolean } = {}): Promise<{ journal: Journal; state: JournalState; existed: boolean }> {
    ensureOwnDir(dirname(path));
    const f = openOwnFile(path, 'the journal', { existing: opts.fresh ? 'replace' : 'append' });
    try {
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
      // A new file in place at once (fsync'd, its folder too), so each line lands in it.
      if (!f.commit()) throw new Error(`another process created ${path} at the same moment`);
      const state = parseJournal(text);
      // Cut a torn tail so the next line does not get glued onto half a line.
      if (existed && Buffer.byteLength(text, 'utf8') !== state.intactBytes) ftruncateSync(f.fd, state.intactBytes);
      return { journal: new Journal(path, f), state, existed };
    } catch (err) {
      f.close();
      throw err;
    }
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
        const text = Buffer.from(batch.map((b) => b.text).join(''), 'utf8');
        for (let at = 0; at < text.length; ) at += await writeAsync(this.f.fd, text, at, text.length - at);
        await datasync(this.f.fd);
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.flushing = false;
  }

  async close(): Promise<void> {
    while (this.flushing || this.queue.length > 0) await new Promise((r) => setImmediate(r));
    await promisify(close)(this.f.fd);
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
