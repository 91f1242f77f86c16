/**
 * A store budget met while the run's own requests are in flight: the request that finds no room
 * waits for them to settle and asks again, and the run stops only when none of its own is left
 * (batch/spend-guard.ts HeldCredits). Stopping at once let go of the reservations of requests that
 * had not had their turn yet: a cap of 10 with 4 spent stopped with credits unused, and --resume
 * then spent them. Both engines, the built binary, an independent charging server that grants a
 * quota (so the batch starts every request at once, and they are paced out one by one).
 */
import { describe, expect, it } from 'vitest';
import { startChargingServer } from '../helpers/charging-server.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { machineEnv, spawnGeo } from '../helpers/run-cli.js';
import { photosFrom } from '../batch/helpers.js';

const db = postgresPerFile();


const engines = [
  { name: 'the local file', store: (): Promise<Record<string, string>> => Promise.resolve({}), admin: (): Record<string, string> => ({}) },
  {
    name: 'a team store on PostgreSQL',
    store: async (): Promise<Record<string, string> | undefined> => {
      if (!db.pg) return undefined;
      await freshStore(db.pg);
      return { GEO_STORE_URL: db.pg.analystUrl };
    },
    // The cap is the admin's to set (an analyst's role is refused).
    admin: (): Record<string, string> => ({ GEO_STORE_URL: db.pg!.adminUrl }),
  },
];

describe.each(engines)('a budget met with requests in flight, on $name', ({ store, admin }) => {
  it('a cap of 10 with 4 spent: the batch spends the 6 left before it stops (exit 4), and --resume then has nothing to spend', async (t) => {
    const storeEnv = await store();
    if (!storeEnv) return t.skip(db.skip);
    const server = await startChargingServer({ delayMs: 400, quota: 120 });
    const env = { ...machineEnv(), GEO_API_KEY: 'orca_test_budget', GEO_BASE_URL: server.url, ...storeEnv };
    const budget = async () => (JSON.parse((await spawnGeo(['store', 'budget', 'show', '--json'], { env })).stdout) as { budget: { spent: number; reserved: number } }).budget;
    try {
      expect((await spawnGeo(['store', 'budget', 'set', '10', '--per', 'month'], { env: { ...env, ...admin() } })).code).toBe(0);
      expect((await spawnGeo(['locate', photosFrom(env.HOME, 0, 4), '--json', '--yes'], { env })).code).toBe(0);
      expect(await budget()).toMatchObject({ spent: 4, reserved: 0 });

      const run = await spawnGeo(['locate', photosFrom(env.HOME, 100, 12), '--json', '--yes'], { env });
      expect(run.code, run.stderr).toBe(4);
      expect(run.stderr).toMatch(/budget of 10 credits per month .*has no room for 1 more: 10 spent, 0 held/s);
      const lines = run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { ok: boolean; error?: { code: string } });
      expect(lines.filter((l) => l.ok)).toHaveLength(6);
      expect(lines.filter((l) => l.error?.code === 'not_sent')).toHaveLength(6);
      expect(server.credits()).toBe(10);
      expect(await budget()).toMatchObject({ spent: 10, reserved: 0 });

      const resume = /--resume ([0-9a-f]+)/.exec(run.stderr)?.[1];
      expect(resume, run.stderr).toBeDefined();
      const again = await spawnGeo(['locate', '--resume', resume!, '--json', '--yes'], { env });
      expect(again.code, again.stderr).toBe(4);
      expect(server.credits()).toBe(10);
    } finally {
      await server.close();
    }
  }, 90_000);
});
