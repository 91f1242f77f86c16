/**
 * Issue 21 on the wire, against an independent node:net server that writes the exact bytes:
 * interim 1xx answers before the final one (read past, the answer shown and kept, nothing asked
 * twice); a body shorter than its Content-Length that is whole JSON (kept, named); and an input
 * file that changes while geo sends it (between attempts, or shrinking mid-upload): one line
 * naming it, exit 2, and never a second, different body under one Idempotency-Key.
 */
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { distinctJpeg } from '../batch/helpers.js';
import { dbRows } from '../helpers/store.js';
import type { FakeApi } from './fake-server.js';
import { D1, PARIS, doneLines, errorLine, freshDirs, geo, records, warnings } from './helpers.js';
import { type RawServer, httpAnswer, rawServer } from './raw-server.js';

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const asApi = (s: RawServer) => ({ url: s.url }) as FakeApi;
const BODY = JSON.stringify(D1);

describe('interim 1xx answers are read past (RFC 9110 §15.2)', () => {
  it.each([
    ['100 Continue', 'HTTP/1.1 100 Continue\r\n\r\n'],
    ['102 Processing', 'HTTP/1.1 102 Processing\r\n\r\n'],
    ['103 Early Hints with a Link header', 'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n'],
    ['100 then 102 then 103', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\n\r\n'],
  ])('%s, then 200: the answer is shown, stored, and not asked for again', async (_name, interim) => {
    server = await rawServer({
      answer: (_req, _n, socket) => {
        socket.write(interim);
        setTimeout(() => socket.end(httpAnswer(200, BODY)), 20);
      },
    });
    const dirs = freshDirs();
    const r = await geo(asApi(server), ['locate', PARIS, '--json'], dirs);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(BODY + '\n');
    expect(server.seen).toHaveLength(1);
    expect(doneLines(dirs)).toMatchObject([{ ok: true, raw: BODY, status: 200 }]);
    expect(records(dirs)).toHaveLength(1);
  });
});

describe('a body shorter than its Content-Length', () => {
  it('whole JSON, then the connection closes: kept as the answer, named as a deviation, not re-requested', async () => {
    server = await rawServer({ answer: (_req, _n, socket) => socket.end(httpAnswer(200, BODY, { 'Content-Length': String(BODY.length + 40) })) });
    const dirs = freshDirs();
    const r = await geo(asApi(server), ['locate', PARIS, '--json'], dirs);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(BODY + '\n');
    expect(warnings(r.stderr).join('\n')).toMatch(new RegExp(`body: ${BODY.length} bytes arrived of the ${BODY.length + 40} its Content-Length declared`));
    expect(server.seen).toHaveLength(1);
    const done = doneLines(dirs);
    expect(done).toMatchObject([{ ok: true, raw: BODY, status: 200 }]);
    expect(done[0]!.deviations?.some((d) => d.includes('Content-Length'))).toBe(true);
  });

  it('cut inside the JSON: an unknown outcome, retried with the same key, and what came is kept', async () => {
    const half = BODY.slice(0, 40);
    server = await rawServer({ answer: (_req, _n, socket) => socket.end(httpAnswer(200, half, { 'Content-Length': String(BODY.length) })) });
    const dirs = freshDirs();
    const r = await geo(asApi(server), ['locate', PARIS, '--json'], dirs);
    expect(r.code).toBe(6);
    expect(errorLine(r.stderr)).toMatch(/cut off after 40 of \d+ declared bytes/);
    expect(new Set(server.seen.map((s) => s.headers['idempotency-key'])).size).toBe(1);
    expect(server.seen.length).toBeGreaterThan(1);
    // What came is kept in the store, unusable and not filed under the key (the rerun resends it).
    expect(records(dirs)).toMatchObject([{ unusable: expect.any(String), response: { raw: half, status: 200 } }]);
    expect(doneLines(dirs)).toEqual([]);
  });
});

function tempCopy(bytes: Buffer, name = 'photo.jpg'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'geo-wire-')), name);
  writeFileSync(path, bytes);
  return path;
}

describe('the bytes hashed are the bytes sent, on every attempt', () => {
  it('a file rewritten in place between attempt 1 (reset after its body was read) and attempt 2: exit 2, one line naming it, no second body', async () => {
    const path = tempCopy(distinctJpeg(1));
    server = await rawServer({
      answer: (_req, _n, socket) => {
        // The body was read (the analysis may even have run), then the connection drops; meanwhile
        // the file is rewritten in place: same size, other bytes.
        writeFileSync(path, distinctJpeg(2));
        socket.destroy();
      },
    });
    const dirs = freshDirs();
    const r = await geo(asApi(server), ['locate', path, '--json'], dirs);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${path}: the file changed while geo was sending it`);
    // One body went out, whole, under the key; the resend stopped before sending anything.
    expect(server.seen.filter((s) => s.complete)).toHaveLength(1);
    expect(server.seen).toHaveLength(1);
    // The old bytes' claim stays open with its key (a rerun sends the file as it is now: another
    // image, another claim and key); nothing was stored as an answer.
    expect(dbRows(dirs.data, 'SELECT state FROM claims')).toEqual([{ state: 'open' }]);
    expect(records(dirs)).toEqual([]);
  });

  it('a file that shrinks mid-upload: exit 2 (not 1), one line naming it, the body never completed', async () => {
    // A 2.6 MB JPEG sent as it is (--keep-metadata keeps its comment filler), so the upload takes many writes.
    const filler = Buffer.alloc(65_000, 0x41);
    const segs = Array.from({ length: 40 }, () => Buffer.concat([Buffer.from([0xff, 0xfe, (filler.length + 2) >> 8, (filler.length + 2) & 0xff]), filler]));
    const base = readFileSync(PARIS);
    const path = tempCopy(Buffer.concat([base.subarray(0, 2), ...segs, base.subarray(2)]));
    let cut = false;
    server = await rawServer({
      onBody: (req) => {
        if (!cut && req.body.length > 100_000) {
          cut = true;
          truncateSync(path, 1_000_000);
        }
      },
      answer: (_req, _n, socket) => socket.end(httpAnswer(200, BODY)),
    });
    const r = await geo(asApi(server), ['locate', path, '--json', '--keep-metadata']);
    expect(cut).toBe(true);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([expect.stringContaining(`${path}: the file changed while geo was sending it`)]);
    expect(server.seen.every((s) => !s.complete)).toBe(true);
    expect(server.seen).toHaveLength(1);
  });
});

// The unchanged file is the control: the same script with nothing rewritten is answered once.
describe('control', () => {
  it('an unchanged file after a reset is resent with the same key and bytes, and answered', async () => {
    const path = tempCopy(distinctJpeg(3));
    server = await rawServer({ answer: (_req, n, socket) => (n === 1 ? socket.destroy() : socket.end(httpAnswer(200, BODY))) });
    const r = await geo(asApi(server), ['locate', path, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.seen).toHaveLength(2);
    expect(new Set(server.seen.map((s) => s.headers['idempotency-key'])).size).toBe(1);
    expect(server.seen[0]!.body.equals(server.seen[1]!.body)).toBe(true);
  });
});
