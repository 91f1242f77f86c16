/**
 * Issue 33, "Must show" 2: a claims CSV of 200 rows whose images are 150 already located (by
 * `geo locate`, stored) and 50 new: the plan says 50 to send, the sandbox's ledger shows 50
 * charges and no more, and a rerun charges nothing. The images are 200 distinct small JPEGs made
 * with the committed fixture encoder (distinct pixels: geo removes metadata, so only pixels count).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeDistinctJpegs } from '../helpers/distinct-images.js';
import { type RunOptions, runCli } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const state = mkdtempSync(join(tmpdir(), 'geo-claims-bulk-'));
const run = (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_STATE_DIR: state, GEO_DATA_DIR: state, ...opts.env } });
const charges = () => sb.ledger().keys[KEYS.pro]!.debits;

describe('geo claims check: 200 claims, 150 images already stored', () => {
  it('plans 50 to send (refused without consent above the threshold), is charged 50, and a rerun is charged nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-claims-200-'));
    const images = await writeDistinctJpegs(dir, 200);
    expect(new Set(images.map((p) => createHash('sha256').update(readFileSync(p)).digest('hex'))).size).toBe(200);

    const list = join(dir, 'first-150.txt');
    writeFileSync(list, images.slice(0, 150).join('\n') + '\n');
    const located = await run(['locate', '--from-file', list, '--yes', '--format', 'ndjson']);
    expect(located.code, located.stderr).toBe(0);
    expect(charges()).toBe(150);

    // Rows name the images relative to the claims file; the places vary.
    const places = ['Kharkiv, UA', '49.99,36.23', 'Lviv', 'Paris, FR'];
    const csv = join(dir, 'claims.csv');
    writeFileSync(csv, ['image,at', ...images.map((p, i) => `${basename(p)},"${places[i % places.length]}"`)].join('\n') + '\n');

    const dry = await run(['claims', 'check', csv, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^plan: 200 inputs, 150 already in your results · 50 to send × depth 1 \(1 credit\) = up to 50 credits/m);
    expect(charges()).toBe(150);

    // 50 credits is above the confirm threshold (20): on a pipe, without --yes, nothing is sent.
    const refused = await run(['claims', 'check', csv, '--format', 'ndjson']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the plan spends up to 50 credits, above the confirm threshold of 20, and nothing can ask for confirmation .*; nothing was sent/);
    expect(charges()).toBe(150);

    const first = await run(['claims', 'check', csv, '--yes', '--format', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^plan: 200 inputs, 150 already in your results · 50 to send × depth 1 \(1 credit\) = up to 50 credits · balance 9850$/m);
    expect(charges()).toBe(200);
    const lines = first.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { row: number; verdict: string | null });
    expect(lines).toHaveLength(200);
    expect(lines.map((l) => l.row)).toEqual(images.map((_, i) => i + 1));
    expect(lines.every((l) => l.verdict !== null)).toBe(true);

    const again = await run(['claims', 'check', csv, '--format', 'ndjson']);
    expect(again.code, again.stderr).toBe(0);
    expect(charges()).toBe(200);
    expect(again.stderr).not.toMatch(/^plan:/m);
    expect(again.stderr).toMatch(/200 answers from your earlier runs \(stored results\): not sent, not charged/);
    expect(again.stdout).toBe(first.stdout);
  });
});
