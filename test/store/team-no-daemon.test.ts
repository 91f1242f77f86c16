/**
 * No process of geo's outlives a command on a team store: geo history, store status, doctor,
 * locate, and a batch killed with SIGKILL mid-request each run as a session leader while the test
 * walks /proc by parent pid, session and process group (test/helpers/processes.ts); afterwards
 * nothing they started is alive. A control first: a program that starts a detached child and
 * leaves (as a background keeper of connections would) is caught by the same walk. And the server
 * holds no connection of geo's once each command ended (pg_stat_activity).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChargingServer } from '../helpers/charging-server.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { HAS_PROC, type Watched, watchProcesses } from '../helpers/processes.js';
import { GEO_BIN, binEnv, machineEnv } from '../helpers/run-cli.js';
import { distinctJpeg } from '../batch/helpers.js';

const db = postgresPerFile();

const said = (w: Watched) => w.leftBehind.map((p) => `${p.pid} ${p.cmd}`).join('\n');
const geoConnections = () => db.pg!.sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'geo-cli'").trim();

describe.runIf(HAS_PROC)('no process of geo outlives a team-store command', () => {
  it('control: a program that starts a detached child and exits is caught leaving it behind', async () => {
    const script = "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { detached: true, stdio: 'ignore' }); c.unref(); setTimeout(() => {}, 200);";
    const w = await watchProcesses([process.execPath, '-e', script], binEnv());
    try {
      expect(w.run.code).toBe(0);
      expect(w.leftBehind).toHaveLength(1);
      expect(w.leftBehind[0]!.cmd).toContain('setTimeout');
    } finally {
      for (const p of w.leftBehind) process.kill(p.pid, 'SIGKILL');
    }
  });

  it('geo history, history --search, store status, doctor and locate: each leaves no process and no server connection behind', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const env = binEnv({ ...machineEnv(), GEO_STORE_URL: db.pg.analystUrl });
    const commands = [['--sandbox', 'locate', 'sample:paris', 'sample:tokyo', '--yes'], ['history'], ['history', '--search', 'paris'], ['store', 'status'], ['doctor'], ['doctor', '--online']];
    for (const argv of commands) {
      const w = await watchProcesses([process.execPath, GEO_BIN, ...argv], { ...env, GEO_BASE_URL: argv[0] === 'doctor' ? 'http://127.0.0.1:1' : undefined });
      expect(w.run.code === 0 || argv[0] === 'doctor', `geo ${argv.join(' ')}: ${w.run.stderr}`).toBe(true);
      expect(said(w), `geo ${argv.join(' ')} left these running`).toBe('');
      expect(geoConnections(), `geo ${argv.join(' ')} left a connection open`).toBe('0');
    }
    expect(db.pg.sql('SELECT count(*) FROM results').trim()).toBe('2');
  }, 120_000);

  it('geo locate killed with SIGKILL while its requests are in flight: nothing it started runs on, and the server ends its connection', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const server = await startChargingServer({ delayMs: 3000, quota: 60 });
    const home = machineEnv();
    const dir = join(home.HOME, 'photos');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 4; i++) writeFileSync(join(dir, `img${i}.jpg`), distinctJpeg(500 + i));
    try {
      const env = binEnv({ ...home, GEO_STORE_URL: db.pg.analystUrl, GEO_API_KEY: 'orca_test_nodaemon', GEO_BASE_URL: server.url });
      const w = await watchProcesses([process.execPath, GEO_BIN, 'locate', dir, '--json', '--yes'], env, (child) => {
        server.onStart = () => child.kill('SIGKILL');
      });
      expect(w.run.code).toBe(-1);
      expect(said(w)).toBe('');
      // The server notices the dropped connection and ends its backend (and rolls back what it held).
      for (let i = 0; i < 50 && geoConnections() !== '0'; i++) await new Promise((r) => setTimeout(r, 100));
      expect(geoConnections()).toBe('0');
    } finally {
      server.onStart = undefined;
      await server.close();
    }
  }, 60_000);
});
