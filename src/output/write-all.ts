/** Writing many chunks to a stream without queueing them in memory (memory that does not grow). */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Chunks to a stream, waiting for 'drain' when it is full: a million lines never queue up in memory. */
export async function writeAll(stream: Writable | NodeJS.WritableStream, chunks: Iterable<string | Buffer> | AsyncIterable<string | Buffer>): Promise<void> {
  const w = stream as Writable;
  for await (const chunk of chunks) {
    if (!w.write(chunk) && typeof w.once === 'function') await once(w, 'drain');
  }
}
