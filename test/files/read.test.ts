/** files/read.ts: chunked reads that reuse one buffer, and the hash built on them. */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readChunks, sha256File } from '../../src/files/read.js';

const bytes = Buffer.from(Array.from({ length: 100_003 }, (_, i) => (i * 31 + 7) % 256));
const path = join(mkdtempSync(join(tmpdir(), 'geo-files-')), 'data.bin');
writeFileSync(path, bytes);

describe('readChunks and sha256File', () => {
  it('readChunks yields the file in order, every chunk a view of the same reused buffer', async () => {
    const copies: Buffer[] = [];
    const backing = new Set<ArrayBufferLike>();
    for await (const chunk of readChunks(path, 4096)) {
      expect(chunk.length).toBeLessThanOrEqual(4096);
      backing.add(chunk.buffer);
      copies.push(Buffer.from(chunk));
    }
    expect(Buffer.concat(copies).equals(bytes)).toBe(true);
    expect(copies).toHaveLength(Math.ceil(bytes.length / 4096));
    expect(backing.size).toBe(1);
  });

  it('sha256File equals the digest of the whole file, whatever the chunk size', async () => {
    const want = createHash('sha256').update(bytes).digest('hex');
    expect(await sha256File(path)).toBe(want);
    expect(await sha256File(path, 1000)).toBe(want);
  });
});
