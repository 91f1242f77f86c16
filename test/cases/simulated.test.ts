/**
 * Issue 30: every place a person reads a result marks a sandbox's answer as simulated, where they
 * see it first. One store holds a case with two results: Paris answered by the sandbox (its
 * header), Tokyo by a real service (an independent node:http server that sends no such header).
 * `cases show` opens with the count and marks the one; the bundle's report opens with the banner
 * above every map and its KMZ balloons say it first; `history show` says it on its first line, in
 * the output as a person reads it (stdout and stderr on one terminal: one file descriptor here),
 * not after the view; a stored sandbox answer reused by locate says it too, though nothing was sent.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED } from '../../src/evidence/simulated.js';
import { unzip } from '../export/unzip.js';
import { GEO_BIN, binEnv } from '../helpers/run-cli.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { type FakeApi, ok, startFakeApi } from '../tolerant/fake-server.js';
import { caseRunner, tmp } from './helpers.js';

const sb = withSandbox();
const REAL_KEY = 'orca_live_test_0123456789abcdef';
/** A real service's depth-1 answer for Tokyo: no sandbox header, no sandbox words. */
const TOKYO_BODY = {
  success: true, analysis_id: 'an_real_tokyo', confidence: 0.74, reasoning: 'Japanese signage, narrow street, overhead wires.', model: 'orca-1.5', depth: 1, timing_ms: 900,
  location: { latitude: 35.6595, longitude: 139.7005, country: 'Japan', city: 'Tokyo', neighborhood: 'Shibuya', address: 'Dogenzaka' },
};
let real: FakeApi;
let c: ReturnType<typeof caseRunner>;
const PARIS_REF = '868735';
const TOKYO_REF = '2fdd84';

beforeAll(async () => {
  real = await startFakeApi();
  real.answers.geolocate = ok(TOKYO_BODY);
  c = caseRunner(sb);
  expect((await c.run(['cases', 'create', '--name', 'Mixed', '--local'])).code).toBe(0);
  expect((await c.run(['locate', FIXTURES + 'paris.jpg', '--case', 'Mixed'])).code).toBe(0);
  const t = await c.run(['locate', FIXTURES + 'tokyo.jpg', '--case', 'Mixed'], { env: { GEO_BASE_URL: real.url, GEO_API_KEY: REAL_KEY } });
  expect(t.stderr).not.toContain('sandbox');
  expect(t.code).toBe(0);
}, 60_000);
afterAll(() => real.close());

/**
 * The built binary with stdout and stderr on one file, as a terminal shows them: the order they
 * were written in is the order a person reads.
 */
function asSeen(argv: string[]): { code: number | null; text: string } {
  const file = join(tmp('geo-seen-'), 'out.txt');
  const fd = openSync(file, 'w');
  try {
    const r = spawnSync(process.execPath, [GEO_BIN, ...argv], { env: binEnv({ GEO_DATA_DIR: c.data }), stdio: ['ignore', fd, fd] });
    return { code: r.status, text: readFileSync(file, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

describe('geo cases show marks a sandbox\'s answers', () => {
  it('the view opens with how many are simulated, and the sandbox\'s result says it above its place; the real one does not', async () => {
    const r = await c.run(['cases', 'show', 'Mixed']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('1 simulated answer (sandbox): not evidence (of 2 results)');
    const paris = lines.findIndex((l) => /^ {2}\d\. \S+paris\.jpg /.test(l));
    const tokyo = lines.findIndex((l) => /^ {2}\d\. \S+tokyo\.jpg /.test(l));
    expect(paris).toBeGreaterThan(0);
    expect(lines[paris + 1]).toBe(`     ${SIMULATED}`);
    expect(lines[paris + 2]).toMatch(/^ {5}\S.* · -?\d+\.\d{6}, -?\d+\.\d{6} · confidence/);
    expect(lines[tokyo + 1]).toMatch(/^ {5}Shibuya, Tokyo, Japan · 35\.659500, 139\.700500 · confidence 0\.74/);
    expect(r.stdout.split(SIMULATED).length - 1).toBe(2);
  });

  it('--json: the count, and sandbox per result', async () => {
    const r = await c.run(['cases', 'show', 'Mixed', '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as { simulated: number; results: Array<{ input: string; sandbox: boolean }> };
    expect(d.simulated).toBe(1);
    expect(d.results.map((x) => [x.input.replace(/^.*\//, ''), x.sandbox])).toEqual([['paris.jpg', true], ['tokyo.jpg', false]]);
  });
});

describe('the bundle\'s report and KMZ mark a sandbox\'s answers', () => {
  it('results.html opens with the banner above every map; only the sandbox result\'s section is marked; its KMZ balloons say it first; report.html marks every section', async () => {
    const file = join(tmp(), 'mixed.zip');
    expect((await c.run(['cases', 'bundle', 'Mixed', file])).code).toBe(0);
    const members = new Map(unzip(readFileSync(file)).map((e) => [e.name, e.data]));
    const report = members.get('report.html')!.toString('utf8');
    const parts = report.split('<section class="part"').slice(1);
    expect(parts.length).toBe(9);
    for (const p of parts) expect(p).toContain('<p class="simulated" role="note">');
    const html = members.get('results.html')!.toString('utf8');
    const banner = html.indexOf('<div class="simulated-banner"');
    expect(banner).toBeGreaterThan(0);
    expect(html.slice(banner, banner + 200)).toContain('<strong>1 simulated answer (sandbox): not evidence (1 of 2 results, each marked below)</strong>');
    const map = html.search(/<div class="map[ "]/);
    if (map >= 0) expect(banner).toBeLessThan(map);
    const sections = html.split('<section class="result" id="result-').slice(1).map((s) => s.slice(0, s.indexOf('</section>')));
    const [paris, tokyo] = [sections.find((s) => s.includes('paris.jpg'))!, sections.find((s) => s.includes('tokyo.jpg'))!];
    expect(paris.indexOf(`<p class="simulated" role="note"><strong>${SIMULATED}</strong></p>`)).toBeGreaterThan(-1);
    expect(paris.indexOf('simulated')).toBeLessThan(paris.indexOf('<h2>'));
    expect(tokyo.includes('simulated'), 'the real result is not marked').toBe(false);

    const kml = unzip(members.get('results.kmz')!).find((e) => e.name === 'doc.kml')!.data.toString('utf8');
    const descriptions = (name: RegExp) => [...kml.matchAll(/<Folder><name>([^<]*)<\/name>([\s\S]*?)<\/Folder>/g)].filter((m) => name.test(m[1]!)).flatMap((m) => [...m[2]!.matchAll(/<description>([^<]*)<\/description>/g)].map((d) => d[1]!));
    const mark = `&lt;p&gt;&lt;b&gt;${SIMULATED}&lt;/b&gt;&lt;/p&gt;`;
    expect(descriptions(/paris\.jpg$/).length).toBeGreaterThan(0);
    for (const d of descriptions(/paris\.jpg$/)) expect(d.startsWith(mark)).toBe(true);
    expect(descriptions(/tokyo\.jpg$/).length).toBeGreaterThan(0);
    for (const d of descriptions(/tokyo\.jpg$/)) expect(d).not.toContain('simulated');
  });
});

describe('geo history show says it first', () => {
  it('the view\'s first line is the mark, before the place, as a person reads the output', () => {
    const r = asSeen(['history', 'show', PARIS_REF]);
    expect(r.code).toBe(0);
    const lines = r.text.split('\n');
    expect(lines[0]).toBe(SIMULATED);
    expect(lines[1]).not.toContain('simulated');
    expect(r.text.split(SIMULATED).length - 1).toBe(1);
  });

  it('--json: the mark on stderr before the body, which stays exactly as received', async () => {
    const r = asSeen(['history', 'show', PARIS_REF, '--json']);
    expect(r.code).toBe(0);
    const [first, ...rest] = r.text.split('\n');
    expect(first).toBe(SIMULATED);
    const json = await c.run(['history', 'show', PARIS_REF, '--json']);
    expect(json.stdout).not.toContain('simulated answer');
    expect(rest.join('\n').startsWith(json.stdout)).toBe(true);
  });

  it('a real service\'s answer: no mark, in the view or with --json', () => {
    for (const argv of [['history', 'show', TOKYO_REF], ['history', 'show', TOKYO_REF, '--json']]) {
      const r = asSeen(argv);
      expect(r.code).toBe(0);
      expect(r.text).not.toContain('simulated');
    }
  });

  it('a store whose records do not carry the flag (an older geo): its sandbox column still marks the answer', () => {
    // A copy of the whole data folder (the database with its write-ahead log), edited with sqlite3.
    const copy = join(tmp('geo-older-'), 'data');
    execFileSync('cp', ['-R', c.data, copy]);
    execFileSync('sqlite3', [join(copy, 'geo.db'), "UPDATE results SET record = json_remove(record, '$.sandbox')"]);
    expect(execFileSync('sqlite3', [join(copy, 'geo.db'), "SELECT count(*) FROM results WHERE record LIKE '%\"sandbox\"%'"], { encoding: 'utf8' }).trim()).toBe('0');
    const file = join(tmp('geo-seen-'), 'out.txt');
    const fd = openSync(file, 'w');
    try {
      spawnSync(process.execPath, [GEO_BIN, 'history', 'show', PARIS_REF], { env: binEnv({ GEO_DATA_DIR: copy }), stdio: ['ignore', fd, fd] });
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe(SIMULATED);
  });
});

describe('geo locate of a stored sandbox answer (nothing sent, so no sandbox banner) still says it', () => {
  it('the view opens with the mark; --json says it on stderr', async () => {
    const view = await c.run(['locate', FIXTURES + 'paris.jpg']);
    expect(view.code).toBe(0);
    expect(view.stderr).toMatch(/from your results, not charged|from the store/);
    expect(view.stderr).not.toContain('sandbox: simulated results');
    expect(view.stdout.split('\n')[0]).toBe(SIMULATED);
    const json = await c.run(['locate', FIXTURES + 'paris.jpg', '--json']);
    expect(json.code).toBe(0);
    expect(json.stderr.split('\n')).toContain(SIMULATED);
    expect(json.stdout).not.toContain('simulated answer');
  });
});
