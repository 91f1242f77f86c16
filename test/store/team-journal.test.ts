/**
 * A journal file continued on a team store (issue 32): `geo locate --resume FILE` with the store on
 * PostgreSQL takes the file's keys and answers into the team's claims and results (as `geo store
 * push` copies a local store), sends only what the file left unanswered, and afterwards every
 * machine of the team finds the batch's answers there. The built binary, a real PostgreSQL, an
 * independent charging server.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChargingServer } from '../helpers/charging-server.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { machineEnv, spawnGeo } from '../helpers/run-cli.js';
import { distinctJpeg } from '../batch/helpers.js';

const db = postgresPerFile();

const machine = () => ({ ...machineEnv(), GEO_API_KEY: 'orca_test_journal' });

describe('--resume FILE on a team store', () => {
  it('the file\'s answers join the team store, only what it left is sent, and another machine then finds all three there', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg!);
    const server = await startChargingServer({ delayMs: 20 });
    try {
      const laptop = { ...machine(), GEO_BASE_URL: server.url };
      const dir = join(laptop.HOME, 'photos');
      mkdirSync(dir);
      for (let i = 0; i < 3; i++) writeFileSync(join(dir, `img${i}.jpg`), distinctJpeg(i));
      // One analyst's run on the local file, kept in a journal, whose last image never made it in.
      const journal = join(laptop.HOME, 'harbour.ndjson');
      const local = await spawnGeo(['locate', dir, '--journal', journal, '--json', '--no-store', '--concurrency', '1'], { env: laptop });
      expect(local.code, local.stderr).toBe(0);
      const lines = readFileSync(journal, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { t: string; id?: string; input?: string });
      const left = lines.find((l) => l.t === 'send' && l.input?.endsWith('img2.jpg'))!.id;
      writeFileSync(journal, lines.filter((l) => l.id !== left).map((l) => `${JSON.stringify(l)}\n`).join(''));
      expect(server.charges()).toBe(3);

      const team = { ...laptop, GEO_STORE_URL: db.pg.analystUrl };
      const resumed = await spawnGeo(['locate', '--resume', journal, '--json'], { env: team });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { ok: boolean }).ok)).toEqual([true, true, true]);
      expect(resumed.stderr).toMatch(/2 images answered by an earlier run of this command, not charged/);
      expect(server.charges()).toBe(4);
      expect(db.pg.sql("SELECT count(*) || ' ' || count(DISTINCT fp) FROM claims WHERE state = 'answered'").trim()).toBe('3 3');

      // Another machine of the team, the same photos: all three from the team store, nothing sent.
      const other = { ...machine(), GEO_BASE_URL: server.url, GEO_STORE_URL: db.pg.analystUrl };
      const elsewhere = await spawnGeo(['locate', dir, '--json'], { env: other });
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      expect(elsewhere.stdout.trimEnd().split('\n')).toHaveLength(3);
      expect(server.charges()).toBe(4);
      // And the journal once more: nothing sent.
      expect((await spawnGeo(['locate', '--resume', journal, '--json'], { env: team })).code).toBe(0);
      expect(server.charges()).toBe(4);
    } finally {
      await server.close();
    }
  }, 120_000);
});
