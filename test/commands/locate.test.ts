/** geo locate against a real sandbox: views by depth, TTY and piped, --json as received, stdin. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GeolocateResponseSchema } from '../../src/api/schemas.js';
import { withSandbox } from '../helpers/sandbox.js';
import { ANSI, IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = (argv: string[], opts = {}) => runner(sb)(argv, opts);
const PARIS = { lat: 48.85837, lng: 2.294481 };

describe('geo locate, piped (plain text, no ANSI)', () => {
  it('depth 1: place, coordinates, confidence number+bar+word, address, three map links, reasoning', async () => {
    // --keep-metadata: the sandbox places the photo at the GPS it is sent (a known answer to check).
    const r = await run(['locate', `${IMG}paris.jpg`, '--keep-metadata']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stdout).toMatch(/^.*Paris.*France\n/);
    expect(r.stdout).toMatch(/coordinates +48\.858\d{3}, 2\.294\d{3}\n/);
    expect(r.stdout).toMatch(/confidence +0\.\d\d \[[#.]{10}\] (high|medium|low|very low)\n/);
    expect(r.stdout).toMatch(/address +/);
    expect(r.stdout).toContain('https://www.google.com/maps/search/?api=1&query=48.858');
    expect(r.stdout).toContain('https://www.openstreetmap.org/?mlat=48.858');
    expect(r.stdout).toContain('https://maps.apple.com/?ll=48.858');
    expect(r.stdout).toContain('Reasoning\n  EXIF GPS');
    expect(r.stdout).not.toContain('Thinking');
    expect(r.stdout).not.toContain('Forensic');
    expect(r.stdout).toMatch(/depth 1 \(Surface\) · model orca-1\.5 · server [\d.]+ s · total [\d.]+ s/);
    expect(r.stdout).toMatch(/analysis an_[0-9a-f]+/);
    // The plan before spending (issue 11), what --keep-metadata sends (issue 22), then the banner;
    // the balance is not read for one image.
    const [plan, kept, banner, ...rest] = r.stderr.split('\n');
    expect([plan, banner, rest]).toEqual(['plan: 1 input · 1 to send × depth 1 (1 credit) = up to 1 credit', 'sandbox: simulated results, sandbox credits, no real money', ['']]);
    expect(kept).toMatch(/^--keep-metadata: paris\.jpg is sent as it is, with its GPS position/);
  });

  it('depth 2 adds thinking and visual clues (with their image coordinates when present)', async () => {
    const r = await run(['locate', `${IMG}nogps.jpg`, '--depth', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Reasoning\n  [sandbox]');
    expect(r.stdout).toMatch(/Thinking\n {2}1\. /);
    expect(r.stdout).toMatch(/Visual clues \(\d+\)\n {2}- /);
    expect(r.stdout).toMatch(/- .+ \(bbox=\{"x":/);
    expect(r.stdout).not.toContain('Forensic');
  });

  it('depth 3 adds the forensic verdict, evidence, candidates with distance and calibration', async () => {
    const r = await run(['locate', `${IMG}paris.jpg`, '-d', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stdout).toMatch(/Forensic\n {2}precision tier +\w+\n {2}verification status +\w+/);
    expect(r.stdout).toMatch(/Supports \(\d+\)\n {2}\+ /);
    expect(r.stdout).toMatch(/Contradictions \(\d+\)\n/);
    expect(r.stdout).toMatch(/Candidates \(\d+\)\n {2}label +coordinates +confidence +distance +map\n/);
    expect(r.stdout).toMatch(/ \d+% +[\d.]+ km +https:\/\/www\.openstreetmap\.org\/\?mlat=/);
    expect(r.stdout).toMatch(/Calibration\n {2}\w+/);
    expect(r.stdout).toContain('depth 3 (Forensic)');
  });

  it('--json prints the body exactly as received, which parses with the contract schema', async () => {
    const r = await run(['locate', `${IMG}paris.jpg`, '--depth', '3', '--json', '--keep-metadata']);
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith('}\n')).toBe(true);
    const body = GeolocateResponseSchema.parse(JSON.parse(r.stdout));
    expect(body.depth).toBe(3);
    expect(body.location.latitude).toBeCloseTo(PARIS.lat, 2);
    expect(body.forensic?.precision_tier).toBeTruthy();
    expect(r.stdout).not.toMatch(ANSI);
  });

  it('--format ndjson prints one line {input, sha256, ok, result, exif}', async () => {
    const r = await run(['locate', `${IMG}paris.jpg`, '--format', 'ndjson']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ input: `${IMG}paris.jpg`, sha256: '868735296a0bd351a2afca9abc7ee9683183a56d097dc3fc87607e1bb724618a', ok: true });
    GeolocateResponseSchema.parse(line.result);
    expect(line.exif).toBeTruthy();
  });

  it('reads the image from stdin with -, its metadata removed like a file\'s (--keep-metadata sends it)', async () => {
    const r = await run(['locate', '-', '--json'], { stdin: readFileSync(`${IMG}tokyo.jpg`) });
    expect(r.code).toBe(0);
    expect(GeolocateResponseSchema.parse(JSON.parse(r.stdout)).reasoning).toMatch(/^\[sandbox\] Synthetic result: no EXIF GPS/);
    const kept = await run(['locate', '-', '--json', '--keep-metadata'], { stdin: readFileSync(`${IMG}tokyo.jpg`) });
    expect(kept.code).toBe(0);
    expect(GeolocateResponseSchema.parse(JSON.parse(kept.stdout)).location.latitude).toBeCloseTo(35.6586, 2);
  });

  it('the config default depth applies when --depth is absent', async () => {
    const cfg = (await import('../helpers/run-cli.js')).tempConfigDir();
    const env = { GEO_CONFIG_DIR: cfg };
    expect((await run(['config', 'set', 'depth', '2'], { env })).code).toBe(0);
    const r = await run(['locate', `${IMG}paris.jpg`, '--json'], { env });
    expect(JSON.parse(r.stdout).depth).toBe(2);
    const flag = await run(['locate', `${IMG}paris.jpg`, '--json', '-d', '1'], { env });
    expect(JSON.parse(flag.stdout).depth).toBe(1);
  });
});

describe('geo locate on a terminal', () => {
  it('colours the view, boxes the candidate table, spins on stderr with the cost and latency', async () => {
    const r = await run(['locate', `${IMG}paris.jpg`, '--depth', '3'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(ANSI);
    expect(r.stdout).toContain('█');
    expect(r.stdout).toContain('┌');
    expect(r.stdout).toContain('https://www.openstreetmap.org/?mlat=');
    expect(r.stderr).toContain('sandbox: simulated results, sandbox credits, no real money');
    expect(r.stderr).toContain('locating paris.jpg · depth 3 · 10 credits · usually 70-150 s');
  });

  it('NO_COLOR keeps the terminal layout without colour', async () => {
    const r = await run(['locate', `${IMG}paris.jpg`], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stdout).toContain('█');
  });

  it('--quiet: no banner, no spinner, data only', async () => {
    const r = await run(['locate', `${IMG}paris.jpg`, '--quiet'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('coordinates');
  });
});

describe('replays', () => {
  it('the same --idempotency-key replays the stored response free, and says so', async () => {
    const key = `locate-test-${Date.now()}`;
    const first = await run(['locate', `${IMG}sydney.jpg`, '--idempotency-key', key]);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain('replayed');
    const before = footprint(sb);
    const again = await run(['locate', `${IMG}sydney.jpg`, '--idempotency-key', key]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('replayed: the stored response for this Idempotency-Key, no credits charged');
    const after = footprint(sb);
    expect(after.debits).toBe(before.debits);
    expect(after.model_calls).toBe(before.model_calls);
    const json = await run(['locate', `${IMG}sydney.jpg`, '--idempotency-key', key, '--json']);
    expect(json.stderr).toContain('replayed');
    expect(JSON.parse(json.stdout).analysis_id).toBe(JSON.parse((await run(['locate', `${IMG}sydney.jpg`, '--idempotency-key', key, '--json'])).stdout).analysis_id);
  });
});
