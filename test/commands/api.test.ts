/**
 * geo api against a real sandbox (issue 15 "Must show"): GET credits, POST cases with -f, POST
 * geolocate with --input whose first attempt is lost (one Idempotency-Key on every attempt, one
 * debit), -i, 4xx exit codes with the body printed, an absolute URL to another host refused with
 * nothing sent, and the key in no output. Retries wait on an instant clock, never a real one.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditsSchema, DEPTH_COST } from '../../src/api/schemas.js';
import { FIXTURES, KEYS, type TestSandbox, startTestSandbox, withSandbox } from '../helpers/sandbox.js';
import { type RunOptions, runCli, tempConfigDir } from '../helpers/run-cli.js';
import { seedFaultingFirst } from '../reliability/helpers.js';
import { type FakeApi, startFakeApi } from '../tolerant/fake-server.js';

const sb = withSandbox();
const instant = async () => {};

const geo = (argv: string[], opts: RunOptions & { key?: string; url?: string } = {}) =>
  runCli(argv, { sleep: instant, ...opts, env: { GEO_BASE_URL: opts.url ?? sb.url, GEO_API_KEY: opts.key ?? KEYS.pro, CI: undefined, ...opts.env } });

const pro = () => sb.ledger().keys[KEYS.pro]!;

/** A geolocate request body for fixtures/images/paris.jpg, written to a file for --input. */
function geolocateBody(depth: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'geo-api-')), 'request.json');
  writeFileSync(file, JSON.stringify({ image_b64: readFileSync(join(FIXTURES, 'paris.jpg')).toString('base64'), depth }));
  return file;
}

describe('geo api: reads', () => {
  it('GET credits prints the body exactly as received and exits 0', async () => {
    const r = await geo(['api', '/api/v1/credits']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(CreditsSchema.parse(JSON.parse(r.stdout)).data.api_balance).toBe(pro().api_balance);
    // The shorthand and the path without its slash reach the same endpoint.
    for (const path of ['api/v1/credits', 'credits', `${sb.url}/api/v1/credits`]) expect((await geo(['api', path])).stdout).toBe(r.stdout);
  });

  it('-F on a GET becomes the query string (seen in the --debug log)', async () => {
    const r = await geo(['api', 'analyses', '-X', 'GET', '-F', 'limit=5', '-f', 'q=Paris 16', '--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/> GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/analyses\?q=Paris\+16&limit=5 attempt 1/);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true });
  });

  it('a GET is retried like every read: a 503 on each attempt is sent 1 + 3 times, then exit 6 with the body', async () => {
    const before = pro().requests;
    const r = await geo(['api', 'credits', '-H', 'Sandbox-Fault: 503']);
    expect(r.code).toBe(6);
    expect(pro().requests - before).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: false, status: 503 });
    expect(r.stderr).toMatch(/^error: .*\(503\).* — hint: /m);
  });
});

describe('geo api: POST', () => {
  it('-f fields form the JSON body of POST /cases (POST is the default with fields)', async () => {
    const before = pro().requests;
    const r = await geo(['api', '/api/v1/cases', '-f', 'name=Harbour fire', '-f', 'description=Port footage']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'Harbour fire', description: 'Port footage' });
    expect(pro().requests - before).toBe(1);
  });

  it('-F key=@file sends the file\'s text; --input - sends stdin as the body', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'geo-api-')), 'desc.txt');
    writeFileSync(file, 'from a file');
    const f = await geo(['api', 'cases', '-f', 'name=With file', '-F', `description=@${file}`]);
    expect(JSON.parse(f.stdout)).toMatchObject({ name: 'With file', description: 'from a file' });
    const s = await geo(['api', 'cases', '--input', '-'], { stdin: '{"name":"From stdin"}' });
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ name: 'From stdin' });
  });

  it('a POST other than geolocate is not resent after a 500: one request, exit 6', async () => {
    const before = pro().requests;
    const r = await geo(['api', 'cases', '-f', 'name=Once', '-H', 'Sandbox-Fault: 500']);
    expect(r.code).toBe(6);
    expect(pro().requests - before).toBe(1);
  });
});

describe('geo api: POST geolocate --input', () => {
  let faulty: TestSandbox;
  // The first geolocate is analysed and debited, then its connection is dropped (reset-after):
  // only the retry, under the same key, can bring the paid answer back.
  beforeAll(async () => {
    faulty = await startTestSandbox({ faults: 'reset-after:0.5', seed: seedFaultingFirst(1, 0.5) });
  });
  afterAll(() => faulty.close());

  it('every attempt carries one Idempotency-Key; the retry replays the paid answer; one debit', async () => {
    const r = await geo(['api', '/api/v1/geolocate', '--input', geolocateBody(2), '-i'], { url: faulty.url });
    expect(r.code).toBe(0);
    const key = /Idempotency-Key (\S+)/.exec(r.stderr)?.[1];
    expect(r.stderr).toBe(`geolocate (depth 2): up to ${DEPTH_COST[2]} credits · Idempotency-Key ${key}\n`);
    const ledger = faulty.ledger().keys[KEYS.pro]!;
    expect(Object.keys(ledger.idempotency)).toEqual([key]);
    expect(ledger.idempotency[key!]).toEqual({ requests: 2, state: 'completed' });
    expect(ledger.entries.filter((e) => e.kind === 'debit').map((e) => [e.idempotency_key, e.amount])).toEqual([[key, DEPTH_COST[2]]]);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\n[^]*\nidempotent-replayed: true\n/);
    const body = JSON.parse(r.stdout.slice(r.stdout.indexOf('\n\n') + 2)) as { location: { latitude: number } };
    expect(body.location.latitude).toBeCloseTo(48.858, 2);
  });

  it('a key given with -H is the one sent (and a rerun with it replays free)', async () => {
    const file = geolocateBody(1);
    for (let i = 0; i < 2; i++) {
      const r = await geo(['api', 'geolocate', '--input', file, '-H', 'Idempotency-Key: mine-1']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(`geolocate (depth 1): up to ${DEPTH_COST[1]} credits · Idempotency-Key mine-1\n`);
    }
    const ledger = pro();
    expect(ledger.idempotency['mine-1']).toEqual({ requests: 2, state: 'completed' });
    expect(ledger.entries.filter((e) => e.idempotency_key === 'mine-1' && e.kind === 'debit')).toHaveLength(1);
  });

  it('no answer after every retry: exit 6, the hint names the key, and that key gets the paid answer without a second debit', async () => {
    const file = geolocateBody(2);
    const lost = await geo(['api', 'geolocate', '--input', file, '-H', 'Sandbox-Fault: reset-after']);
    expect(lost.code).toBe(6);
    expect(lost.stdout).toBe('');
    const key = /Idempotency-Key (\S+)/.exec(lost.stderr)?.[1];
    expect(lost.stderr).toMatch(new RegExp(`— hint: the analysis may have run: send the same body again with -H 'Idempotency-Key: ${key}'`));
    expect(pro().idempotency[key!]).toEqual({ requests: 4, state: 'completed' }); // 1 + the 3 retries a reset gets
    const debits = () => pro().entries.filter((e) => e.idempotency_key === key && e.kind === 'debit').length;
    expect(debits()).toBe(1);
    const again = await geo(['api', 'geolocate', '--input', file, '-H', `Idempotency-Key: ${key}`, '-i']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/\nidempotent-replayed: true\n/);
    expect(debits()).toBe(1);
  });

  it('above the confirm threshold with nothing to ask: exit 2, nothing sent; --yes sends it', async () => {
    const config = tempConfigDir();
    expect((await geo(['config', 'set', 'confirm_threshold', '5'], { env: { GEO_CONFIG_DIR: config } })).code).toBe(0);
    const before = JSON.stringify(sb.ledger());
    const r = await geo(['api', 'geolocate', '--input', geolocateBody(3)], { env: { GEO_CONFIG_DIR: config } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: this geolocate spends up to 10 credits, above the confirm threshold of 5, .*nothing was sent — hint: pass --yes\n$/);
    expect(JSON.stringify(sb.ledger())).toBe(before);
    expect((await geo(['api', 'geolocate', '--input', geolocateBody(3), '--yes'], { env: { GEO_CONFIG_DIR: config } })).code).toBe(0);
  });
});

describe('geo api: -i, errors and exit codes', () => {
  it('-i prints the status line and the response headers, then a blank line and the body; no request header', async () => {
    const r = await geo(['api', '-i', 'credits']);
    expect(r.code).toBe(0);
    const [head, body] = [r.stdout.slice(0, r.stdout.indexOf('\n\n')), r.stdout.slice(r.stdout.indexOf('\n\n') + 2)];
    expect(head.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/\ncontent-type: application\/json/);
    expect(head).toMatch(/\nratelimit-remaining: \d+/);
    expect(head).not.toMatch(/authorization|user-agent/i);
    expect(JSON.parse(body)).toMatchObject({ success: true });
    // --silent keeps the head, drops the body.
    const s = await geo(['api', '-i', '--silent', 'credits']);
    expect(s.stdout).toMatch(/^HTTP\/1\.1 200 OK\n[^]*\n\n$/);
  });

  it.each([
    ['404 unknown path -> exit 2', ['api', '/api/v1/nope'], KEYS.pro, 404, 'not_found', 2],
    ['401 invalid key -> exit 3', ['api', 'credits'], 'orca_sandbox_nosuchkey', 401, 'unauthorized', 3],
    ['402 cases on a plan without them -> exit 4', ['api', 'cases', '-f', 'name=x'], KEYS.free, 402, 'payment_required', 4],
    ['405 wrong method -> exit 2', ['api', 'credits', '-X', 'DELETE'], KEYS.pro, 405, 'method_not_allowed', 2],
  ])('%s: the error body on stdout, one error line on stderr', async (_name, argv, key, status, code, exit) => {
    const r = await geo(argv, { key });
    expect(r.code).toBe(exit);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: false, code, status });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`^error: .*\\(${status}.* — hint: `));
  });

  it('the key appears in no output, -i and --debug included', async () => {
    const r = await geo(['api', '-i', '--debug', 'credits', '-H', 'Accept: application/json']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEYS.pro);
  });
});

describe('geo api: refusals (exit 2, nothing sent)', () => {
  let other: FakeApi;
  beforeAll(async () => {
    other = await startFakeApi();
  });
  afterAll(() => other.close());

  it('an absolute URL to another origin: refused with a hint, the other server never hears of it', async () => {
    const before = JSON.stringify(sb.ledger());
    for (const url of [`${other.url}/api/v1/credits`, `//${other.url.slice(7)}/api/v1/credits`]) {
      const r = await geo(['api', url]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: .* — hint: the key never leaves its origin/);
    }
    expect(other.count('credits')).toBe(0);
    expect(JSON.stringify(sb.ledger())).toBe(before);
  });

  it('a path that climbs out of a base URL with a path prefix', async () => {
    const r = await geo(['api', 'api/../../elsewhere'], { url: `${other.url}/prefix` });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: the path "api\/\.\.\/\.\.\/elsewhere" leaves the base URL .* — hint: the key never leaves its origin/);
  });

  it.each([
    ['a key in -H Authorization', ['api', 'credits', '-H', 'Authorization: Bearer orca_live_x'], /sends the key of the profile itself/],
    ['a key in -H x-api-key', ['api', 'credits', '-H', 'X-Api-Key: orca_live_x'], /sends the key of the profile itself/],
    ['a malformed field', ['api', 'cases', '-f', 'name'], /-f takes key=value/],
    ['--input with GET', ['api', 'cases', '-X', 'GET', '--input', '-'], /--input sends a body, which GET does not take/],
  ])('%s', async (_name, argv, message) => {
    const before = JSON.stringify(sb.ledger());
    const r = await geo(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/ — hint: /);
    expect(JSON.stringify(sb.ledger())).toBe(before);
  });
});
