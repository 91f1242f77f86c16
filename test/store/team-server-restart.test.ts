/**
 * The team store's server stops mid-batch as a crash would (pg_ctl stop -m immediate) and is
 * started again: the batch stops sending within its timeouts (exit 6, the resume hint), every
 * answer the service charged is kept (in the store, or in the --journal file when the store could
 * not take it), and the rerun after the restart pays for nothing twice. The service is an
 * independent server that charges once per idempotency key (test/helpers/charging-server.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChargingServer } from '../helpers/charging-server.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { GEO_BIN, binEnv, finished, machineEnv, spawnGeo } from '../helpers/run-cli.js';
import { distinctJpeg } from '../batch/helpers.js';

const db = postgresPerFile({ tcp: true });
const N = 8;

describe('the team store\'s server stops mid-batch and starts again', () => {
  it('exit 6 with the resume hint; every charged answer is in the store or the journal; the rerun pays nothing twice', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    const pg = db.pg;
    await freshStore(pg);
    const server = await startChargingServer({ delayMs: 800, quota: 600 });
    const home = machineEnv();
    const dir = join(home.HOME, 'photos');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < N; i++) writeFileSync(join(dir, `img${i}.jpg`), distinctJpeg(700 + i));
    const journal = join(home.HOME, 'batch.ndjson');
    const env = { ...home, GEO_STORE_URL: pg.tcpUrl!, GEO_API_KEY: 'orca_test_restart', GEO_BASE_URL: server.url };
    const started: string[] = [];
    let halted = false;
    try {
      const child = spawn(process.execPath, [GEO_BIN, 'locate', dir, '--json', '--yes', '--concurrency', '3', '--journal', journal], { env: binEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
      // The server goes down when the fourth analysis starts: one answer (at least) stored, others in flight.
      server.onStart = (key) => {
        started.push(key);
        if (started.length === 4 && !halted) {
          halted = true;
          pg.halt();
        }
      };
      const first = await finished(child);
      server.onStart = undefined;
      expect(halted).toBe(true);
      expect(first.code, first.stderr).toBe(6);
      expect(first.stderr).toMatch(/cannot be reached/);
      expect(first.stderr).toMatch(/geo locate --resume \S+/);
      // Every analysis that started ran to its end and was charged (geo waited for those in flight).
      expect(server.charges()).toBe(started.length);
      expect(started.length).toBeGreaterThan(1);

      pg.restart();
      // Every key the service charged: its answer in the store or in the journal.
      const stored = new Set(pg.sql('SELECT idem_key FROM results WHERE idem_key IS NOT NULL').trim().split('\n').filter(Boolean));
      const journaled = new Set(readFileSync(journal, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { t: string; ok?: boolean; key?: string })
        .filter((l) => l.t === 'done' && l.ok).map((l) => l.key!));
      expect(started.filter((k) => !stored.has(k) && !journaled.has(k))).toEqual([]);

      const rerun = await spawnGeo(['locate', '--resume', journal, '--json', '--yes'], { env });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { ok: boolean }).filter((l) => l.ok)).toHaveLength(N);
      // One charge per image, whichever run sent it: nothing paid twice.
      expect(server.charges()).toBe(N);
      expect(pg.sql("SELECT count(DISTINCT sha256) || ' ' || count(*) FROM results").trim()).toBe(`${N} ${N}`);
      expect(pg.sql("SELECT count(*) FROM claims WHERE state = 'answered'").trim()).toBe(String(N));
    } finally {
      server.onStart = undefined;
      if (halted) {
        try {
          pg.restart();
        } catch {
          // running already
        }
      }
      await server.close();
    }
  }, 120_000);
});
