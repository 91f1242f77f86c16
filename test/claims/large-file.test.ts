/**
 * A claims file of many rows is read as a stream: 200,000 rows naming four photos (the same shape
 * as bench/claims-memory.mjs's million) plan four requests with --dry-run, where the whole file
 * spread into one call's arguments used to end in "Maximum call stack size exceeded". The built
 * program, against the sandbox; its peak RSS for a million rows is a figure of the bench.
 */
import { copyFileSync, createWriteStream, mkdtempSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const PHOTOS = ['paris.jpg', 'tokyo.jpg', 'sydney.jpg', 'newyork.jpg'];
const PLACES = ['"Kharkiv, UA"', '"49.99,36.23"', 'Paris', '"48.8584,2.2945"'];

async function claimsFile(rows: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'geo-claims-large-'));
  for (const p of PHOTOS) copyFileSync(FIXTURES + p, join(dir, p));
  const file = join(dir, 'claims.csv');
  const out = createWriteStream(file);
  out.write('image,at\n');
  for (let i = 0; i < rows; i++) if (!out.write(`${PHOTOS[i % 4]},${PLACES[i % 4]}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return file;
}

describe('a claims file of 200,000 rows', () => {
  it('--dry-run plans one request per photo, exit 0: no stack overflow, nothing sent', async () => {
    const file = await claimsFile(200_000);
    const before = sb.ledger().keys[KEYS.pro]!.requests;
    const r = await spawnGeo(['claims', 'check', file, '--dry-run'], { env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url } });
    expect(r.stderr).not.toMatch(/Maximum call stack|not checked/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^plan: 4 inputs · 4 to send × depth 1 \(1 credit\) = up to 4 credits/m);
    expect(r.stdout).toContain('dry run: nothing was sent');
    // The balance read is all the dry run asks of the service.
    expect(Object.keys(sb.ledger().keys[KEYS.pro]!.idempotency)).toHaveLength(0);
    expect(sb.ledger().keys[KEYS.pro]!.requests - before).toBeLessThanOrEqual(1);
  }, 60_000);
});
