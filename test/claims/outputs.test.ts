/**
 * Issue 33 item 5: every output of `geo claims check`, against the independent answer server (the
 * verdicts are chosen, and its strings hostile: a formula, markup, a terminal escape): the table
 * fits the terminal; --json FIELDS and --jq select through the shared filter; NDJSON; CSV keeps a
 * formula as text; GeoJSON and KML draw the claim as its tolerance circle, the estimate, the
 * candidates and a line between; the HTML report puts the verdict first under its CSP; --case logs
 * a claim_checked entry naming the answer's sha256 and the case still verifies; --fail-on
 * contradicts exits 9 from the real binary.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/evidence/custody-verify.js';
import { type ChargingServer, answer, startChargingServer } from '../helpers/charging-server.js';
import { writeDistinctJpegs } from '../helpers/distinct-images.js';
import { type RunOptions, runCli, spawnGeo } from '../helpers/run-cli.js';
import { dbRows } from '../helpers/store.js';
import { custodyLines, custodyOf } from '../cases/helpers.js';

let server: ChargingServer;
let csv: string;
let rows: string[];
const data = mkdtempSync(join(tmpdir(), 'geo-claims-out-'));
const env = () => ({ GEO_API_KEY: 'orca_live_claimtest', GEO_BASE_URL: server.url, GEO_STATE_DIR: data, GEO_DATA_DIR: data });
const run = (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { ...env(), ...opts.env } });
const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
const HOSTILE = '=HYPERLINK("http://evil")<script>alert(1)</script>\u001b]8;;http://evil\u0007';

beforeAll(async () => {
  server = await startChargingServer({ delayMs: 0, chosenOnly: true });
  const dir = mkdtempSync(join(tmpdir(), 'geo-claims-outimg-'));
  const imgs = await writeDistinctJpegs(dir, 3, 'out');
  const sent = async (p: string) => (JSON.parse((await run(['locate', p, '--dry-run', '--json'])).stdout) as { image: { sha256: string } }).image.sha256;
  // Near Kharkiv and sure; in Lviv and sure (far from Kharkiv); in Lviv and unsure.
  server.answers.set(await sent(imgs[0]!), { plain: answer({ lat: 49.993, lng: 36.231, confidence: 0.82, depth: 3, city: HOSTILE, reasoning: HOSTILE, candidates: [{ lat: 50.1, lng: 36.4, label: HOSTILE, confidence: 20 }] }) });
  server.answers.set(await sent(imgs[1]!), { plain: answer({ lat: 49.842, lng: 24.032, confidence: 0.81, depth: 3, candidates: [{ lat: 50.06, lng: 19.94, label: 'Kraków', confidence: 9 }] }) });
  server.answers.set(await sent(imgs[2]!), { plain: answer({ lat: 49.842, lng: 24.032, confidence: 0.3, depth: 3 }) });
  csv = join(dir, 'claims.csv');
  rows = imgs.map((p) => basename(p));
  writeFileSync(csv, ['image,at', ...rows.map((r) => `${r},"Kharkiv, UA"`)].join('\n') + '\n');
});
afterAll(() => server.close());

describe('geo claims check: outputs', () => {
  it('the table fits an 80-column terminal; each claim\'s reason is under it, server text escaped', async () => {
    const r = await run(['claims', 'check', csv, '--depth', '3', '--yes'], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    // Widths as the terminal shows them: geo's own colours take no columns.
    for (const line of r.stdout.replace(/\u001b\[[0-9;]*m/g, '').split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(/agrees/);
    expect(r.stdout).toMatch(/contradicts/);
    expect(r.stdout).toMatch(/unverifiable/);
    expect(r.stdout).toMatch(/#2\s+estimate_far: the estimate is \d{3} km away with confidence 0\.81/);
    expect(r.stdout).not.toContain('\u001b]8');
    // One image: the verdict first, then the evidence, wrapped to a 60-column terminal; the server's place escaped.
    const one = await run(['claims', 'check', join(csv, '..', rows[0]!), '--at', 'Kharkiv, UA', '--depth', '3'], { tty: true, columns: 60 });
    const plain = one.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/^AGREES +\S+/);
    // A word longer than a line (the server's place has no space) stands alone on its line, whole (output/fit.ts wrap).
    for (const line of plain.split('\n')) if (line.trim().includes(' ')) expect([...line].length, line).toBeLessThanOrEqual(60);
    expect(plain).toMatch(/estimate *\n? *=HYPERLINK/);
    expect(one.stdout).not.toContain('\u001b]8');
  });

  it('--json FIELDS and --jq go through the shared filter: an array of the chosen fields, a jq expression over it', async () => {
    const fields = await run(['claims', 'check', csv, '--depth', '3', '--json', 'row,verdict,rule']);
    expect(JSON.parse(fields.stdout)).toEqual([
      { row: 1, verdict: 'agrees', rule: 'estimate_near' },
      { row: 2, verdict: 'contradicts', rule: 'estimate_far' },
      { row: 3, verdict: 'unverifiable', rule: 'estimate_far_unsure' },
    ]);
    const jq = await run(['claims', 'check', csv, '--depth', '3', '--jq', '.[] | select(.verdict == "contradicts") | .row']);
    expect(jq.stdout).toBe('2\n');
    const unknown = await run(['claims', 'check', csv, '--json', 'verdict,nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown JSON field "nope" for geo claims check/);
    const nd = await run(['claims', 'check', csv, '--depth', '3', '--format', 'ndjson']);
    expect(nd.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { verdict: string }).verdict)).toEqual(['agrees', 'contradicts', 'unverifiable']);
  });

  it('CSV: one row per claim, a server formula kept as text', async () => {
    const r = await run(['claims', 'check', csv, '--depth', '3', '--format', 'csv']);
    const lines = r.stdout.split('\r\n');
    expect(lines[0]).toMatch(/^row,file,input,sha256,at,claim_lat,claim_lng,claim_place,tolerance_km,verdict,rule,reason,/);
    expect(lines.filter(Boolean)).toHaveLength(4);
    expect(r.stdout).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(r.stdout).toContain('\'=HYPERLINK');
  });

  it('GeoJSON: the claim as a closed circle of its tolerance, the estimate, the candidates, the EXIF-less file, a line from claim to estimate', async () => {
    const r = await run(['claims', 'check', csv, '--depth', '3', '--format', 'geojson']);
    const fc = JSON.parse(r.stdout) as { features: Array<{ geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }> };
    const of = (row: number) => fc.features.filter((f) => f.properties.row === row);
    expect(of(2).map((f) => f.properties.role)).toEqual(['claim', 'estimate', 'link', 'candidate']);
    const claim = of(2)[0]!;
    const ring = (claim.geometry.coordinates as number[][][])[0]!;
    expect(claim.geometry.type).toBe('Polygon');
    expect(ring[0]).toEqual(ring.at(-1));
    expect(claim.properties).toMatchObject({ verdict: 'contradicts', rule: 'estimate_far', tolerance_km: 20, center_lat: 49.98177, center_lng: 36.25475 });
    // Every vertex 20 km from the centre.
    for (const [lng, lat] of ring) {
      const r0 = Math.PI / 180;
      const h = Math.sin(((lat! - 49.98177) * r0) / 2) ** 2 + Math.cos(49.98177 * r0) * Math.cos(lat! * r0) * Math.sin(((lng! - 36.25475) * r0) / 2) ** 2;
      expect(2 * 6371.0088 * Math.asin(Math.sqrt(h))).toBeCloseTo(20, 3);
    }
    expect(of(2)[2]!.geometry).toEqual({ type: 'LineString', coordinates: [[36.25475, 49.98177], [24.032, 49.842]] });
    expect(r.stdout).not.toContain('\u001b]8');
  });

  it('KML: a folder per claim with its circle, estimate, line and candidates; hostile text escaped', async () => {
    const r = await run(['claims', 'check', csv, '--depth', '3', '--format', 'kml']);
    expect(r.stdout.match(/<Folder>/g)).toHaveLength(3);
    expect(r.stdout.match(/<Polygon>/g)).toHaveLength(3);
    expect(r.stdout.match(/<LineString>/g)).toHaveLength(3);
    expect(r.stdout).toContain('<styleUrl>#claim-contradicts</styleUrl>');
    expect(r.stdout).not.toContain('<script>');
    expect(r.stdout).not.toContain('\u001b]8');
  });

  it('the HTML report: the verdicts first, then each claim\'s evidence and the answer with the map\'s claim circle, under a CSP; hostile text escaped', async () => {
    const out = join(data, 'claims.html');
    const r = await run(['claims', 'check', csv, '--depth', '3', '--report', out, '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;/);
    const summary = html.indexOf('<section class="summary"');
    const verdict = html.indexOf('<div class="claim-verdict v-contradicts"');
    const answer = html.indexOf('The answer it was judged on', verdict);
    expect(summary).toBeGreaterThan(0);
    expect(verdict).toBeGreaterThan(summary);
    expect(answer).toBeGreaterThan(verdict);
    expect(html).toMatch(/CONTRADICTS: \S+ said to be at Kharkiv, UA/);
    // The service's calibration verdict (depth 3) is in the answer's section.
    expect(html).toContain('Service verdict: publish');
    const dataBlock = JSON.parse(/<script type="application\/json" id="geo-data">(.*?)<\/script>/s.exec(html)![1]!) as { items: Array<{ claim?: { radiusKm: number; verdict: string } }> };
    expect(dataBlock.items.map((i) => i.claim && [i.claim.verdict, i.claim.radiusKm])).toEqual([['agrees', 20], ['contradicts', 20], ['unverifiable', 20]]);
    expect(html).not.toContain('<script>alert(1)');
  });

  it('--report goes through the one writer: 0600 unless --file-mode 644; a report naming an image of the claims is refused before anything is sent', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'geo-claims-rep-')), 'claims.html');
    let r = await run(['claims', 'check', csv, '--depth', '3', '--report', out, '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    r = await run(['claims', 'check', csv, '--depth', '3', '--report', out, '--file-mode', '644', '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o644);
    const image = join(csv, '..', rows[1]!);
    const bytes = readFileSync(image);
    const before = server.sent.length;
    for (const target of [image, csv]) {
      r = await run(['claims', 'check', csv, '--depth', '3', '--fresh', '--yes', '--report', target]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: refusing to use ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} as the report: it is an input of this run`, 'm'));
    }
    expect(server.sent.length).toBe(before);
    expect(readFileSync(image)).toEqual(bytes);
  });

  it('--case: each answer linked, each check a claim_checked entry naming the answer\'s sha256; the case verifies', async () => {
    expect((await run(['cases', 'create', '--name', 'Claims', '--local'])).code).toBe(0);
    const id = dbRows<{ id: string }>(data, "SELECT id FROM cases WHERE name = 'Claims'")[0]!.id;
    const r = await run(['claims', 'check', csv, '--depth', '3', '--case', 'Claims', '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const log = custodyOf(data, id);
    const checked = log.filter((e) => e.event === 'claim_checked').map((e) => e.data);
    expect(checked.map((d) => [d.verdict, d.rule, d.tolerance_km])).toEqual([['agrees', 'estimate_near', 20], ['contradicts', 'estimate_far', 20], ['unverifiable', 'estimate_far_unsure', 20]]);
    const raws = dbRows<{ raw: ArrayBuffer | Buffer; sha256: string }>(data, 'SELECT raw, sha256 FROM results');
    for (const [i, d] of checked.entries()) {
      const claim = d.claim as { input: string; input_sha256: string; at: string; lat: number; lng: number };
      expect(claim).toMatchObject({ input: rows[i], at: 'Kharkiv, UA', lat: 49.98177, lng: 36.25475 });
      const stored = raws.find((x) => x.sha256 === claim.input_sha256)!;
      expect(d.answer_sha256).toBe(sha(Buffer.from(stored.raw as ArrayBuffer)));
    }
    // The answers are linked before their checks: result_linked entries come first.
    expect(log.map((e) => e.event).filter((e) => e === 'result_linked' || e === 'claim_checked')).toEqual(['result_linked', 'result_linked', 'result_linked', 'claim_checked', 'claim_checked', 'claim_checked']);
    expect(verifyChain(custodyLines(data, id), { caseId: id }).ok).toBe(true);
    expect((await run(['cases', 'verify', id])).code).toBe(0);
  });

  it('--fail-on contradicts: exit 9 from the real binary when a claim is contradicted, 0 when none is', async () => {
    const r = await spawnGeo(['claims', 'check', csv, '--depth', '3', '--fail-on', 'contradicts', '--format', 'ndjson'], { env: env() });
    expect(r.code).toBe(9);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(r.stderr).toMatch(/^error: 1 of 3 claims contradicted \(--fail-on contradicts\)/m);
    const fine = await spawnGeo(['claims', 'check', join(csv, '..', rows[0]!), '--at', 'Kharkiv, UA', '--depth', '3', '--fail-on', 'contradicts'], { env: env() });
    expect(fine.code, fine.stderr).toBe(0);
    const bad = await spawnGeo(['claims', 'check', csv, '--fail-on', 'agrees'], { env: env() });
    expect(bad.code).toBe(2);
  });
});
