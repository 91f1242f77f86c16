/**
 * Issue 33 item 6: geo mcp's check_claim tool, driven by the MCP SDK's client against the built
 * binary, with the locate tool's guards: its verdicts are geo claims check's; a retry pays nothing;
 * a plan above --max-credits-per-call is refused before anything is sent; and a claims file inside
 * the allowed folder whose rows name photos outside it (by ../ and by absolute path) is refused
 * whole, nothing read or sent, as a claims file outside the folder is.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpServer, callTool, startMcpServer } from '../helpers/mcp-client.js';
import { binEnv } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const root = tmp('geo-mcp-claims-');
const allowed = join(root, 'allowed');
const outside = join(root, 'outside');
mkdirSync(allowed);
mkdirSync(outside);
copyFileSync(join(FIXTURES, 'tokyo.jpg'), join(allowed, 'inside.jpg'));
copyFileSync(join(FIXTURES, 'paris.jpg'), join(outside, 'secret.jpg'));
writeFileSync(join(allowed, 'claims.csv'), 'image,at\ninside.jpg,Tokyo\n');
writeFileSync(join(allowed, 'escape.csv'), `image,at\ninside.jpg,Tokyo\n../outside/secret.jpg,"Paris, FR"\n`);
writeFileSync(join(allowed, 'absolute.csv'), `image,at\n${join(outside, 'secret.jpg')},"Paris, FR"\n`);
writeFileSync(join(outside, 'claims.csv'), 'image,at\nsecret.jpg,"Paris, FR"\n');

interface Answer {
  claims?: Array<{ verdict: string | null; rule: string | null; input: string; exif: { status: string } }>;
  credits?: { spent: number; planned: number };
  error?: { code: string; message: string };
}

let server: McpServer;
const charges = () => sb.ledger().keys[KEYS.pro]!.debits;
beforeAll(async () => {
  const env = Object.fromEntries(Object.entries(binEnv({ GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_STATE_DIR: tmp('geo-mcpc-state-'), GEO_DATA_DIR: tmp('geo-mcpc-data-') })).filter((e): e is [string, string] => e[1] !== undefined));
  server = await startMcpServer(['--allow-dir', allowed, '--max-credits-per-call', '5'], { cwd: allowed, env });
});
afterAll(async () => server?.close());

const call = (args: Record<string, unknown>) => callTool<Answer>(server.client, 'check_claim', args);

describe('geo mcp: check_claim', () => {
  it('gives geo claims check\'s verdicts with their rules and the EXIF witness; a retry is free', async () => {
    const r = await call({ images: ['inside.jpg'], at: 'Tokyo' });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.claims).toEqual([expect.objectContaining({ input: expect.stringMatching(/inside\.jpg$/), verdict: expect.stringMatching(/^(agrees|contradicts|unverifiable)$/), rule: expect.any(String), exif: expect.objectContaining({ status: 'gps' }) })]);
    expect(r.data.credits).toMatchObject({ spent: 1, planned: 1 });
    expect(r.text).toMatch(/said to be at Tokyo \(within 30 km\): [A-Z]+ \(\w+\): /);
    const again = await call({ claims_file: 'claims.csv' });
    expect(again.data.credits).toMatchObject({ spent: 0, planned: 0 });
    expect(again.data.claims!.map((c) => c.verdict)).toEqual(r.data.claims!.map((c) => c.verdict));
  });

  it('a plan above --max-credits-per-call is refused before anything is sent', async () => {
    const before = charges();
    const r = await call({ images: ['inside.jpg'], at: 'Osaka', depth: 3 });
    expect(r.isError).toBe(true);
    expect(r.data.error?.code).toBe('over_budget');
    expect(r.text).toMatch(/geo mcp --max-credits-per-call 5/);
    expect(charges()).toBe(before);
  });

  it('a claims file inside the allowed folder naming photos outside it is refused whole: nothing read or sent', async () => {
    const before = sb.ledger().keys[KEYS.pro]!.requests;
    for (const file of ['escape.csv', 'absolute.csv', join(outside, 'claims.csv'), '../outside/claims.csv']) {
      const r = await call({ claims_file: file });
      expect(r.isError, file).toBe(true);
      expect(r.data.error?.code, `${file}: ${r.text}`).toBe('outside_allowed_dirs');
      expect(r.text, file).toMatch(/outside the folders this server may read.*nothing was read or sent/);
    }
    expect(sb.ledger().keys[KEYS.pro]!.requests).toBe(before);
  });
});
