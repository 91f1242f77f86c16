/**
 * Issue 30, section 4: keys never leave, in any spelling. An independent node:http server
 * (hostile-server.ts) echoes the caller's key in every field of every answer, spelt every way a
 * reader still recognises it (key-spellings.ts: upper case, split by zero-width and bidi characters,
 * percent-encoded, HTML entities, base64 in each alignment, reversed, JSON escapes). Then every byte
 * geo printed or wrote is searched for the key in each spelling: stdout, stderr (--debug included),
 * the SQLite file and its WAL read raw, the journal, the report, every export format, the case
 * bundle's members uncompressed, the MCP tools' results. None may hold it. The paid answer is kept
 * masked, and its record says so with both sha256s (as received, as kept); custody logs the kept
 * bytes, and the case and its bundle verify.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzip } from '../export/unzip.js';
import { callTool, startMcpServer } from '../helpers/mcp-client.js';
import { binEnv, runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';
import { custodyOf } from '../cases/helpers.js';
import { type RawServer, httpAnswer, rawServer } from '../tolerant/raw-server.js';
import { type Hostile, okBody, startHostile } from './hostile-server.js';
import { allSpellings, findKey, jsonEscaped, jsonSpelt, spellings } from './key-spellings.js';

const KEY = 'orca_live_Sp3lL~ngK3y9Q7wXz';
const PARIS = join(FIXTURES, 'paris.jpg');
const TOKYO = join(FIXTURES, 'tokyo.jpg');
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
/** The bytes the hostile server sends for a geolocate answer (it answers every image alike). */
const SENT = Buffer.from(jsonSpelt(KEY)(JSON.stringify(okBody('/api/v1/geolocate', 'POST', allSpellings(KEY)))), 'utf8');

let echo: Hostile;
beforeAll(async () => {
  // Every spelling in every string field; in JSON answers the upper-case one is written as JSON escapes.
  echo = await startHostile(allSpellings, { mangle: jsonSpelt(KEY) });
});
afterAll(async () => echo.close());

/** Every file under the folders, raw, by path; a ZIP's members are added uncompressed. */
function filesUnder(...dirs: string[]): Array<[string, Buffer]> {
  const out: Array<[string, Buffer]> = [];
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) return readdirSync(p).forEach((n) => walk(join(p, n)));
    const bytes = readFileSync(p);
    out.push([p, bytes]);
    if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) for (const m of unzip(bytes)) out.push([`${p}!${m.name}`, m.data]);
  };
  dirs.forEach(walk);
  return out;
}

function expectNowhere(seen: Array<[string, string | Buffer]>): void {
  expect(seen.length).toBeGreaterThan(0);
  for (const [where, data] of seen) expect(findKey(data, KEY), where).toBeUndefined();
}

describe('the detector the tests rely on (control)', () => {
  it('finds the key in every spelling, as sent and as JSON text; not a key one character off, not the mask', () => {
    for (const [name, s] of Object.entries(spellings(KEY))) {
      expect(s, name).not.toContain(KEY);
      expect(findKey(`say ${s} end`, KEY), name).toBeDefined();
      expect(findKey(JSON.stringify({ note: s }), KEY), `${name} in JSON`).toBeDefined();
    }
    expect(findKey(`{"note":"${jsonEscaped(KEY)}"}`, KEY)).toBeDefined();
    expect(SENT.toString()).toContain(jsonEscaped(KEY));
    expect(findKey(SENT, KEY)).toBeDefined();
    const other = KEY.replace('Q7w', 'Q8w');
    expect(findKey(allSpellings(other), KEY)).toBeUndefined();
    expect(findKey('[REDACTED] and orca_live_…7wXz', KEY)).toBeUndefined();
  });
});

describe('a key echoed in every spelling never leaves geo', () => {
  it('locate --case --report --journal, history, every export, cases show/bundle: nothing printed or written holds it; the record says masked with both sha256s; the case and its bundle verify', async () => {
    const data = tmp('geo-spell-data-');
    const state = tmp('geo-spell-state-');
    const config = tmp('geo-spell-config-');
    const out = tmp('geo-spell-out-');
    const env = { GEO_API_KEY: KEY, GEO_BASE_URL: echo.base('ok'), GEO_DATA_DIR: data, GEO_STATE_DIR: state, GEO_CONFIG_DIR: config, CI: undefined };
    const seen: Array<[string, string | Buffer]> = [];
    const run = async (argv: string[], code = 0) => {
      const r = await runCli(argv, { env, sleep: async () => {} });
      seen.push([`geo ${argv.join(' ')}: stdout`, r.stdoutBytes ?? r.stdout], [`geo ${argv.join(' ')}: stderr`, r.stderr]);
      expect(r.code, `geo ${argv.join(' ')}: ${r.stderr}`).toBe(code);
      return r;
    };

    await run(['cases', 'create', '--name', 'Echo', '--local']);
    const located = await run(['--debug', 'locate', PARIS, '--depth', '3', '--yes', '--json', '--case', 'Echo', '--report', join(out, 'r.html'), '--journal', join(out, 'j.ndjson')]);
    // --json with one input prints the body as geo keeps it: the server's bytes with the key masked.
    expect(JSON.parse(located.stdout)).toMatchObject({ success: true, location: { latitude: 1.5, longitude: 2.5 } });
    expect(located.stdout).toContain('[REDACTED]');
    await run(['--debug', 'locate', TOKYO, '--format', 'ndjson', '--case', 'Echo']);
    await run(['history']);
    await run(['history', '--json']);
    await run(['history', 'show', PARIS]);
    await run(['history', 'show', PARIS, '--json']);
    for (const format of ['json', 'csv', 'geojson', 'kml', 'kmz', 'html', 'ndjson']) {
      if (format !== 'kmz') await run(['export', '--all', '--format', format]);
      await run(['export', '--all', '--format', format, '--out', join(out, `all.${format}`)]);
    }
    await run(['export', '--case', 'Echo', '--format', 'json', '--out', join(out, 'case.json')]);
    await run(['cases', 'show', 'Echo']);
    await run(['cases', 'show', 'Echo', '--json']);
    await run(['cases', 'bundle', 'Echo', join(out, 'case.zip')]);
    const verified = await run(['cases', 'verify', 'Echo']);
    expect(verified.stdout).toMatch(/verified/);
    const bundle = await run(['cases', 'verify', join(out, 'case.zip')]);
    expect(bundle.stdout).toMatch(/verified/);

    const files = filesUnder(data, state, config, out);
    expect(files.map(([p]) => p)).toEqual(expect.arrayContaining([join(data, 'geo.db'), `${join(out, 'case.zip')}!manifest.json`]));
    expect(files.filter(([p]) => /!answers\//.test(p)).length).toBeGreaterThan(0);
    expectNowhere([...seen, ...files]);

    // The answers are kept masked, and their records say so: the sha256 of the bytes as received
    // (what the server sent) beside the sha256 of the bytes as kept (the BLOB).
    const rows = dbRows<{ record: string; raw: Buffer }>(data, 'SELECT record, raw FROM results ORDER BY id');
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const rec = JSON.parse(row.record) as { response: { masked?: boolean; received_sha256?: string; sha256?: string } };
      expect(rec.response).toMatchObject({ masked: true, received_sha256: sha(SENT), sha256: sha(Buffer.from(row.raw)) });
      expect(sha(Buffer.from(row.raw))).not.toBe(sha(SENT));
    }
    // Custody logs the kept bytes (what the store and the bundle hold), and the received ones beside.
    const caseId = dbRows<{ id: string }>(data, "SELECT id FROM cases WHERE name = 'Echo'")[0]!.id;
    const answers = custodyOf(data, caseId).filter((e) => e.event === 'answer_received').map((e) => (e.data as { answer: Record<string, unknown> }).answer);
    expect(answers).toHaveLength(2);
    for (const a of answers) expect(a).toMatchObject({ sha256: sha(Buffer.from(rows[0]!.raw)), masked: true, received_sha256: sha(SENT) });
  }, 120_000);

  it('geo api POST /api/v1/geolocate keeps the answer masked too, with its record saying so', async () => {
    const data = tmp('geo-spell-api-');
    const body = join(tmp('geo-spell-body-'), 'body.json');
    writeFileSync(body, JSON.stringify({ image_b64: readFileSync(PARIS).toString('base64'), depth: 1 }));
    const env = { GEO_API_KEY: KEY, GEO_BASE_URL: echo.base('ok'), GEO_DATA_DIR: data };
    const r = await runCli(['--debug', 'api', '-i', '-X', 'POST', '/api/v1/geolocate', '--input', body], { env, sleep: async () => {} });
    expect(r.code, r.stderr).toBe(0);
    const again = await runCli(['api', '-X', 'POST', '/api/v1/geolocate', '--input', body], { env, sleep: async () => {} });
    expect(again.stderr).toMatch(/printed from the store/);
    expectNowhere([['stdout', r.stdout], ['stderr', r.stderr], ['stdout, from the store', again.stdout], ...filesUnder(data)]);
    const rec = JSON.parse(dbRows<{ record: string }>(data, 'SELECT record FROM results')[0]!.record) as { response: Record<string, unknown> };
    expect(rec.response).toMatchObject({ masked: true, received_sha256: sha(SENT) });
  });

  for (const mode of ['ok', 401, 500] as const) {
    it(`credits, usage, analyses, cases list, docs and geo api, answered ${mode}, with --debug: stdout and stderr hold no spelling`, async () => {
      const env = { GEO_API_KEY: KEY, GEO_BASE_URL: echo.base(mode), GEO_DATA_DIR: tmp('geo-spell-acct-') };
      const seen: Array<[string, string]> = [];
      for (const argv of [['credits'], ['credits', '--json'], ['usage', '--json'], ['analyses', '--json'], ['cases', 'list', '--json'], ['docs'], ['api', '-i', '/api/v1/credits'], ['api', '/api/v1/usage']]) {
        for (const debug of [[], ['--debug']]) {
          const r = await runCli([...debug, ...argv], { env, sleep: async () => {} });
          seen.push([`${debug.join('')} ${argv.join(' ')} stdout`, r.stdout], [`${debug.join('')} ${argv.join(' ')} stderr`, r.stderr]);
        }
      }
      expectNowhere(seen);
    });
  }

  it('geo mcp: locate, history, export, credits, usage, analyses and cases_list results hold no spelling, nor any message or file', async () => {
    const out = tmp('geo-spell-mcp-out-');
    const dirs = [tmp('geo-spell-mcp-data-'), tmp('geo-spell-mcp-state-'), out];
    const env = Object.fromEntries(Object.entries(binEnv({ GEO_API_KEY: KEY, GEO_BASE_URL: echo.base('ok'), GEO_DATA_DIR: dirs[0], GEO_STATE_DIR: dirs[1] })).filter((e): e is [string, string] => e[1] !== undefined));
    const s = await startMcpServer(['--allow-dir', FIXTURES, '--allow-dir', out], { cwd: tmp('geo-spell-mcp-cwd-'), env });
    const seen: Array<[string, string]> = [];
    try {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['locate', { inputs: [PARIS] }], ['history', {}], ['history', { ref: PARIS }], ['export', { all: true, format: 'json' }],
        ['export', { all: true, format: 'geojson', out: join(out, 'r.geojson') }], ['credits', {}], ['usage', {}], ['analyses', {}], ['cases_list', {}],
      ];
      for (const [tool, args] of calls) {
        const r = await callTool(s.client, tool, args);
        expect(r.isError, `${tool}: ${r.text}`).toBe(false);
        seen.push([`${tool} text`, r.text], [`${tool} data`, JSON.stringify(r.data)]);
      }
      seen.push(...s.traffic.map((m, i): [string, string] => [`MCP message ${i}`, m]), ['geo mcp stderr', s.stderr()]);
    } finally {
      await s.close();
    }
    expectNowhere([...seen, ...filesUnder(...dirs)]);
  }, 60_000);
});

describe('a body cut short that echoes the key is kept as far as it came, masked', () => {
  let raw: RawServer | undefined;
  afterAll(async () => raw?.close());
  const body = JSON.stringify({ success: true, reasoning: `${allSpellings(KEY)} and more`, location: { latitude: 1, longitude: 2 } });
  const cases: Array<[string, Buffer, Record<string, string>]> = [
    ['plain JSON cut inside', Buffer.from(body.slice(0, Math.floor(body.length * 0.9))), { 'Content-Length': String(body.length) }],
    // gzip that stores rather than compresses: half a stream does not inflate, so what came is the wire bytes themselves.
    ['a stored (level 0) gzip stream cut in half', gzipSync(body, { level: 0 }).subarray(0, Math.floor(body.length * 0.9)), { 'Content-Encoding': 'gzip', 'Content-Length': String(gzipSync(body, { level: 0 }).length) }],
  ];
  for (const [name, bytes, headers] of cases) {
    it(`${name}: retried with its key, then kept unusable: the store, stdout and stderr hold no spelling; the record says masked`, async () => {
      expect(findKey(bytes, KEY), 'the server really sends the key').toBeDefined();
      await raw?.close();
      raw = await rawServer({ answer: (_req, _n, socket) => socket.end(httpAnswer(200, bytes, headers)) });
      const data = tmp('geo-spell-cut-');
      const r = await runCli(['--debug', 'locate', PARIS, '--json'], { env: { GEO_API_KEY: KEY, GEO_BASE_URL: raw.url, GEO_DATA_DIR: data, GEO_STATE_DIR: tmp('geo-spell-cut-state-') }, sleep: async () => {} });
      expect(r.code, r.stderr).toBe(6);
      expect(raw.seen.length).toBeGreaterThan(1);
      expectNowhere([['stdout', r.stdout], ['stderr', r.stderr], ...filesUnder(data)]);
      const rows = dbRows<{ record: string }>(data, 'SELECT record FROM results');
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.record)).toMatchObject({ unusable: expect.any(String), response: { masked: true, received_sha256: sha(bytes) } });
    });
  }
});
