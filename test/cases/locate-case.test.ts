/**
 * --case on geo locate (one photo, several, --together, a video), geo eval and the MCP locate tool
 * (issue 24): each answered result is linked to the case and the custody log says what happened,
 * field by field against the stored record; exports and reports written for the case are logged
 * with their sha256; an unknown case costs nothing; a custody append that fails keeps the answer
 * and ends the command with exit 1, saying so.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/evidence/custody-verify.js';
import { pdqOf } from '../../src/image/pdq.js';
import { footprint } from '../commands/locate-helpers.js';
import { CLIPS, FFMPEG, ffmpegTitle } from '../helpers/ffmpeg.js';
import { callTool, startMcpServer } from '../helpers/mcp-client.js';
import { binEnv } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';
import { caseId, caseRunner, custodyLines, custodyOf, events, tmp } from './helpers.js';

const sb = withSandbox();
const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
const PARIS = FIXTURES + 'paris.jpg';
const TOKYO = FIXTURES + 'tokyo.jpg';

async function withCase(name = 'Harbour fire') {
  const r = caseRunner(sb);
  expect((await r.run(['cases', 'create', '--name', name, '--local'])).code).toBe(0);
  return { ...r, id: caseId(r.data, name) };
}
const linkedCount = (data: string, id: string) => dbRows<{ n: number }>(data, 'SELECT count(*) AS n FROM case_results WHERE case_id = ?', id)[0]!.n;

describe('geo locate --case', () => {
  it('one photo: input hashed, request sent, answer received, result linked, each field as the store has it', async () => {
    const { data, run, id } = await withCase();
    const r = await run(['locate', PARIS, '--case', 'Harbour fire']);
    expect(r.code).toBe(0);
    const log = custodyOf(data, id);
    expect(events(log)).toEqual(['case_created', 'input_hashed', 'request_sent', 'answer_received', 'result_linked']);
    const [stored] = dbRows<{ id: number; raw: ArrayBuffer | Buffer; record: string }>(data, 'SELECT id, raw, record FROM results');
    const row = { ...stored!, raw: Buffer.from(stored!.raw as ArrayBuffer) };
    const rec = JSON.parse(row.record);
    const file = readFileSync(PARIS);
    // With what the photo said about itself before it was stripped (issue 31): its tags, no C2PA;
    // and its perceptual hash, by which its copies are found.
    const p = await pdqOf(PARIS);
    expect(log[1]!.data).toEqual({ input: { path: PARIS, sha256: sha(file), size: statSync(PARIS).size }, metadata_json: expect.any(String), c2pa: { present: false }, pdq: { hash: p.hash, quality: p.quality } });
    expect(JSON.parse(log[1]!.data.metadata_json as string).tags).toMatchObject({ Make: 'Apple', DateTimeOriginal: '2024:05:14 18:32:07' });
    const sent = log[2]!.data.request as Record<string, unknown>;
    // What went out is the photo without its metadata: another sha256, another size, the record's own.
    expect(sent).toEqual({ input_sha256: sha(file), sha256: rec.sent.sha256, size: rec.sent.size, fields: { depth: 1 }, service: sb.url, idempotency_key: rec.idempotency_key });
    expect(sent.sha256).not.toBe(sha(file));
    expect(log[3]!.data.answer).toEqual({ sha256: sha(row.raw), size: row.raw.length, status: 200, service: sb.url, analysis_id: JSON.parse(row.raw.toString()).analysis_id, request_id: expect.any(String), sandbox: true });
    // The pair it binds, and what the result is shown with that its answer cannot say (issue 30).
    expect(log[4]!.data.result).toEqual({ input_sha256: sha(file), answer_sha256: sha(row.raw), analysis_id: JSON.parse(row.raw.toString()).analysis_id, input_path: PARIS, service: sb.url, sandbox: true });
    expect(dbRows(data, 'SELECT result_id FROM case_results WHERE case_id = ?', id)).toEqual([{ result_id: row.id }]);
    for (const e of log) expect(e).toMatchObject({ schema: 'geo.custody/1', case: id, user: expect.any(String), host: expect.any(String), geo: expect.any(String) });
    expect(verifyChain(custodyLines(data, id), { caseId: id }).ok).toBe(true);

    // Run again: answered from the store, free, and already in the case: nothing new to log.
    const again = await run(['locate', PARIS, '--case', id]);
    expect(again.code).toBe(0);
    expect(custodyLines(data, id)).toHaveLength(5);
  });

  it('an image URL with --service-fetch: request sent with the URL in its fields, answer received, result linked; no input file to hash', async () => {
    const { data, run, id } = await withCase();
    // --service-fetch: the service fetches the URL itself (the sandbox too), from a loopback server
    // it can reach, as validators.ts allows plain http only there. An https URL takes the same path
    // through geo. (Without the flag geo fetches it: test/batch/url-input.test.ts.)
    const photo = readFileSync(PARIS);
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/street.jpg`;
    try {
      const r = await run(['locate', url, '--case', id, '--service-fetch']);
      expect(r.code).toBe(0);
    } finally {
      server.close();
    }
    const log = custodyOf(data, id);
    expect(events(log)).toEqual(['case_created', 'request_sent', 'answer_received', 'result_linked']);
    const [stored] = dbRows<{ raw: ArrayBuffer | Buffer; record: string }>(data, 'SELECT raw, record FROM results');
    const rec = JSON.parse(stored!.record);
    const raw = Buffer.from(stored!.raw as ArrayBuffer);
    // No sha256 or size of what was sent: geo sent the URL, not the bytes (custody.ts).
    expect(log[1]!.data.request).toEqual({ input_sha256: rec.input.sha256, fields: { image_url: url, depth: 1 }, service: sb.url, idempotency_key: rec.idempotency_key });
    expect(log[2]!.data.answer).toMatchObject({ sha256: sha(raw), size: raw.length, status: 200, service: sb.url });
    expect(log[3]!.data.result).toMatchObject({ input_sha256: rec.input.sha256, answer_sha256: sha(raw) });
    expect(verifyChain(custodyLines(data, id), { caseId: id }).ok).toBe(true);
  });

  it('a request that fails (422 from an independent server): the file hashed, request_failed with the key, status, code and request id; nothing linked', async () => {
    const { data, run, id } = await withCase();
    const seen: string[] = [];
    const body = JSON.stringify({
      success: false, error: 'Invalid image', code: 'invalid_image_b64', message: 'The image could not be decoded.', docs: 'https://example.org/docs/errors',
      type: 'https://example.org/problems/invalid_image_b64', title: 'Invalid image', status: 422, detail: 'The image could not be decoded.',
    });
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['idempotency-key'] ?? ''}`);
      req.resume();
      req.on('end', () => res.writeHead(422, { 'content-type': 'application/json', 'x-request-id': 'req_failed_1' }).end(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const service = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let r;
    try {
      r = await run(['locate', PARIS, '--case', id], { env: { GEO_BASE_URL: service } });
    } finally {
      server.close();
    }
    expect(r.code).not.toBe(0);
    const posts = seen.filter((l) => l.startsWith('POST /api/v1/geolocate'));
    expect(posts).toHaveLength(1);
    const key = posts[0]!.split(' ')[2]!;
    const log = custodyOf(data, id);
    expect(events(log)).toEqual(['case_created', 'input_hashed', 'request_failed']);
    const p = await pdqOf(PARIS);
    expect(log[1]!.data).toEqual({ input: { path: PARIS, sha256: sha(readFileSync(PARIS)), size: statSync(PARIS).size }, metadata_json: expect.any(String), c2pa: { present: false }, pdq: { hash: p.hash, quality: p.quality } });
    expect(log[2]!.data.failure).toEqual({
      input: PARIS, input_sha256: sha(readFileSync(PARIS)), service, idempotency_key: key, status: 422, code: 'invalid_image_b64',
      message: expect.stringContaining('could not be decoded'), request_id: 'req_failed_1',
    });
    expect(linkedCount(data, id)).toBe(0);
    expect(verifyChain(custodyLines(data, id), { caseId: id }).ok).toBe(true);
    expect((await run(['cases', 'verify', id])).code).toBe(0);
  });

  it('several photos with --format geojson and --report: every result linked, the export and the report logged with their sha256', async () => {
    const { data, run, id } = await withCase();
    const report = join(tmp(), 'case.html');
    const r = await run(['locate', PARIS, TOKYO, '--case', id, '--format', 'geojson', '--report', report]);
    expect(r.code).toBe(0);
    expect(linkedCount(data, id)).toBe(2);
    const written = custodyOf(data, id).filter((e) => e.event === 'file_written').map((e) => e.data.file);
    expect(written).toEqual([
      { kind: 'export', format: 'geojson', path: '-', sha256: sha(r.stdoutBytes!), size: r.stdoutBytes!.length },
      { kind: 'report', format: 'html', path: report, sha256: sha(readFileSync(report)), size: statSync(report).size },
    ]);
  });

  it('--together: each photo of the set linked', async () => {
    const { data, run, id } = await withCase();
    const r = await run(['locate', PARIS, TOKYO, '--together', '--case', id]);
    expect(r.code).toBe(0);
    expect(linkedCount(data, id)).toBe(2);
  });

  it.each([
    ['an unknown case', ['--case', 'Nobody'], /^error: no local case "Nobody"/],
    ['--case with --no-store', ['--case', 'Harbour fire', '--no-store'], /^error: --case keeps its results in the store, which --no-store keeps them out of/],
  ])('%s: one line, exit 2, nothing sent or charged', async (_n, flags, line) => {
    const { data, run } = await withCase();
    const before = footprint(sb);
    const r = await run(['locate', PARIS, TOKYO, ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(line);
    expect(footprint(sb)).toEqual(before);
    expect(dbRows(data, 'SELECT count(*) AS n FROM results')).toEqual([{ n: 0 }]);
  });

  it('a custody append that fails: the answer is shown and stored, the failure said, exit 1', async () => {
    const { data, run, id } = await withCase();
    const Database = createRequire(import.meta.url)('libsql') as new (p: string) => { exec(s: string): void; close(): void };
    const db = new Database(join(data, 'geo.db'));
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON custody BEGIN SELECT RAISE(ABORT, 'custody refused by the test'); END");
    db.close();
    const r = await run(['locate', PARIS, '--case', id, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, location: expect.any(Object) });
    expect(r.stderr).toMatch(/custody: not appended to case lc_\w+: the answer for \S+paris\.jpg: .*custody refused by the test/);
    expect(r.stderr).toMatch(/error: 1 custody entry of case lc_\w+ could not be appended \(see above\); the answers themselves are stored — hint: geo history shows them/);
    expect(dbRows(data, 'SELECT count(*) AS n FROM results')).toEqual([{ n: 1 }]);
    expect(custodyLines(data, id)).toHaveLength(1);
  });
});

describe('geo export --case', () => {
  it('exports the case\'s results and logs the file with its sha256; an unknown case writes nothing', async () => {
    const { data, run, id } = await withCase();
    await run(['locate', PARIS, TOKYO, '--case', id]);
    await run(['locate', FIXTURES + 'sydney.jpg']);
    const out = join(tmp(), 'case.geojson');
    const r = await run(['export', '--case', 'Harbour fire', '--out', out]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).features.filter((f: { properties: { role: string } }) => f.properties.role === 'estimate')).toHaveLength(2);
    expect(custodyOf(data, id).at(-1)!.data).toEqual({ file: { kind: 'export', format: 'geojson', path: out, sha256: sha(readFileSync(out)), size: statSync(out).size } });
    const piped = await run(['export', '--case', id, '--format', 'csv']);
    expect(custodyOf(data, id).at(-1)!.data.file).toMatchObject({ format: 'csv', path: '-', sha256: sha(piped.stdoutBytes!) });
    const none = join(tmp(), 'none.kml');
    const bad = await run(['export', '--case', 'Nobody', '--out', none]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: no local case "Nobody"/);
    expect(existsSync(none)).toBe(false);
  });
});

describe('geo eval --case', () => {
  it('each scored image linked, the report logged', async () => {
    const { data, run, id } = await withCase('Bench');
    const report = join(tmp(), 'eval.html');
    const r = await run(['eval', PARIS, TOKYO, '--case', 'Bench', '--report', report]);
    expect(r.code).toBe(0);
    expect(linkedCount(data, id)).toBe(2);
    expect(events(custodyOf(data, id))).toEqual(['case_created', ...Array(2).fill(['input_hashed', 'request_sent', 'answer_received', 'result_linked']).flat(), 'file_written']);
  });

  it('--case with --from: exit 2, nothing read', async () => {
    const { run } = await withCase('Bench');
    const r = await run(['eval', '--from', 'results.ndjson', '--case', 'Bench']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--case links the results geo eval stores, which --from \(nothing is located\) leaves none of/);
  });
});

describe.skipIf(!FFMPEG)(ffmpegTitle('geo locate clip.mp4 --case'), () => {
  it('the video hashed once, each frame\'s answer linked', async () => {
    const { data, run, id } = await withCase('Clip');
    const clip = join(CLIPS, 'two-places.mp4');
    const r = await run(['locate', clip, '--every', '2', '--case', 'Clip']);
    expect(r.code).toBe(0);
    const log = custodyOf(data, id);
    const hashed = log.filter((e) => e.event === 'input_hashed').map((e) => e.data.input);
    expect(hashed).toEqual([{ path: clip, sha256: sha(readFileSync(clip)), size: statSync(clip).size }]);
    expect(linkedCount(data, id)).toBe(4);
    expect(log.filter((e) => e.event === 'request_sent')).toHaveLength(4);
  }, 60_000);
});

describe('the MCP locate tool with case', () => {
  it('links the result and says so to the agent', async () => {
    const { data, id } = await withCase('Agent');
    const env = Object.fromEntries(Object.entries(binEnv({ GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_DATA_DIR: data, GEO_STATE_DIR: tmp() })).filter((e): e is [string, string] => e[1] !== undefined));
    const server = await startMcpServer(['--allow-dir', FIXTURES], { env, cwd: tmp() });
    try {
      const a = await callTool<{ case?: { id: string; linked: number; custody_failures: string[] } }>(server.client, 'locate', { inputs: [PARIS], case: 'Agent' });
      expect(a.isError).toBe(false);
      expect(a.data.case).toEqual({ id, name: 'Agent', linked: 1, custody_failures: [] });
      expect(a.text).toMatch(/case lc_\w+ \(Agent\): 1 result linked/);
      const unknown = await callTool(server.client, 'locate', { inputs: [PARIS], case: 'Nobody' });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/no local case "Nobody"/);
    } finally {
      await server.close();
    }
    expect(linkedCount(data, id)).toBe(1);
    expect(events(custodyOf(data, id))).toEqual(['case_created', 'input_hashed', 'request_sent', 'answer_received', 'result_linked']);
  }, 30_000);
});
