/**
 * A store budget holds per idempotency key (batch/team-budget.ts): a process killed after the
 * service took its request leaves the key reserved, the service charges it anyway, and the rerun
 * that resends the key gets the answer replayed free. That replay costs this run nothing, but the
 * key was charged once: the budget settles it at that charge, never lets it go. Letting it go made
 * the team race (team-race.test.ts) spend 10 credits under a cap of 7 in CI. Both engines, the
 * built binary, an independent charging server.
 *
 * A run that meets the cap stops, and a stopped run stops waiting too: one of its images held by
 * another live process (which may hold it for minutes) is listed as not sent instead of waited for.
 * Two such runs, each holding what the other waits for, kept each other alive until CI's timeout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChargingServer } from '../helpers/charging-server.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { GEO_BIN, binEnv, finished, machineEnv, spawnGeo } from '../helpers/run-cli.js';
import { photosFrom } from '../batch/helpers.js';

const db = postgresPerFile();


/** A machine of its own on `storeEnv`'s store, against a charging server answering after `delayMs`. */
async function machine(storeEnv: Record<string, string>, delayMs: number) {
  const server = await startChargingServer({ delayMs });
  const env = { ...machineEnv(), GEO_API_KEY: 'orca_test_budget', GEO_BASE_URL: server.url, ...storeEnv };
  return { home: env.HOME, server, env };
}

/** The budget is the admin's: on the team store it is set with the admin's role. */
const asAdmin = (env: Record<string, string>) => (env.GEO_STORE_URL && db.pg ? { ...env, GEO_STORE_URL: db.pg.adminUrl } : env);

const engines = [
  { name: 'the local file', store: (): Promise<Record<string, string>> => Promise.resolve({}) },
  {
    name: 'a team store on PostgreSQL',
    store: async (): Promise<Record<string, string> | undefined> => {
      if (!db.pg) return undefined;
      await freshStore(db.pg!);
      return { GEO_STORE_URL: db.pg.analystUrl };
    },
  },
];

describe.each(engines)('a budget on $name', ({ store }) => {
  it('a key charged by a process killed in flight and replayed to the rerun stays spent: the next image meets the cap (exit 4), the service charged no more than it', async (t) => {
    const storeEnv = await store();
    if (!storeEnv) return t.skip(db.skip);
    const { home, server, env } = await machine(storeEnv, 600);
    try {
      expect((await spawnGeo(['store', 'budget', 'set', '2', '--per', 'month'], { env: asAdmin(env) })).code).toBe(0);
      const first = photosFrom(home, 0, 1);
      // Killed the moment the service has its request: the key stays reserved, the service charges it.
      const child: ChildProcess = spawn(process.execPath, [GEO_BIN, 'locate', first, '--json', '--yes'], { env: binEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
      server.onStart = () => child.kill('SIGKILL');
      expect((await finished(child)).code).toBe(-1);
      server.onStart = undefined;
      while (server.charges() < 1) await new Promise((r) => setTimeout(r, 50));

      const rerun = await spawnGeo(['locate', first, '--json', '--yes'], { env });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(server.charges()).toBe(1);
      const shown = JSON.parse((await spawnGeo(['store', 'budget', 'show', '--json'], { env })).stdout) as { budget: { spent: number; reserved: number } };
      expect({ spent: shown.budget.spent, reserved: shown.budget.reserved }).toEqual({ spent: 1, reserved: 0 });

      const more = await spawnGeo(['locate', photosFrom(home, 1, 3), '--json', '--yes', '--concurrency', '1'], { env });
      expect(more.code, more.stderr).toBe(4);
      expect(more.stderr).toMatch(/budget of 2 credits per month .*has no room for 1 more: 2 spent/s);
      expect(server.credits()).toBe(2);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('geo api POST /geolocate holds against the same budget: sent and settled at its depth, and a body that does not fit is refused before sending (exit 4)', async (t) => {
    const storeEnv = await store();
    if (!storeEnv) return t.skip(db.skip);
    const { home, server, env } = await machine(storeEnv, 50);
    const body = (i: number, depth: number) => {
      const file = join(home, `body${i}.json`);
      writeFileSync(file, JSON.stringify({ image_b64: readFileSync(join(photosFrom(home, i, 1), `img${i}.jpg`)).toString('base64'), depth }));
      return file;
    };
    try {
      expect((await spawnGeo(['store', 'budget', 'set', '3', '--per', 'month'], { env: asAdmin(env) })).code).toBe(0);
      const paid = await spawnGeo(['api', 'geolocate', '--input', body(0, 2), '--yes'], { env });
      expect(paid.code, paid.stderr).toBe(0);
      const again = await spawnGeo(['api', 'geolocate', '--input', body(0, 2), '--yes'], { env });
      expect(again.code, again.stderr).toBe(0);
      const shown = JSON.parse((await spawnGeo(['store', 'budget', 'show', '--json'], { env })).stdout) as { budget: { spent: number; reserved: number } };
      expect({ spent: shown.budget.spent, reserved: shown.budget.reserved }).toEqual({ spent: 2, reserved: 0 });
      const refused = await spawnGeo(['api', 'geolocate', '--input', body(1, 2), '--yes'], { env });
      expect(refused.code).toBe(4);
      expect(refused.stderr).toMatch(/budget of 3 credits per month .*has no room for 2 more: 2 spent.*nothing was sent/s);
      expect(server.charges()).toBe(1);
      expect(server.requests.size).toBe(1);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a run that meets the cap while another live process holds one of its images stops at once (exit 4): that image is listed as not sent, not waited for', async (t) => {
    const storeEnv = await store();
    if (!storeEnv) return t.skip(db.skip);
    const { home, server, env } = await machine(storeEnv, 50);
    let letGo = (): void => undefined;
    const held = new Promise<void>((r) => (letGo = r));
    const dir = photosFrom(home, 0, 2);
    const [a, b] = [join(dir, 'img0.jpg'), join(dir, 'img1.jpg')];
    try {
      expect((await spawnGeo(['store', 'budget', 'set', '1', '--per', 'month'], { env: asAdmin(env) })).code).toBe(0);
      // The holder sends b and the service keeps it (the only credit is reserved for it).
      let sent = (): void => undefined;
      const holderSent = new Promise<void>((r) => (sent = r));
      server.onStart = () => sent();
      server.beforeComplete = () => held;
      const holder = spawn(process.execPath, [GEO_BIN, 'locate', b, '--json', '--yes'], { env: binEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
      const holderDone = finished(holder);
      await holderSent;
      // Both images start at once: a meets the cap while b is waited for.
      const run = spawn(process.execPath, [GEO_BIN, 'locate', a, b, '--json', '--yes', '--concurrency', '2'], { env: binEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
      const timer = setTimeout(() => run.kill('SIGKILL'), 20_000);
      const r = await finished(run);
      clearTimeout(timer);
      expect(r.code, `still waiting after 20 s: ${r.stderr}`).toBe(4);
      const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { input: string; ok: boolean; error?: { code: string } });
      expect(lines.map((l) => [l.input, l.ok, l.error?.code])).toEqual([[a, false, 'not_sent'], [b, false, 'not_sent']]);
      expect(r.stderr).toMatch(/budget of 1 credits per month .*has no room for 1 more/s);
      letGo();
      expect((await holderDone).code).toBe(0);
      expect(server.charges()).toBe(1);
    } finally {
      letGo();
      await server.close();
    }
  }, 60_000);
});
