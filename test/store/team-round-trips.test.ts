/**
 * What a team-store command sends, read off the wire: a proxy between geo and a real PostgreSQL
 * parses both directions (the protocol's typed messages) and holds each answer from the server
 * DELAY_MS before passing it on. A message geo wrote before the proxy passed it an answer cannot
 * have waited for that answer: that is how the schema version check is seen riding in the first
 * round trip with the command's own query, not in one of its own. Statements are counted as the
 * server sees them (a simple Query, or an extended Parse).
 */
import { mkdtempSync } from 'node:fs';
import { type AddressInfo, type Socket, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { spawnGeo } from '../helpers/run-cli.js';
import { PG_SCHEMA_VERSION as V } from '../../src/store/postgres/schema.js';

const db = postgresPerFile({ tcp: true });
const DELAY_MS = 150;

const dirs = () => ({ GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-rt-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-rt-state-')), CI: '1' });

/** A statement geo sent: its text's start, and how many ReadyForQuery the proxy had passed to geo by then. */
interface Sent {
  sql: string;
  answered: number;
}

/** Typed messages (1 type byte, a 4-byte length that counts itself) out of a stream's chunks. */
function messages(onMessage: (type: string, body: Buffer) => void, untyped = false): (chunk: Buffer) => void {
  let buf = Buffer.alloc(0);
  let first = untyped; // the client's startup message has no type byte
  return (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      const head = first ? 0 : 1;
      if (buf.length < head + 4) return;
      const len = buf.readUInt32BE(head);
      if (buf.length < head + len) return;
      if (!first) onMessage(String.fromCharCode(buf[0]!), buf.subarray(5, 1 + len));
      buf = buf.subarray(head + len);
      first = false;
    }
  };
}

async function proxied(upstreamPort: number, run: (url: string) => Promise<void>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const sockets: Socket[] = [];
  const proxy = createServer((client) => {
    const up = connect(upstreamPort, '127.0.0.1');
    sockets.push(client, up);
    let answered = 0;
    const readClient = messages((type, body) => {
      // Q: a simple query's text; P: an extended Parse (a statement name, then its text).
      if (type === 'Q') sent.push({ sql: body.toString('utf8', 0, body.length - 1), answered });
      if (type === 'P') sent.push({ sql: body.toString('utf8', body.indexOf(0) + 1, body.indexOf(0, body.indexOf(0) + 1)), answered });
    }, true);
    client.on('data', (c: Buffer) => {
      readClient(c);
      up.write(c);
    });
    // Each answer reaches geo DELAY_MS after the server gave it, in order; ReadyForQuery counted as passed.
    let queue = Promise.resolve();
    up.on('data', (c: Buffer) => {
      const zs: number[] = [];
      messages((type) => type === 'Z' && zs.push(1))(c);
      queue = queue.then(() => new Promise<void>((r) => setTimeout(() => {
        answered += zs.length;
        if (!client.destroyed) client.write(c);
        r();
      }, DELAY_MS)));
    });
    client.on('close', () => up.destroy());
    up.on('close', () => void queue.then(() => client.destroy()));
    client.on('error', () => up.destroy());
    up.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  try {
    await run(`postgres://geo_analyst@127.0.0.1:${(proxy.address() as AddressInfo).port}/geo`);
  } finally {
    for (const s of sockets) s.destroy();
    proxy.close();
  }
  return sent;
}

describe('a team-store command on the wire', () => {
  it('geo history: the schema check and the page (with the count) go out together, before any answer; two statements in all', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    expect((await spawnGeo(['--sandbox', 'locate', 'sample:paris', '--yes'], { env: { ...dirs(), GEO_STORE_URL: db.pg.analystUrl } })).code).toBe(0);
    const port = Number(new URL(db.pg.tcpUrl!).port);
    const sent = await proxied(port, async (url) => {
      const r = await spawnGeo(['history', '--json', 'input'], { env: { ...dirs(), GEO_STORE_URL: url } });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(1);
    });
    expect(sent.map((s) => s.sql)).toEqual([expect.stringContaining('FROM schema_version'), expect.stringMatching(/^SELECT id, stored_at/)]);
    // Both were written when only the login's ReadyForQuery had reached geo.
    expect(sent.map((s) => s.answered)).toEqual([1, 1]);
  }, 60_000);

  it('geo store status: the check rides with the counts (one statement), then one timed round trip', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    const port = Number(new URL(db.pg.tcpUrl!).port);
    const sent = await proxied(port, async (url) => {
      const r = await spawnGeo(['store', 'status', '--json'], { env: { ...dirs(), GEO_STORE_URL: url } });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ store: 'team', schema: V });
    });
    expect(sent.map((s) => s.answered)).toEqual([1, 1, 3]);
    expect(sent[2]!.sql).toBe('SELECT 1');
  }, 60_000);

  it('a store behind this geo: refused with the migrate hint, and the command\'s own query that rode with the check is not shown', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    db.pg.sql(`DELETE FROM schema_version WHERE version = ${V}`);
    try {
      const r = await spawnGeo(['history', '--store', db.pg.analystUrl], { env: dirs() });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(new RegExp(`has schema ${V - 1}; this geo needs ${V}.*geo store migrate`, 's'));
      expect(r.stdout).toBe('');
    } finally {
      db.pg.sql(`INSERT INTO schema_version (version) VALUES (${V})`);
    }
  }, 60_000);
});
