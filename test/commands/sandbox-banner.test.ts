/**
 * The sandbox banner follows the sandbox's own header, never the base URL (issue 11, "The sandbox
 * says it is the sandbox"): a loopback server may be a proxy or tunnel to the paid service, and
 * there "no real money" would be a lie.
 */
import { createServer } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_HEADER } from '../../src/api/routes.js';
import { OFFLINE } from '../../src/commands/types.js';
import { type Runtime, createContext } from '../../src/context.js';
import { FIXTURES } from '../batch/helpers.js';
import { machineEnv, runCli, spawnGeo, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const BANNER = 'sandbox: simulated results, sandbox credits, no real money';

/** A loopback stand-in for a tunnel to the real service: a valid depth-1 answer, no sandbox header. */
const RESULT = {
  success: true, analysis_id: 'an_tunnel', confidence: 0.4, reasoning: 'a real answer', model: 'orca-1.5', depth: 1, timing_ms: 12,
  location: { latitude: 48.85, longitude: 2.29, country: 'France', city: 'Paris', neighborhood: 'Gros-Caillou', address: 'Champ de Mars' },
};
let tunnel: { url: string; close: () => void };
beforeAll(async () => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(RESULT));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  tunnel = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
});
afterAll(() => tunnel.close());

const env = (baseUrl: string) => ({ GEO_BASE_URL: baseUrl, GEO_API_KEY: KEYS.pro, GEO_STATE_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir() });

describe('the sandbox banner', () => {
  it('the sandbox marks every answer with its header: success, error, docs, 404 and 405', async () => {
    const answers = await Promise.all([
      fetch(`${sb.url}/api/v1/credits`, { headers: { authorization: `Bearer ${KEYS.pro}` } }),
      fetch(`${sb.url}/api/v1/credits`),
      fetch(`${sb.url}/api/v1/docs`),
      fetch(`${sb.url}/api/v1/nowhere`),
      fetch(`${sb.url}/api/v1/geolocate`),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 401, 200, 404, 405]);
    for (const a of answers) expect(a.headers.get(SANDBOX_HEADER)).toBe('simulated; credits=sandbox');
  });

  it('an answer from the sandbox prints the banner once', async () => {
    const r = await runCli(['locate', `${FIXTURES}/paris.jpg`, '--json'], { env: env(sb.url) });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('sandbox:'))).toEqual([BANNER]);
  });

  it('a loopback server without the header (a proxy or tunnel to the paid service) gets no banner', async () => {
    const r = await runCli(['locate', `${FIXTURES}/paris.jpg`, '--json'], { env: env(tunnel.url) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(RESULT);
    expect(r.stderr).not.toContain('sandbox');
  });
});

describe('--sandbox on a command that sends nothing', () => {
  const FRESH = 'sandbox: simulated, no real money; a fresh one for this command alone';

  it('history, history show, inspect, cases show and keys signing list start no sandbox and print no banner; locate still does', async () => {
    const env = machineEnv();
    const located = await spawnGeo(['--sandbox', 'locate', `${FIXTURES}/paris.jpg`, '--json'], { env });
    expect(located.code, located.stderr).toBe(0);
    expect(located.stderr).toContain(FRESH);
    const id = (JSON.parse(located.stdout) as { analysis_id: string }).analysis_id;
    const made = await spawnGeo(['cases', 'create', '--name', 'Offline', '--local'], { env });
    expect(made.code, made.stderr).toBe(0);
    for (const argv of [['history'], ['history', 'show', id], ['inspect', `${FIXTURES}/paris.jpg`], ['cases', 'show', 'Offline'], ['keys', 'signing', 'list']]) {
      const r = await spawnGeo(['--sandbox', ...argv], { env });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr, argv.join(' ')).not.toContain(FRESH);
    }
    expect((await spawnGeo(['--sandbox', 'history'], { env })).stdout).toContain(id);
  }, 60_000);

  it('in-process: an offline command\'s context under --sandbox starts no sandbox and never reads the user\'s key', async () => {
    const stderr = new PassThrough();
    let said = '';
    stderr.on('data', (c: Buffer) => (said += c.toString()));
    const io = { stdin: Readable.from([]), stdout: new PassThrough(), stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, colorOut: false, colorErr: false, columns: 80 };
    const rt = {
      io, env: { GEO_CONFIG_DIR: tempConfigDir(), GEO_API_KEY: 'orca_live_the_users_own_key' }, now: Date.now, sleep: async () => {}, signal: new AbortController().signal, version: 'test',
      probe: {} as Runtime['probe'], outputClosed: new AbortController().signal, keepRunningOnClosedOutput: () => () => {}, execPath: process.execPath,
    } satisfies Runtime;
    const offline = await createContext(rt, { sandbox: true }, OFFLINE);
    expect(() => offline.resolved()).toThrow(/declared offline asked for the service under --sandbox/);
    expect(() => offline.client()).toThrow(/declared offline/);
    expect(offline.serviceId()).toBe('geo-sandbox:');
    await offline.cleanup();
    expect(said).toBe('');
    const online = await createContext(rt, { sandbox: true });
    expect(online.resolved()).toMatchObject({ key: { value: 'orca_sandbox_pro' }, baseUrl: { source: 'sandbox' } });
    await online.cleanup();
    expect(said).toBe(`${FRESH}\n`);
  });

  it('--dry-run: with nothing to send it names no balance; with something to send it reads the sandbox\'s', async () => {
    const env = machineEnv();
    expect((await spawnGeo(['--sandbox', 'locate', `${FIXTURES}/paris.jpg`], { env })).code).toBe(0);
    const stored = await spawnGeo(['--sandbox', 'locate', `${FIXTURES}/paris.jpg`, '--dry-run'], { env });
    expect(stored.code, stored.stderr).toBe(0);
    expect(stored.stdout).toMatch(/^plan: 1 input, 1 already in your results · 0 to send × depth 1 \(1 credit\) = up to 0 credits\n/);
    expect(stored.stdout + stored.stderr).not.toContain('balance unknown');
    const two = await spawnGeo(['--sandbox', 'locate', `${FIXTURES}/paris.jpg`, `${FIXTURES}/tokyo.jpg`, '--dry-run'], { env });
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).toMatch(/^plan: 2 inputs, 1 already in your results · 1 to send × depth 1 \(1 credit\) = up to 1 credit · balance \d+\n/);
  }, 60_000);
});
