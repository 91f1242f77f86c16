/**
 * The MCP locate tool's reuse_similar: a copy of a photo located before takes that answer for an
 * agent too, nothing sent or charged, and its result says whose answer it is (reused_similar,
 * answered_by reused_similar). The built binary driven by the MCP SDK's client over stdio, against
 * the sandbox; its ledger is the proof of what was paid.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { photosAndCopies } from '../batch/helpers.js';
import { callTool, startMcpServer } from '../helpers/mcp-client.js';
import { binEnv, spawnGeo } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const closing: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closing) await close();
});

interface Answer {
  results?: Array<{ ok: boolean; answered_by: string; reused_similar?: { result: number; distance: number }; result?: { analysis_id: string } }>;
  credits?: { spent: number };
}

describe('geo mcp locate with reuse_similar', () => {
  it('a copy of a photo located before: that answer, marked reused_similar, nothing charged', async () => {
    const photos = await photosAndCopies();
    const env = Object.fromEntries(Object.entries(binEnv({ GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_STATE_DIR: tmp('geo-mcp-state-'), GEO_DATA_DIR: tmp('geo-mcp-data-') })).filter((e): e is [string, string] => e[1] !== undefined));
    const first = await spawnGeo(['locate', join(photos.originals, 'photo2.jpg'), '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const debits = sb.ledger().keys[KEYS.pro]!.debits;
    const server = await startMcpServer(['--allow-dir', photos.copies], { env, cwd: tmp('geo-mcp-cwd-') });
    closing.push(server.close);
    const r = await callTool<Answer>(server.client, 'locate', { inputs: [join(photos.copies, 'photo2-half.jpg')], reuse_similar: true });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.results![0]).toMatchObject({ ok: true, answered_by: 'reused_similar', reused_similar: { distance: photos.of.get('photo2-half.jpg')!.distance } });
    expect(r.data.results![0]!.result!.analysis_id).toBe((JSON.parse(first.stdout) as { analysis_id: string }).analysis_id);
    expect(r.data.credits).toMatchObject({ spent: 0 });
    expect(r.text).toMatch(/photo2-half\.jpg: reused the answer of result \d+ \(distance \d+ bits?\): not the service's answer for these bytes/);
    expect(sb.ledger().keys[KEYS.pro]!.debits).toBe(debits);
  }, 90_000);
});
