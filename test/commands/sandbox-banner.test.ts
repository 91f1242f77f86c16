/**
 * The sandbox banner follows the sandbox's own header, never the base URL (issue 11, "The sandbox
 * says it is the sandbox"): a loopback server may be a proxy or tunnel to the paid service, and
 * there "no real money" would be a lie.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_HEADER } from '../../src/api/routes.js';
import { FIXTURES } from '../batch/helpers.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
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
