/**
 * geo mcp's part in an investigation, driven by the MCP SDK's own client against the built binary:
 * case_note adds an observation to a local case (a photo located into it on the sandbox, depth 3),
 * and its custody entry is marked as the agent's, naming the client as it introduced itself;
 * case_summary gives the case back with its results' clue ids and that note; no tool concludes,
 * rules out, judges or reviews, and case_note refuses any argument that would, appending nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpServer, callTool, startMcpServer } from '../helpers/mcp-client.js';
import { binEnv, runCli } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';
import { caseId, custodyOf } from '../cases/helpers.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const data = tmp('geo-mcp-case-data-');
const base = { GEO_API_KEY: KEYS.pro, GEO_STATE_DIR: tmp('geo-mcp-case-state-'), GEO_DATA_DIR: data };
const SEEN = 'the tram wires run along the left kerb';

interface Summary {
  case: { id: string; name: string };
  results: Array<{ result: string; analysis_id: string; sandbox: boolean; clues: Array<{ id: string; kind: string; label: string }> }>;
  investigation: { notes: Array<{ kind: string; text: string; entry: number; by?: { agent: boolean; client: string }; results?: Array<{ ref: string }>; clues?: string[] }>; reviews: unknown[]; ruled_out: unknown[]; judgements: unknown[] };
  error?: { code: string; message: string; hint?: string };
}

let server: McpServer;
let id = '';
beforeAll(async () => {
  const env = { ...base, GEO_BASE_URL: sb.url, CI: undefined };
  expect((await runCli(['cases', 'create', '--name', 'Harbour fire', '--local'], { env })).code).toBe(0);
  const located = await runCli(['locate', join(FIXTURES, 'paris.jpg'), '--depth', '3', '--case', 'Harbour fire', '--yes'], { env });
  expect(located.code, located.stderr).toBe(0);
  id = caseId(data, 'Harbour fire');
  const serverEnv = Object.fromEntries(Object.entries(binEnv({ ...base, GEO_BASE_URL: sb.url })).filter((e): e is [string, string] => e[1] !== undefined));
  server = await startMcpServer([], { cwd: tmp('geo-mcp-case-cwd-'), env: serverEnv });
});
afterAll(async () => server?.close());

const call = (name: string, args: Record<string, unknown>) => callTool<Summary & Record<string, unknown>>(server.client, name, args);

describe('geo mcp: case_note and case_summary', () => {
  it('case_note appends note_made marked by the agent, naming the client as it introduced itself; case_summary returns it with the clue ids', async () => {
    const before = custodyOf(data, id).length;
    const r = await call('case_note', { case: 'Harbour fire', kind: 'observation', text: SEEN, results: ['r1'], clues: ['r1.clue1'] });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/observation noted: entry \d+ of case lc_[0-9a-f]+ \(Harbour fire\), marked as written by an agent \(geo-test 1\.0\.0\)/);

    const entries = custodyOf(data, id);
    expect(entries).toHaveLength(before + 1);
    const e = entries.at(-1)!;
    expect(e.event).toBe('note_made');
    expect(e.data.note).toEqual({ kind: 'observation', text: SEEN, results: [expect.objectContaining({ ref: 'r1' })], clues: ['r1.clue1'], by: { agent: true, client: 'geo-test 1.0.0' } });

    const s = await call('case_summary', { case: id });
    expect(s.isError, s.text).toBe(false);
    // The text is the summary as JSON: what the structured content holds.
    expect(JSON.parse(s.text)).toEqual(s.data);
    expect(s.data.case).toMatchObject({ id, name: 'Harbour fire' });
    expect(s.data.results).toHaveLength(1);
    expect(s.data.results[0]).toMatchObject({ result: 'r1', sandbox: true });
    expect(s.data.results[0]!.clues.map((c) => c.id)).toEqual(expect.arrayContaining(['r1.clue1', 'r1.support1', 'r1.contra1', 'r1.cand1']));
    expect(s.data.investigation.notes).toEqual([expect.objectContaining({ kind: 'observation', text: SEEN, entry: e.seq, by: { agent: true, client: 'geo-test 1.0.0' }, clues: ['r1.clue1'] })]);
    expect(s.data.investigation).toMatchObject({ judgements: [], ruled_out: [], reviews: [] });
  });

  it('lists case_note and case_summary and no tool that concludes, rules out, judges or reviews; --read-only keeps case_summary alone', async () => {
    const names = (await server.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['case_note', 'case_summary']));
    expect(names.filter((n) => /conclu|rule|review|judg|accept|reject|verdict/.test(n))).toEqual([]);
    const ro = await startMcpServer(['--read-only'], { cwd: tmp('geo-mcp-case-ro-'), env: Object.fromEntries(Object.entries(binEnv(base)).filter((e): e is [string, string] => e[1] !== undefined)) });
    try {
      const roNames = (await ro.client.listTools()).tools.map((t) => t.name);
      expect(roNames).toContain('case_summary');
      expect(roNames).not.toContain('case_note');
    } finally {
      await ro.close();
    }
  });

  it.each([
    ['a conclusion\'s fields', { kind: 'observation', text: 'it is Paris', at: '48.87,2.31', within: 150, confidence: 'probable' }, /case_note takes no at, within, confidence/],
    ['a conclusion as the kind', { kind: 'conclusion', text: 'it is Paris' }, /not "conclusion"/],
    ['a place ruled out', { kind: 'observation', text: 'not Lyon', ruled_out: 'Lyon, FR', because: 'no such blocks' }, /case_note takes no ruled_out, because/],
    ['a clue judged', { kind: 'observation', text: 'yes', verdict: 'accepted' }, /case_note takes no verdict/],
    ['a review', { kind: 'observation', text: 'fine', review: 'approve' }, /case_note takes no review/],
    ['a mark of its own', { kind: 'observation', text: 'me', by: { agent: false, client: 'the analyst' } }, /case_note takes no by/],
  ])('%s: refused (not_for_agents), nothing appended', async (_what, args, said) => {
    const before = custodyOf(data, id).length;
    const r = await call('case_note', { case: id, ...args });
    expect(r.isError).toBe(true);
    expect(r.data.error).toMatchObject({ code: 'not_for_agents', message: expect.stringMatching(said) });
    expect(r.data.error?.message).toContain('an agent may note (an observation or a hypothesis), never conclude, rule out, judge a clue or review');
    expect(r.data.error?.hint).toContain('geo cases conclude');
    expect(custodyOf(data, id)).toHaveLength(before);
  });
});
