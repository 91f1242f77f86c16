import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, isFinished, parseJournal } from '../../src/batch/journal.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'geo-journal-'));
const at = '2025-01-01T00:00:00.000Z';

describe('batch journal', () => {
  it('keeps every intact line and ignores a torn last line', () => {
    const lines = [
      JSON.stringify({ t: 'send', id: 'a', key: 'k-a', input: 'a.jpg', at }),
      JSON.stringify({ t: 'done', id: 'a', key: 'k-a', ok: true, result: { x: 1 }, credits: 1, at }),
      JSON.stringify({ t: 'send', id: 'b', key: 'k-b', input: 'b.jpg', at }),
    ];
    const text = lines.join('\n') + '\n' + '{"t":"done","id":"b","key":"k-b","ok":tr';
    const s = parseJournal(text);
    expect(s.keys.get('a')).toBe('k-a');
    expect(s.keys.get('b')).toBe('k-b');
    expect(isFinished(s.done.get('a'))).toBe(true);
    expect(s.done.has('b')).toBe(false);
    expect(s.skippedLines).toBe(1);
    expect(s.intactBytes).toBe(Buffer.byteLength(lines.join('\n') + '\n'));
  });

  it('cuts the torn tail on open so the next line starts clean', async () => {
    const path = join(tmp(), 'j.ndjson');
    writeFileSync(path, JSON.stringify({ t: 'send', id: 'a', key: 'k-a', input: 'a.jpg', at }) + '\n');
    appendFileSync(path, '{"t":"done","id":"a","ke'); // kill -9 mid-write
    const { journal, state } = await Journal.open(path);
    expect(state.keys.get('a')).toBe('k-a');
    expect(state.done.size).toBe(0);
    await journal.append({ t: 'done', id: 'a', key: 'k-a', ok: true, result: {}, credits: 1, at });
    await journal.close();
    const again = parseJournal(readFileSync(path, 'utf8'));
    expect(again.skippedLines).toBe(0);
    expect(isFinished(again.done.get('a'))).toBe(true);
  });

  it('treats final errors as finished and transient ones as resendable', () => {
    const s = parseJournal(
      [
        { t: 'done', id: 'a', key: 'k', ok: false, error: { code: 'invalid_image_b64', status: 422, message: 'x', final: true }, at },
        { t: 'done', id: 'b', key: 'k2', ok: false, error: { code: 'server_error', status: 500, message: 'x', final: false }, at },
        'garbage in the middle',
      ].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n',
    );
    expect(isFinished(s.done.get('a'))).toBe(true);
    expect(isFinished(s.done.get('b'))).toBe(false);
    expect(s.skippedLines).toBe(1);
  });

  it('group-commits concurrent appends, each line whole', async () => {
    const path = join(tmp(), 'j.ndjson');
    const { journal } = await Journal.open(path);
    await Promise.all(Array.from({ length: 50 }, (_, i) => journal.append({ t: 'send', id: `id${i}`, key: `k${i}`, input: `${i}.jpg`, at })));
    await journal.close();
    const s = parseJournal(readFileSync(path, 'utf8'));
    expect(s.keys.size).toBe(50);
    expect(s.skippedLines).toBe(0);
  });
});
