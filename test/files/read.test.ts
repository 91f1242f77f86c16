/** files/read.ts: chunked reads that reuse one buffer, the hash built on them, and reads that never block (issue 30). */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotRegularFileError, readChunks, sha256File, sha256RegularFile } from '../../src/files/read.js';

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

describe('sha256RegularFile: a file a log names, read without blocking or following a link', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geo-regular-'));
  const refused = async (p: string, o: { noFollow?: boolean }) => {
    const err = await sha256RegularFile(p, o).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(NotRegularFileError);
    return (err as NotRegularFileError).kind;
  };

  it('a regular file: its sha256', async () => {
    expect(await sha256RegularFile(path, { noFollow: true })).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('a FIFO with no writer: refused at once (opened non-blocking, fstat before any read)', async () => {
    const fifo = join(dir, 'report.html');
    execFileSync('mkfifo', [fifo]);
    expect(await refused(fifo, { noFollow: true })).toBe('a FIFO (named pipe)');
  });

  it('a device: refused', async () => {
    expect(await refused('/dev/zero', {})).toBe('a device');
  });

  it('a symbolic link: refused with noFollow (O_NOFOLLOW), followed without it', async () => {
    const link = join(dir, 'link.bin');
    symlinkSync(path, link);
    expect(await refused(link, { noFollow: true })).toBe('a symbolic link');
    expect(await sha256RegularFile(link)).toBe(await sha256File(path));
  });
});
