/**
 * The sandbox's test time-stamp authority (DESIGN.md "Sandbox surface"): POST /__sandbox/tsa answers
 * RFC 3161 queries with tokens that geo's verifier and `openssl ts -verify` accept under the CA of
 * GET /__sandbox/tsa/ca.pem, and no other; the CA is one per sandbox run. Then the round the docs
 * give, with no network: geo cases stamp CASE --tsa URL/__sandbox/tsa, geo cases verify CASE
 * --require-timestamp --tsa-ca ca.pem, and each place a token is shown says it is sandbox time.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { timestampQuery } from '../../src/evidence/tsa-request.js';
import { TimestampError } from '../../src/evidence/tsa-errors.js';
import { verifyTimestamp } from '../../src/evidence/tsa-verify.js';
import { startTestSandbox, withSandbox } from '../helpers/sandbox.js';
import { opensslVerify } from '../helpers/tsa.js';
import { caseRunner, tmp } from '../cases/helpers.js';

const sb = withSandbox();
const digest = createHash('sha256').update('a custody head').digest();

const post = (url: string, body: Uint8Array, type = 'application/timestamp-query') => fetch(`${url}/__sandbox/tsa`, { method: 'POST', headers: { 'content-type': type }, body });
const caOf = async (url: string) => (await fetch(`${url}/__sandbox/tsa/ca.pem`)).text();

describe('POST /__sandbox/tsa and GET /__sandbox/tsa/ca.pem', () => {
  it('a query gets a token over its digest and nonce that geo and openssl ts -verify accept under the sandbox CA, marked as sandbox time', async () => {
    const q = timestampQuery(digest);
    const res = await post(sb.url, q.der);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/timestamp-reply');
    const reply = Buffer.from(await res.arrayBuffer());
    const ca = await caOf(sb.url);
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
    const facts = verifyTimestamp(reply, { digest }, { trusted: ca, nonce: q.nonce });
    expect(facts).toMatchObject({ sandbox: true, hashAlg: 'sha256', imprint: digest.toString('hex'), nonce: q.nonce.toString('hex'), tsa: 'O=geo sandbox, CN=geo sandbox TSA (sandbox time only)' });
    expect(Math.abs(Date.parse(facts.genTime) - Date.now())).toBeLessThan(60_000);
    const openssl = await opensslVerify({ dir: tmp('geo-sandbox-tsa-') }, reply, digest.toString('hex'), ca);
    expect(openssl.ok, openssl.output).toBe(true);
  });

  it('the CA is one for the run; another sandbox has another, which does not trust this one\'s tokens', async () => {
    const reply = Buffer.from(await (await post(sb.url, timestampQuery(digest).der)).arrayBuffer());
    expect(await caOf(sb.url)).toBe(await caOf(sb.url));
    const second = await startTestSandbox();
    try {
      const otherCa = await caOf(second.url);
      expect(otherCa).not.toBe(await caOf(sb.url));
      let failure: string | undefined;
      try {
        verifyTimestamp(reply, { digest }, { trusted: otherCa });
      } catch (err) {
        failure = (err as TimestampError).failure;
      }
      expect(failure).toBe('untrusted-tsa');
    } finally {
      await second.close();
    }
  });

  it('what is no query gets a reply that refuses it and says why; another type, 415; GET /__sandbox/tsa, 405', async () => {
    const refused = Buffer.from(await (await post(sb.url, Buffer.from('not der'))).arrayBuffer());
    const file = join(tmp('geo-sandbox-tsa-'), 'refused.tsr');
    writeFileSync(file, refused);
    const text = execFileSync('openssl', ['ts', '-reply', '-in', file, '-text'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(text).toMatch(/Status: Rejected/);
    expect(text).toContain('not a TimeStampReq');
    expect((await post(sb.url, timestampQuery(digest).der, 'application/octet-stream')).status).toBe(415);
    const get = await fetch(`${sb.url}/__sandbox/tsa`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('stamping a case offline against the sandbox TSA', () => {
  it('geo cases stamp, then verify --require-timestamp --tsa-ca ca.pem: exit 0; stamp, cases show and verify (table and JSON) say sandbox time', async () => {
    const c = caseRunner(sb);
    const config = tmp('geo-sandbox-tsa-config-');
    const geo = (argv: string[]) => c.run(argv, { env: { GEO_CONFIG_DIR: config, HOME: config } });
    const caFile = join(config, 'ca.pem');
    writeFileSync(caFile, await caOf(sb.url));
    expect((await geo(['cases', 'create', '--name', 'Offline', '--local'])).code).toBe(0);
    const SANDBOX_TIME = "sandbox time: geo sandbox's test authority, not evidence";

    const stamp = await geo(['cases', 'stamp', 'Offline', '--tsa', `${sb.url}/__sandbox/tsa`]);
    expect(stamp.code, stamp.stderr).toBe(0);
    expect(stamp.stdout).toMatch(new RegExp(`^stamped .*says O=geo sandbox, CN=geo sandbox TSA \\(sandbox time only\\) \\(entry 2, head_stamped\\); ${SANDBOX_TIME}\\n$`));

    const verify = await geo(['cases', 'verify', 'Offline', '--require-timestamp', '--tsa-ca', caFile]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(new RegExp(`timestamps +1 of 1 trusted timestamp valid \\(it is sandbox time\\)\\n +✓ entry 2: .* under your --tsa-ca; ${SANDBOX_TIME}\\n`));
    const json = JSON.parse((await geo(['cases', 'verify', 'Offline', '--require-timestamp', '--tsa-ca', caFile, '--json'])).stdout);
    expect(json.timestamps.stamps).toEqual([expect.objectContaining({ ok: true, trust: 'tsa-ca', sandbox: true })]);

    const show = await geo(['cases', 'show', 'Offline']);
    expect(show.stdout).toMatch(new RegExp(`timestamps +entry 2: the head of entry 1 by \\S+Z, from ${sb.url}/__sandbox/tsa; ${SANDBOX_TIME}\\n`));
    expect(JSON.parse((await geo(['cases', 'show', 'Offline', '--json', 'timestamps'])).stdout)).toEqual({ timestamps: [expect.objectContaining({ entry: 2, seq: 1, sandbox: true })] });

    // The bundle's VERIFY.md says it too, and the bundle still verifies as made.
    const zip = join(config, 'offline.zip');
    const bundle = await geo(['cases', 'bundle', 'Offline', zip]);
    expect(bundle.code, bundle.stderr).toBe(0);
    const verifyMd = execFileSync('python3', ['-c', 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); n = [x for x in z.namelist() if x.endswith("VERIFY.md")][0]; sys.stdout.write(z.read(n).decode())', zip], { encoding: 'utf8' });
    expect(verifyMd).toMatch(/Sandbox time, not evidence: \S+\.tsr came from geo sandbox's test authority\./);
    expect((await geo(['cases', 'verify', zip])).code).toBe(0);
  });
});
