/**
 * Cases on a team store (issue 32, "Must show": two machines appending to one case at once, both
 * entries land, the chain verifies), as real processes of the built program against a real
 * PostgreSQL (test/helpers/postgres.ts; skipped with the reason where none starts) and the
 * independent charging server (test/helpers/charging-server.ts). Two "machines" (a HOME, config and
 * data folder each) share one team store; each has its own signing key, so the entries it appends
 * name it (the OS user and host are the same on one test host: the key's fingerprint tells them apart).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEntry } from '../../src/evidence/custody.js';
import { verifyChain } from '../../src/evidence/custody-verify.js';
import { FIXTURES, distinctJpeg } from '../batch/helpers.js';
import { startChargingServer } from '../helpers/charging-server.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { GEO_BIN, binEnv, finished, spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile();

const fresh = async () => {
  await freshStore(db.pg!);
};

interface Machine {
  name: string;
  home: string;
  env: Record<string, string>;
  /** The fingerprint of the signing key this machine chose (its entries name it). */
  key: string;
}

/** A machine: its own HOME, config, data and state folders, its own signing key, the team store. */
async function machine(name: string, baseUrl: string): Promise<Machine> {
  const home = mkdtempSync(join(tmpdir(), `geo-team-case-${name}-`));
  const env = {
    HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'),
    GEO_API_KEY: 'orca_test_team', GEO_BASE_URL: baseUrl, GEO_STORE_URL: db.pg!.analystUrl, CI: '1',
  };
  const keyFile = join(home, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `analyst@${name}`, '-f', keyFile]);
  const used = await spawnGeo(['keys', 'signing', 'use', keyFile], { env });
  expect(used.code, used.stderr).toBe(0);
  const key = execFileSync('ssh-keygen', ['-l', '-f', `${keyFile}.pub`]).toString().split(' ')[1]!;
  return { name, home, env, key };
}

/** `n` photos only this machine has (distinct bytes: each is its own paid request). */
function photosOn(m: Machine, n: number, offset: number): string {
  const dir = join(m.home, 'photos');
  mkdirSync(dir, { recursive: true });
  const base = readFileSync(join(FIXTURES, 'paris.jpg'));
  for (let i = 0; i < n; i++) writeFileSync(join(dir, `img${i}.jpg`), distinctJpeg(offset + i, base));
  return dir;
}

const geo = (m: Machine, argv: string[]) => spawnGeo(argv, { env: m.env });

describe('cases on a team store, from two machines', () => {
  it('geo cases create on machine 1 is listed and shown by geo cases list and show on machine 2', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await fresh();
    const [a, b] = [await machine('laptop-a', 'http://127.0.0.1:9'), await machine('laptop-b', 'http://127.0.0.1:9')] as [Machine, Machine];
    const made = await geo(a, ['cases', 'create', '--local', '--name', 'Harbour fire', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    const listed = await geo(b, ['cases', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('Harbour fire');
    const shown = await geo(b, ['cases', 'show', 'Harbour fire', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ custody: { entries: 1, verified: true } });
    // Nothing of it is on machine 2's own file: what it showed came from the team store.
    expect((await geo(b, ['--store', 'local', 'cases', 'list', '--json'])).stdout).not.toContain(id);
    // The case_created entry names machine 1's signing key.
    expect(parseEntry(db.pg.sql(`SELECT line FROM custody WHERE case_id = '${id}'`).trim())).toMatchObject({ seq: 1, event: 'case_created', key: a.key });
  }, 90_000);

  it('two machines run geo locate --case on one case at once: every entry lands, the chain is one line naming both analysts, it verifies from either machine, and the spend is by case', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await fresh();
    const server = await startChargingServer({ delayMs: 300, quota: 600 });
    try {
      const [a, b] = [await machine('laptop-a', server.url), await machine('laptop-b', server.url)] as [Machine, Machine];
      expect((await geo(a, ['store', 'budget', 'set', '1000', '--per', 'month', '--store', db.pg.adminUrl])).code).toBe(0);
      const made = await geo(a, ['cases', 'create', '--local', '--name', 'Harbour fire', '--json']);
      const id = (JSON.parse(made.stdout) as { id: string }).id;
      const n = 6;
      const run = (m: Machine, offset: number) => finished(spawn(process.execPath, [GEO_BIN, 'locate', photosOn(m, n, offset), '--case', id, '--json', '--yes'], { env: binEnv(m.env), stdio: ['ignore', 'pipe', 'pipe'] }));
      const [ra, rb] = await Promise.all([run(a, 0), run(b, 100)]);
      for (const r of [ra, rb]) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).not.toMatch(/custody: not appended/);
      }
      expect(server.charges()).toBe(2 * n);

      // One chain: every line in order, each entry once, the case row pinned to its count and head.
      const lines = db.pg.sql(`SELECT line FROM custody WHERE case_id = '${id}' ORDER BY seq`).trim().split('\n');
      const entries = lines.map(parseEntry);
      expect(verifyChain(lines, { caseId: id })).toMatchObject({ ok: true, entries: lines.length });
      // Each machine's answers are linked (result_linked), each entry naming the machine's key.
      for (const m of [a, b]) expect(entries.filter((e) => e.event === 'result_linked' && e.key === m.key)).toHaveLength(n);
      for (const e of entries) expect(e).toMatchObject({ user: expect.any(String), host: expect.any(String) });

      for (const m of [a, b]) {
        const shown = await geo(m, ['cases', 'show', id, '--json']);
        expect(shown.code, shown.stderr).toBe(0);
        expect(JSON.parse(shown.stdout)).toMatchObject({ results: expect.any(Array), custody: { entries: lines.length, verified: true } });
        expect((JSON.parse(shown.stdout) as { results: unknown[] }).results).toHaveLength(2 * n);
        const verified = await geo(m, ['cases', 'verify', id]);
        expect(verified.code, verified.stdout + verified.stderr).toBe(0);
      }

      // geo store budget show: the case's spend, all 2n requests, beside each analyst's.
      const budget = JSON.parse((await geo(b, ['store', 'budget', 'show', '--json'])).stdout) as { by_case: Array<{ who: string; credits: number; requests: number }> };
      expect(budget.by_case).toEqual([{ who: id, credits: 2 * n, requests: 2 * n }]);
    } finally {
      await server.close();
    }
  }, 180_000);
});
