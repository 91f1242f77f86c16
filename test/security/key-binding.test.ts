/**
 * Issue 20, item 1: a key goes only to the service it belongs to. Two independent servers, A and
 * B (plain node:http on loopback, different ports, so different origins), record the
 * Authorization header of every request. Profile "a" holds KA for A (the active one), profile "b"
 * KB for B, and GEO_API_KEY may hold KE. Every pairing of GEO_API_KEY, --base-url, GEO_BASE_URL,
 * --profile and GEO_PROFILE runs `geo credits`; an oracle written from the rule (not from
 * src/config/resolve.ts) says where the key must go, or that the run is refused (exit 2, one
 * line naming the profile and both origins, nothing sent). Across all of them B never sees KA and
 * A never sees KB.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const KA = 'orca_live_AAAAkeyForServerA01';
const KB = 'orca_live_BBBBkeyForServerB02';
const KE = 'orca_live_EEEEkeyFromTheEnv03';
const DEFAULT = 'https://oceanir.ai';

interface Seen {
  path: string;
  auth: string | undefined;
}
interface Witness {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** Answers every request with a valid credits snapshot, and remembers who asked with which key. */
async function witness(): Promise<Witness> {
  const seen: Seen[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: { balance: 1, api_balance: 1, total_available: 1, total_purchased: null, total_used: null } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let A: Witness;
let B: Witness;
/** Everything each server ever received, across the whole file. */
const everA: Seen[] = [];
const everB: Seen[] = [];
beforeAll(async () => {
  A = await witness();
  B = await witness();
});
beforeEach(() => {
  everA.push(...A.seen.splice(0));
  everB.push(...B.seen.splice(0));
});
afterAll(async () => {
  everA.push(...A.seen);
  everB.push(...B.seen);
  await A.close();
  await B.close();
});

/** A config folder with profile a (KA at A, active) and profile b (KB at B), keys in the file. */
function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'geo-binding-'));
  const profiles = { a: { baseUrl: A.url, key: KA }, b: { baseUrl: B.url, key: KB } };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ active: 'a', profiles, defaults: {} }), { mode: 0o600 });
  return dir;
}

type Url = 'A' | 'B' | undefined;
type Name = 'a' | 'b' | undefined;
interface Pairing {
  envKey: boolean;
  flagUrl: Url;
  envUrl: Url;
  flagProfile: Name;
  envProfile: Name;
}

const urlOf = (u: 'A' | 'B') => (u === 'A' ? A.url : B.url);

/** The rule as the issue states it: where the key goes, or a refusal. */
function oracle(p: Pairing): { refused: true; profile: 'a' | 'b'; own: 'A' | 'B'; asked: 'A' | 'B' } | { refused: false; key: string; to: 'A' | 'B' | 'default' } {
  const explicit = p.flagUrl ?? p.envUrl;
  // GEO_API_KEY pairs with --base-url / GEO_BASE_URL or the default, never a profile's host; a --profile flag picks the profile instead.
  if (p.envKey && !p.flagProfile) return { refused: false, key: KE, to: explicit ?? 'default' };
  const profile = p.flagProfile ?? p.envProfile ?? 'a';
  const own = profile === 'a' ? 'A' : 'B';
  if (explicit && explicit !== own) return { refused: true, profile, own, asked: explicit };
  return { refused: false, key: profile === 'a' ? KA : KB, to: own };
}

function argvEnv(p: Pairing, dir: string): { argv: string[]; env: Record<string, string> } {
  const argv = [...(p.flagUrl ? ['--base-url', urlOf(p.flagUrl)] : []), ...(p.flagProfile ? ['--profile', p.flagProfile] : [])];
  const env: Record<string, string> = { GEO_CONFIG_DIR: dir, ...(p.envKey ? { GEO_API_KEY: KE } : {}), ...(p.envUrl ? { GEO_BASE_URL: urlOf(p.envUrl) } : {}), ...(p.envProfile ? { GEO_PROFILE: p.envProfile } : {}) };
  return { argv, env };
}

const PAIRINGS: Pairing[] = [];
for (const envKey of [false, true])
  for (const flagUrl of [undefined, 'A', 'B'] as Url[])
    for (const envUrl of [undefined, 'A', 'B'] as Url[])
      for (const flagProfile of [undefined, 'a', 'b'] as Name[])
        for (const envProfile of [undefined, 'a', 'b'] as Name[]) PAIRINGS.push({ envKey, flagUrl, envUrl, flagProfile, envProfile });

const label = (p: Pairing) =>
  [p.envKey ? 'GEO_API_KEY' : '', p.flagUrl ? `--base-url ${p.flagUrl}` : '', p.envUrl ? `GEO_BASE_URL=${p.envUrl}` : '', p.flagProfile ? `--profile ${p.flagProfile}` : '', p.envProfile ? `GEO_PROFILE=${p.envProfile}` : ''].filter(Boolean).join(' ') || 'nothing set (active profile a)';

describe(`every pairing of GEO_API_KEY, --base-url, GEO_BASE_URL, --profile and GEO_PROFILE (${PAIRINGS.length} runs of geo credits)`, () => {
  it('each key reaches only the server the rule names; mismatches are refused with exit 2 and nothing sent', async () => {
    const dir = configDir();
    const tally = { refused: 0, toA: 0, toB: 0, toDefault: 0 };
    for (const p of PAIRINGS) {
      const want = oracle(p);
      const { argv, env } = argvEnv(p, dir);
      const where = label(p);
      if (!want.refused && want.to === 'default') {
        // The default service cannot be reached from here: `keys show` says where the key would go, sending nothing.
        const r = await runCli([...argv, 'keys', 'show', '--json'], { env });
        expect(r.code, `${where}: ${r.stderr}`).toBe(0);
        expect(JSON.parse(r.stdout), where).toMatchObject({ key: { source: 'env', storage: 'env' }, baseUrl: { value: DEFAULT, source: 'default' } });
        expect(A.seen.length + B.seen.length, where).toBe(0);
        tally.toDefault++;
        continue;
      }
      const r = await runCli([...argv, 'credits', '--json'], { env, sleep: async () => {} });
      const seenA = A.seen.splice(0);
      const seenB = B.seen.splice(0);
      everA.push(...seenA);
      everB.push(...seenB);
      if (want.refused) {
        expect(r.code, `${where}: ${r.stderr}`).toBe(2);
        expect(r.stdout, where).toBe('');
        const lines = r.stderr.trimEnd().split('\n');
        expect(lines, where).toHaveLength(1);
        expect(lines[0], where).toContain(`profile "${want.profile}" holds a key for ${urlOf(want.own)}, not for ${urlOf(want.asked)}`);
        expect(lines[0], where).toMatch(/nothing was sent — hint: for http:\/\/127\.0\.0\.1:\d+, add a profile \(geo keys add NAME --base-url .*\) or give that service's key in GEO_API_KEY/);
        expect(seenA.length + seenB.length, `${where}: requests sent`).toBe(0);
        tally.refused++;
        continue;
      }
      expect(r.code, `${where}: ${r.stderr}`).toBe(0);
      const [hit, miss] = want.to === 'A' ? [seenA, seenB] : [seenB, seenA];
      expect(hit.map((s) => s.auth), where).toEqual([`Bearer ${want.key}`]);
      expect(miss, where).toEqual([]);
      if (want.to === 'A') tally.toA++;
      else tally.toB++;
    }
    // Every outcome is exercised, not just one of them (counts follow from the 162 pairings).
    expect(tally).toEqual({ refused: 60, toA: 52, toB: 47, toDefault: 3 });
  });

  it('B never saw A\'s key and A never saw B\'s: each saw only its own key or the one from the environment', () => {
    expect(everA.length + everB.length).toBeGreaterThan(0);
    for (const s of everA) expect([`Bearer ${KA}`, `Bearer ${KE}`]).toContain(s.auth);
    for (const s of everB) expect([`Bearer ${KB}`, `Bearer ${KE}`]).toContain(s.auth);
  });
});

describe('the refusal covers every command that sends, and only the origin counts', () => {
  it('locate, api, usage and keys test are refused with nothing sent when GEO_BASE_URL names B for profile a', async () => {
    const dir = configDir();
    for (const argv of [['locate', join(FIXTURES, 'paris.jpg')], ['api', '/api/v1/credits'], ['usage'], ['keys', 'test'], ['analyses'], ['cases', 'list']]) {
      const r = await runCli(argv, { env: { GEO_CONFIG_DIR: dir, GEO_BASE_URL: B.url }, sleep: async () => {} });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`profile "a" holds a key for ${A.url}, not for ${B.url} (from GEO_BASE_URL)`);
    }
    expect(A.seen.length + B.seen.length).toBe(0);
  });

  it('the same origin with another path is the same service: the key goes there', async () => {
    const r = await runCli(['--base-url', `${A.url}/gateway`, 'credits', '--json'], { env: { GEO_CONFIG_DIR: configDir() } });
    expect(r.code, r.stderr).toBe(0);
    expect(A.seen.map((s) => [s.path, s.auth])).toEqual([['/gateway/api/v1/credits', `Bearer ${KA}`]]);
    expect(B.seen).toEqual([]);
  });

  it('localhost and 127.0.0.1 are different origins', async () => {
    const r = await runCli(['credits'], { env: { GEO_CONFIG_DIR: configDir(), GEO_BASE_URL: A.url.replace('127.0.0.1', 'localhost') } });
    expect(r.code).toBe(2);
    expect(A.seen.length + B.seen.length).toBe(0);
  });
});

describe('the sandbox flows keep working', () => {
  const sb = withSandbox();

  it('--sandbox wins over a profile and a stray GEO_BASE_URL: its own key, its own in-process server', async () => {
    const r = await runCli(['--sandbox', 'credits', '--json'], { env: { GEO_CONFIG_DIR: configDir(), GEO_BASE_URL: B.url } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data.total_available).toBeGreaterThan(0);
    expect(A.seen.length + B.seen.length).toBe(0);
  });

  it('GEO_API_KEY=orca_sandbox_pro with GEO_BASE_URL at a local `geo sandbox`', async () => {
    const r = await runCli(['credits', '--json'], { env: { GEO_CONFIG_DIR: configDir(), GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url } });
    expect(r.code, r.stderr).toBe(0);
    expect(A.seen.length + B.seen.length).toBe(0);
  });

  it('a profile pointing at a local sandbox locates with its key, also with --base-url at the same origin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-binding-sb-'));
    const add = await runCli(['keys', 'add', 'local', '--stdin', '--base-url', sb.url], { stdin: KEYS.pro, env: { GEO_CONFIG_DIR: dir } });
    expect(add.code, add.stderr).toBe(0);
    const before = sb.ledger().keys[KEYS.pro]!.debits;
    for (const extra of [[], ['--base-url', sb.url]]) {
      const r = await runCli([...extra, 'locate', join(FIXTURES, 'paris.jpg'), '--json', '--fresh'], { env: { GEO_CONFIG_DIR: dir, GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-binding-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-binding-state-')) } });
      expect(r.code, r.stderr).toBe(0);
    }
    expect(sb.ledger().keys[KEYS.pro]!.debits).toBe(before + 2);
  });
});
