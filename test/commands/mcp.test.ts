/**
 * Issue 15, `geo mcp`: the built binary started as a subprocess and driven by the MCP SDK's own
 * client over stdio, against the sandbox (key and base URL from the environment, as a client's
 * config would give them). The sandbox ledger is the proof of what was sent and paid; every
 * message the server wrote, and its stderr, is searched for the key.
 */
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, startMcpServer } from '../helpers/mcp-client.js';
import { CLIPS, FFMPEG, ffmpegTitle } from '../helpers/ffmpeg.js';
import { binEnv, spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const ALL_TOOLS = ['analyses', 'case_note', 'case_summary', 'cases_create', 'cases_list', 'check_claim', 'credits', 'export', 'history', 'inspect', 'locate', 'usage'];
const READ_ONLY_TOOLS = ['analyses', 'case_summary', 'cases_list', 'credits', 'export', 'history', 'inspect', 'usage'];

/** What the server sent (every message) and wrote on stderr, across all servers of this file. */
const trafficOf: string[][] = [];
const stderrs: Array<() => string> = [];
const servers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of servers) await close();
});

/** The environment a client's config would give: the key and base URL, fresh state and data folders unless shared. */
function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = binEnv({ GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_STATE_DIR: tmp('geo-mcp-state-'), GEO_DATA_DIR: tmp('geo-mcp-data-'), ...extra });
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

async function startMcp(args: string[], o: { cwd?: string; env?: Record<string, string> } = {}): Promise<Client> {
  const server = await startMcpServer(args, { env: o.env ?? serverEnv(), cwd: o.cwd ?? tmp('geo-mcp-cwd-') });
  trafficOf.push(server.traffic);
  stderrs.push(server.stderr);
  servers.push(server.close);
  return server.client;
}

interface Structured {
  results?: Array<{ input: string; ok: boolean; result?: { location: Record<string, unknown>; confidence: number; analysis_id: string }; exif: { verdict: string } | null; stored_result: { id: number; ref: string } | null; map_links: Array<{ url: string }>; answered_by: string }>;
  credits?: { spent: number; planned: number };
  error?: { code: string; message: string; hint?: string };
}

const call = (client: Client, name: string, args: Record<string, unknown>) => callTool<Structured>(client, name, args);

const requests = () => sb.ledger().keys[KEYS.pro]!.requests;
const debits = () => sb.ledger().keys[KEYS.pro]!.debits;

describe('geo mcp, driven by the SDK client over stdio', () => {
  it('initializes as geo and lists every tool; --read-only lists only those that spend and change nothing', async () => {
    const client = await startMcp([]);
    expect(client.getServerVersion()?.name).toBe('geo');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    const locate = tools.find((t) => t.name === 'locate')!;
    // The schema carries the contract's rules: depth 1-3, the four efforts.
    expect(locate.inputSchema.properties?.depth).toMatchObject({ type: 'integer', minimum: 1, maximum: 3 });
    expect(locate.inputSchema.properties?.effort).toMatchObject({ enum: ['instant', 'low', 'medium', 'high'] });

    const ro = await startMcp(['--read-only']);
    const roTools = (await ro.listTools()).tools;
    expect(roTools.map((t) => t.name).sort()).toEqual(READ_ONLY_TOOLS);
    expect(roTools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(roTools.find((t) => t.name === 'export')!.inputSchema.properties).not.toHaveProperty('out');
    const refused = await call(ro, 'locate', { inputs: ['sample:paris'] });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('--read-only');
  });

  it('locate on paris.jpg returns what `geo locate --json` prints, with the EXIF check, where it is stored and map links; a second call pays nothing; history and export find it', async () => {
    const env = serverEnv();
    const outDir = tmp('geo-mcp-out-');
    const client = await startMcp(['--allow-dir', FIXTURES, '--allow-dir', outDir], { env });
    const before = debits();
    const first = await call(client, 'locate', { inputs: [join(FIXTURES, 'paris.jpg')] });
    expect(first.isError).toBe(false);
    expect(debits()).toBe(before + 1);
    const r = first.data.results![0]!;
    // geo removed the GPS before upload: the sandbox's synthetic answer is contradicted, independently.
    expect(r).toMatchObject({ ok: true, answered_by: 'service', exif: { verdict: 'contradicts', independent: true } });
    expect(r.stored_result).toEqual({ id: expect.any(Number), ref: '868735296a0b' }); // what `geo history show` takes
    expect(r.map_links.map((l) => new URL(l.url).hostname)).toEqual(['www.google.com', 'www.openstreetmap.org', 'maps.apple.com']);
    expect(first.data.credits).toMatchObject({ spent: 1, planned: 1 });
    expect(first.text).toContain('EXIF contradicts (independent: the GPS was not sent)');

    // The CLI with the same key, service and data folder: it reuses the stored answer (nothing
    // sent), and prints that body exactly as received, so the two must agree field for field.
    const cli = await spawnGeo(['locate', join(FIXTURES, 'paris.jpg'), '--json'], { env });
    expect(cli.code).toBe(0);
    expect(cli.stderr).toMatch(/from (the store|your results), not charged/);
    const body = JSON.parse(cli.stdout) as { location: unknown; confidence: number; analysis_id: string };
    expect(r.result!.location).toEqual(body.location);
    expect(r.result!.confidence).toBe(body.confidence);
    expect(r.result!.analysis_id).toBe(body.analysis_id);
    expect(debits()).toBe(before + 1);

    // An agent that retries: the same call is answered from the store, free.
    const again = await call(client, 'locate', { inputs: [join(FIXTURES, 'paris.jpg')] });
    expect(again.isError).toBe(false);
    expect(again.data.results![0]).toMatchObject({ ok: true, answered_by: 'earlier_run' });
    expect(again.data.results![0]!.result).toEqual(r.result);
    expect(again.data.credits).toMatchObject({ spent: 0, planned: 0 });
    expect(debits()).toBe(before + 1);

    // The stored result, through the offline tools: history lists it, export writes it inside an allowed folder.
    const history = await call(client, 'history', {});
    expect(history.data).toMatchObject({ total: 1, rows: [{ analysis_id: body.analysis_id }] });
    // A sandbox's answers are left out of --all unless asked for (never evidence); marked when included.
    const none = await call(client, 'export', { all: true, format: 'csv', out: join(outDir, 'none.csv') });
    expect(none.isError).toBe(true);
    const exported = await call(client, 'export', { all: true, include_sandbox: true, format: 'csv', out: join(outDir, 'results.csv') });
    expect(exported.isError).toBe(false);
    expect(readFileSync(join(outDir, 'results.csv'), 'utf8')).toMatch(new RegExp(`${body.analysis_id},.*,simulated answer \\(sandbox\\): not evidence,\r\n`));
  });

  it('a plan above --max-credits-per-call (depth 3 = 10 credits, per call 5) is refused with nothing sent', async () => {
    const client = await startMcp(['--allow-dir', FIXTURES, '--max-credits-per-call', '5']);
    const sent = requests();
    const r = await call(client, 'locate', { inputs: [join(FIXTURES, 'tokyo.jpg')], depth: 3 });
    expect(r.isError).toBe(true);
    expect(r.data.error).toMatchObject({ code: 'over_budget' });
    expect(r.data.error!.message).toContain('needs up to 10 credits');
    expect(r.data.error!.message).toContain('geo mcp --max-credits-per-call 5');
    expect(r.data.error!.hint).toContain('--max-credits-per-call');
    expect(requests()).toBe(sent);
  });

  it('--max-credits bounds the whole run: once spent, the next plan is refused with nothing sent', async () => {
    const client = await startMcp(['--allow-dir', FIXTURES, '--max-credits', '1']);
    expect((await call(client, 'locate', { inputs: [join(FIXTURES, 'sydney.jpg')] })).isError).toBe(false);
    const sent = requests();
    const r = await call(client, 'locate', { inputs: [join(FIXTURES, 'newyork.jpg')] });
    expect(r.isError).toBe(true);
    expect(r.data.error).toMatchObject({ code: 'over_budget' });
    expect(r.data.error!.message).toContain('0 of geo mcp --max-credits 1');
    expect(requests()).toBe(sent);
  });

  it('a path outside --allow-dir, and a symlink inside it that leads out, are refused with nothing read or sent', async () => {
    // (Not the fixtures themselves: those are geo's own sample photos, which every server may read.)
    const outside = join(tmp('geo-mcp-outside-'), 'photo.jpg');
    copyFileSync(join(FIXTURES, 'paris.jpg'), outside);
    const allowed = tmp('geo-mcp-allowed-');
    symlinkSync(outside, join(allowed, 'link.jpg'));
    const client = await startMcp(['--allow-dir', allowed]);
    const sent = requests();
    for (const input of [outside, join(allowed, 'link.jpg')]) {
      for (const [tool, args] of [['locate', { inputs: [input] }], ['inspect', { files: [input] }], ['history', { ref: input }]] as const) {
        const r = await call(client, tool, args);
        expect(r.isError, `${tool} ${input}`).toBe(true);
        expect(r.data.error?.code, `${tool} ${input}`).toBe('outside_allowed_dirs');
      }
    }
    // The folder itself: its symlinked image leads out, so locating the folder is refused too.
    expect((await call(client, 'locate', { inputs: [allowed] })).data.error?.code).toBe('outside_allowed_dirs');
    // An export may not be written out of the folder either.
    expect((await call(client, 'export', { all: true, format: 'csv', out: join(tmpdir(), 'geo-mcp-out.csv') })).data.error?.code).toBe('outside_allowed_dirs');
    expect(requests()).toBe(sent);
  });

  it('bad arguments get the service\'s own error code, with nothing sent', async () => {
    const client = await startMcp([]);
    const sent = requests();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ inputs: ['sample:paris'], depth: 5 }, 'invalid_request'],
      [{ inputs: ['sample:paris'], effort: 'extreme' }, 'invalid_effort'],
      [{ inputs: ['sample:paris'], depth: 1, effort: 'high' }, 'effort_exceeds_depth'],
      [{ inputs: ['sample:paris'], scope: { name: 'Paris', lat: 48.85, lng: 2.35, radius_km: 900 } }, 'invalid_scope'],
      [{ inputs: ['sample:paris'], api_key: KEYS.free }, 'invalid_request'],
    ];
    for (const [args, code] of cases) {
      const r = await call(client, 'locate', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.data.error?.code, JSON.stringify(args)).toBe(code);
      expect(r.data.error?.hint, JSON.stringify(args)).toBeTruthy();
    }
    expect(requests()).toBe(sent);
  });

  it('credits, inspect, cases_create and cases_list answer as their commands do', async () => {
    const client = await startMcp([]);
    const credits = await call(client, 'credits', {});
    expect(credits.isError).toBe(false);
    expect(credits.data).toMatchObject({ success: true, data: { total_available: expect.any(Number) } });
    const inspect = await call(client, 'inspect', { files: ['sample:tokyo'] });
    expect(inspect.text).toMatch(/GPS 35\.\d+, 139\.\d+/);
    const created = await call(client, 'cases_create', { name: 'Harbour fire' });
    expect(created.isError).toBe(false);
    expect((await call(client, 'cases_list', {})).text).toContain('Harbour fire');
  });

  it.skipIf(!FFMPEG)(ffmpegTitle('locate on a video returns the scene: its consensus, every cluster and each frame; a second call pays nothing'), async () => {
    const dir = tmp('geo-mcp-video-');
    copyFileSync(join(CLIPS, 'two-places.mp4'), join(dir, 'clip.mp4'));
    const client = await startMcp(['--allow-dir', dir]);
    const before = debits();
    const r = await call(client, 'locate', { inputs: [join(dir, 'clip.mp4')], every: 2 });
    expect(r.isError).toBe(false);
    const scene = (r.data as { scene: { kind: string; consensus: { agree: number; of: number; time_ranges: unknown }; clusters: unknown[]; frames: Array<{ t_s: number; ok: boolean }> } }).scene;
    expect([scene.kind, scene.clusters.length, scene.consensus.agree, scene.consensus.of]).toEqual(['video', 2, 2, 4]);
    expect(scene.consensus.time_ranges).toEqual([{ from_s: 0, to_s: 3 }, { from_s: 6, to_s: 9 }]);
    expect(scene.frames.map((f) => [f.t_s, f.ok])).toEqual([[0, true], [2, true], [3, true], [5, true]]);
    expect(r.text).toMatch(/clip\.mp4: consensus .*France \(48\.\d+, 2\.\d+\); 2 of 4 frames agree, spread 5\.01 km\nalso #2: .*Japan/);
    expect(debits() - before).toBe(4);
    expect((await call(client, 'locate', { inputs: [join(dir, 'clip.mp4')], every: 2 })).text).toMatch(/credits: 0 spent by this call/);
    expect(debits() - before).toBe(4);
  });

  it('the key is in no message the servers sent and in none of their stderr', () => {
    const traffic = trafficOf.flat();
    expect(traffic.length).toBeGreaterThan(20);
    for (const m of traffic) expect(m).not.toContain(KEYS.pro);
    for (const err of stderrs) {
      expect(err()).toContain('geo mcp: serving');
      expect(err()).not.toContain(KEYS.pro);
    }
  });
});
