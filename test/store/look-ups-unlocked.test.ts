/**
 * Look-ups never wait for another process's write lock (src/store/sqlite/claims.ts Owner). The
 * local store is SQLite in WAL mode, where readers never wait for a writer; but every process
 * released "its" claims when it closed, an UPDATE even in one that had claimed nothing, and that
 * UPDATE waited out the whole busy timeout behind a writer (`geo history` took 7 s while a long
 * import held the lock). A process that never claims now writes nothing when it closes.
 *
 * The test holds the file's write lock from its own connection (BEGIN IMMEDIATE, as a writer in
 * the middle of a transaction does) while the built program runs read-only commands against it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUSY_TIMEOUT_MS } from '../../src/store/sqlite/open.js';
import { machineEnv, spawnGeo } from '../helpers/run-cli.js';

type Db = { exec(sql: string): void; close(): void };
const Database = createRequire(import.meta.url)('libsql') as new (path: string) => Db;

describe('the local store: look-ups while another process writes', () => {
  it('history, --search, show, cases list, store status and export answer at once while a writer holds the lock', async () => {
    const env = { ...machineEnv(), CI: '1' };
    expect((await spawnGeo(['--sandbox', 'locate', 'sample:paris', '-q'], { env })).code).toBe(0);

    const writer = new Database(join(env.GEO_DATA_DIR, 'geo.db'));
    writer.exec('BEGIN IMMEDIATE');
    writer.exec('UPDATE results SET id = id WHERE 0');
    try {
      for (const argv of [['history', '--json'], ['history', '--search', 'Paris', '--json'], ['history', 'show', 'sample:paris', '--json'], ['cases', 'list'], ['store', 'status'], ['export', '--all', '--include-sandbox', '--format', 'geojson']]) {
        const started = Date.now();
        const r = await spawnGeo(argv, { env });
        const took = Date.now() - started;
        expect(r.code, `geo ${argv.join(' ')}: ${r.stderr}`).toBe(0);
        // Waiting for the lock would take the busy timeout itself (10 s), then go on as if nothing happened.
        expect(took, `geo ${argv.join(' ')} waited for the writer`).toBeLessThan(BUSY_TIMEOUT_MS / 2);
      }
      const history = (await spawnGeo(['history', '--json', 'input'], { env })).stdout;
      expect(JSON.parse(history)).toEqual([{ input: expect.stringMatching(/paris\.jpg$/) }]);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  }, 60_000);
});
