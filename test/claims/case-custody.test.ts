/**
 * Issue 33 item 5 with issue 31's signed custody: `geo claims check --case` on a case whose analyst
 * has a signing key chosen. The claim_checked entries are signed as locate's entries are (the
 * head signed after the run's appends), so `geo cases verify --require-signature` passes; the
 * case bundles, and the bundle verifies with geo anywhere and with the standard tools VERIFY.md
 * lists (sha256sum, python3 verify_chain.py, ssh-keygen), its custody.jsonl holding the checks.
 * Answers come from the independent answer server (not a sandbox): no --allow-sandbox needed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChargingServer, answer, startChargingServer } from '../helpers/charging-server.js';
import { writeDistinctJpegs } from '../helpers/distinct-images.js';
import { runCli, spawnGeo } from '../helpers/run-cli.js';
import { makeKey, tmp } from '../helpers/ssh.js';
import { caseId, custodyOf, events } from '../cases/helpers.js';

let server: ChargingServer;
let csv: string;
const home = tmp('geo-claims-case-home-');
const keys = tmp('geo-claims-case-keys-');
const alice = makeKey(keys, 'alice', { comment: 'alice@example.org' });
const ALLOWED = join(keys, 'allowed_signers');
writeFileSync(ALLOWED, `alice@example.org namespaces="geo-custody" ${alice.pub}\n`);
const env = () => ({ HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), GEO_BASE_URL: server.url, GEO_API_KEY: 'orca_live_claimcase' });
const geo = (argv: string[]) => runCli(argv, { env: env() });

beforeAll(async () => {
  server = await startChargingServer({ delayMs: 0, chosenOnly: true });
  const dir = tmp('geo-claims-case-img-');
  const imgs = await writeDistinctJpegs(dir, 2, 'case');
  const sent = async (p: string) => (JSON.parse((await geo(['locate', p, '--dry-run', '--json'])).stdout) as { image: { sha256: string } }).image.sha256;
  // Near Kharkiv and sure (agrees); in Lviv and sure, nothing near (contradicts).
  server.answers.set(await sent(imgs[0]!), { plain: answer({ lat: 49.993, lng: 36.231, confidence: 0.82, depth: 3 }) });
  server.answers.set(await sent(imgs[1]!), { plain: answer({ lat: 49.842, lng: 24.032, confidence: 0.81, depth: 3 }) });
  csv = join(dir, 'claims.csv');
  writeFileSync(csv, ['image,at', ...imgs.map((p) => `${basename(p)},"Kharkiv, UA"`)].join('\n') + '\n');
  for (const argv of [['keys', 'signing', 'use', alice.path, '--principal', 'alice@example.org'], ['cases', 'create', '--name', 'Claims', '--local']]) {
    const r = await geo(argv);
    expect(r.code, r.stderr).toBe(0);
  }
}, 60_000);
afterAll(() => server.close());

describe('claim checks kept in a signed case', () => {
  let id: string;

  it('the claim_checked entries are signed as they are appended; geo cases verify --require-signature passes', async () => {
    const r = await geo(['claims', 'check', csv, '--depth', '3', '--case', 'Claims', '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    id = caseId(join(home, 'data'), 'Claims');
    const log = custodyOf(join(home, 'data'), id);
    expect(events(log).slice(-3)).toEqual(['claim_checked', 'claim_checked', 'head_signed']);
    expect(log.filter((e) => e.event === 'claim_checked').map((e) => e.data.verdict)).toEqual(['agrees', 'contradicts']);
    const v = await geo(['cases', 'verify', 'Claims', '--allowed-signers', ALLOWED, '--require-signature']);
    expect(v.stderr).toBe('');
    expect(v.code, v.stdout).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`signatures +1 of 1 signature valid; entries 1 to ${log.length - 1} covered`));
  }, 30_000);

  it('bundles; the bundle verifies with geo (no config) and with every command VERIFY.md lists', async () => {
    const zip = join(tmp('geo-claims-case-out-'), 'claims.zip');
    const b = await geo(['cases', 'bundle', 'Claims', zip]);
    expect(b.code, b.stderr).toBe(0);
    const anywhere = await spawnGeo(['cases', 'verify', zip]);
    expect(anywhere.stderr).toBe('');
    expect(anywhere.code, anywhere.stdout).toBe(0);
    const dir = tmp('geo-claims-case-x-');
    execFileSync('unzip', ['-q', zip, '-d', dir]);
    const lines = readFileSync(join(dir, 'custody.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string });
    expect(lines.filter((e) => e.event === 'claim_checked')).toHaveLength(2);
    const commands = readFileSync(join(dir, 'VERIFY.md'), 'utf8').match(/```sh\n[\s\S]*?```/g)!.flatMap((s) => s.split('\n').slice(1, -1));
    expect(commands).toContain('python3 verify_chain.py');
    for (const c of commands) {
      const o = spawnSync('sh', ['-c', c], { cwd: dir, env: { PATH: process.env.PATH }, encoding: 'utf8' });
      expect(o.status, `${c}\n${o.stdout}${o.stderr}`).toBe(0);
    }
  }, 30_000);
});
