/**
 * Issue 19, point 3: "a paid answer is committed before it is shown, and shown even when it cannot
 * be committed". The data folder is a 2 MB tmpfs of its own (a private mount namespace:
 * `unshare -rm`, no root needed), and the disk fills up while the request is at the server: the
 * independent server, on receiving it, has a filler inside the namespace fill the tmpfs, and
 * answers once it is full. geo prints the paid answer, says it could not be stored, what it cost and
 * which key replays it free (exit 1, never "not sent"); that key, sent again, is replayed free.
 *
 * Issue 30: a disk that is all but full before geo starts (16 KB left: SQLite's shared-memory file
 * cannot grow, SQLITE_IOERR_SHMSIZE) says "the disk is full", not "disk I/O error"; so does a
 * --report that does not fit, which leaves no temporary file behind.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { GEO_BIN, binEnv, finished, spawnGeo, tempConfigDir } from '../helpers/run-cli.js';

const IMG = new URL('../../fixtures/images/paris.jpg', import.meta.url).pathname;
const probe = spawnSync('unshare', ['-rm', 'sh', '-c', `d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"`], { encoding: 'utf8' });
const CAN_MOUNT = probe.status === 0;
const WHY = CAN_MOUNT ? '' : ` (skipped: this machine cannot mount a tmpfs in a user namespace: ${(probe.stderr || probe.error?.message || 'unshare failed').trim()})`;

let server: ChargingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a disk that fills up while the request is at the server', () => {
  it.runIf(CAN_MOUNT)(`the paid answer is printed, the error says it was not stored, its cost and the key that replays it free; exit 1${WHY}`, async () => {
    server = await startChargingServer({ delayMs: 200 });
    const s = server;
    const work = mkdtempSync(join(tmpdir(), 'geo-full-'));
    const data = join(work, 'data');
    const trigger = join(work, 'fill-now');
    const filled = join(work, 'filled');
    s.onStart = () => writeFileSync(trigger, '');
    s.beforeComplete = async () => {
      for (let i = 0; i < 500 && !existsSync(filled); i++) await new Promise((r) => setTimeout(r, 20));
    };
    const script = [
      'set -e', `mkdir -p "${data}"`, `mount -t tmpfs -o size=2m tmpfs "${data}"`,
      // The filler: once the request is at the server, fill the tmpfs to the last byte.
      `( while [ ! -e "${trigger}" ]; do sleep 0.02; done; head -c 10000000 /dev/zero > "${data}/filler" 2>/dev/null || true; touch "${filled}" ) &`,
      `"${process.execPath}" "${GEO_BIN}" locate "${IMG}" --json`,
    ].join('\n');
    const env = binEnv({ GEO_API_KEY: 'orca_test_full', GEO_BASE_URL: s.url, GEO_DATA_DIR: data, GEO_STATE_DIR: tempConfigDir() });
    const r = await finished(spawn('unshare', ['-rm', 'sh', '-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    console.log(`[disk full] exit ${r.code}; stderr:\n${r.stderr}`);
    expect(s.charges()).toBe(1);
    // Shown: the body exactly as received.
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, analysis_id: 'an_charge_1' });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/not sent/);
    const m = /paris\.jpg: the answer above was shown but NOT stored \(cannot write .*geo\.db: the disk is full\)\. It cost 1 credit\. Its idempotency key replays it free: geo locate \S+ --idempotency-key (geo-[0-9a-f-]{36})/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    // That key, from a store with room, is replayed by the service: nothing paid twice.
    const again = await spawnGeo(['locate', IMG, '--json', '--idempotency-key', m![1]!], { env: { GEO_API_KEY: 'orca_test_full', GEO_BASE_URL: s.url, GEO_DATA_DIR: tempConfigDir() } });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).analysis_id).toBe('an_charge_1');
    expect(again.stderr).toContain('replayed');
    expect(s.charges()).toBe(1);
  }, 30_000);
});

/** A shell script, in its own mount namespace, that mounts a 2 MB tmpfs at `dir` and leaves `freeKb` of it free. */
const almostFull = (dir: string, freeKb: number) => [
  'set -e', `mkdir -p "${dir}"`, `mount -t tmpfs -o size=2m tmpfs "${dir}"`,
  `head -c 10000000 /dev/zero > "${dir}/filler" 2>/dev/null || true`,
  `rm "${dir}/filler"`, `head -c $((2048 * 1024 - ${freeKb} * 1024)) /dev/zero > "${dir}/filler" 2>/dev/null || true`,
];

describe('a disk that is full before geo starts (issue 30)', () => {
  it.runIf(CAN_MOUNT)(`16 KB left in the data folder: "the disk is full", not "disk I/O error"; exit 1, nothing charged${WHY}`, async () => {
    server = await startChargingServer({});
    const data = join(mkdtempSync(join(tmpdir(), 'geo-full-')), 'data');
    const script = [...almostFull(data, 16), `"${process.execPath}" "${GEO_BIN}" locate "${IMG}" --json`].join('\n');
    const env = binEnv({ GEO_API_KEY: 'orca_test_full', GEO_BASE_URL: server.url, GEO_DATA_DIR: data });
    const r = await finished(spawn('unshare', ['-rm', 'sh', '-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(r.stderr).not.toMatch(/I\/O error/);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([expect.stringMatching(/^error: cannot write \S+geo\.db: the disk is full — hint: free some space/)]);
    expect(r.code).toBe(1);
    expect(server.charges()).toBe(0);
  }, 30_000);

  it.runIf(CAN_MOUNT)(`a --report that does not fit: "the disk is full", no temporary file left; the answer stored elsewhere is kept${WHY}`, async () => {
    server = await startChargingServer({});
    const work = mkdtempSync(join(tmpdir(), 'geo-full-'));
    const out = join(work, 'out');
    const script = [...almostFull(out, 8), `"${process.execPath}" "${GEO_BIN}" locate "${IMG}" --json --report "${out}/report.html" || true`, `ls -A "${out}"`].join('\n');
    const env = binEnv({ GEO_API_KEY: 'orca_test_full', GEO_BASE_URL: server.url, GEO_DATA_DIR: join(work, 'data') });
    const r = await finished(spawn('unshare', ['-rm', 'sh', '-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([expect.stringMatching(/^error: cannot write \S+report\.html: the disk is full — hint: free some space/)]);
    // stdout: the answer, then what `ls -A` found in the folder: the filler only.
    expect(r.stdout.trim().split('\n').at(-1)).toBe('filler');
    expect(readdirSync(join(work, 'data'))).toContain('geo.db');
    expect(server.charges()).toBe(1);
  }, 30_000);
});
