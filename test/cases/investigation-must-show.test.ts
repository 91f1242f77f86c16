/**
 * The investigation end to end, as two analysts work it on the sandbox: alice (her signing key
 * chosen) locates three photos into a case, writes five observations, judges two clues, rules out
 * two places (one a GeoJSON polygon) and concludes; bob approves it with his own key. Then:
 * - `geo cases verify CASE --require-signature --require-reviews 1 --allowed-signers FILE
 *   --allow-sandbox` exits 0;
 * - the text of any of those entries changed in geo.db with the sqlite3 CLI makes it exit 1
 *   naming the entry;
 * - a note added after the review makes --require-reviews 1 fail, naming the review as stale;
 * - the case's bundle passes every command its VERIFY.md lists, run with standard tools alone
 *   in a HOME with no geo config, and its report.html, screenshot in headless Chromium at 1280
 *   px and printed to PDF, holds every section.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SECTIONS } from '../../src/output/export/case-report-data.js';
import type { CliRun } from '../helpers/run-cli.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { CHROMIUM, CHROMIUM_SKIP, printToPdfAtLoad, screenshotAtLoad } from '../report/chromium.js';
import { caseId, custodyOf, tmp } from './helpers.js';
import { analyst, copy, reviewKeys } from './review-setup.js';

const sb = withSandbox();
const k = reviewKeys();
const STRICT = ['--require-signature', '--require-reviews', '1', '--allowed-signers', k.allowed, '--allow-sandbox'];
const AREA = { type: 'Polygon', coordinates: [[[2.2, 48.8], [2.3, 48.8], [2.3, 48.9], [2.2, 48.8]]] };

const asAlice = analyst(sb);
const asBob = analyst(sb);
const data = tmp('geo-must-show-data-');
/** The words of each investigation entry, by its position in the log. */
const words = new Map<number, string>();
let id = '';

async function ok(p: Promise<CliRun>): Promise<CliRun> {
  const r = await p;
  expect(r.code, r.stderr).toBe(0);
  return r;
}

/** One of alice's investigation commands: its entry's position (from --json) and its words remembered. */
async function step(argv: string[], text: string): Promise<void> {
  const r = await ok(asAlice(data, [...argv, '--json']));
  words.set((JSON.parse(r.stdout) as { entry: number }).entry, text);
}

beforeAll(async () => {
  await ok(asAlice(data, ['keys', 'signing', 'use', k.alice.path, '--principal', 'alice@example.org']));
  await ok(asBob(data, ['keys', 'signing', 'use', k.bob.path, '--principal', 'bob@example.org']));
  await ok(asAlice(data, ['cases', 'create', '--name', 'Quay', '--local', '--json']));
  await ok(asAlice(data, ['locate', join(FIXTURES, 'paris.jpg'), join(FIXTURES, 'tokyo.jpg'), join(FIXTURES, 'sydney.jpg'), '--depth', '3', '--case', 'Quay', '--yes']));
  id = caseId(data, 'Quay');
  expect(id).toMatch(/^lc_/);
  const observations = ['Haussmann facades along the street', 'a Metro entrance at the corner', 'a green kiosk', 'shadows fall to the north-east', 'no river in view'];
  for (const [i, text] of observations.entries()) await step(['cases', 'note', id, '--observation', text, ...(i < 3 ? ['--result', `r${i + 1}`] : [])], text);
  await step(['cases', 'clues', id, 'accept', 'r1.clue1', '--because', 'the same street furniture on Street View'], 'the same street furniture on Street View');
  await step(['cases', 'clues', id, 'reject', 'r2.cand1', '--because', 'the skyline has no such tower'], 'the skyline has no such tower');
  await step(['cases', 'rule-out', id, '--at', '45.764,4.8357', '--within', '20', '--because', 'no Haussmann blocks of that height in Lyon'], 'no Haussmann blocks of that height in Lyon');
  const area = join(tmp('geo-must-show-area-'), 'west.geojson');
  writeFileSync(area, JSON.stringify(AREA));
  await step(['cases', 'rule-out', id, '--area', area, '--because', 'the west bank has no such bridge'], 'the west bank has no such bridge');
  await step(['cases', 'conclude', id, '--at', '48.8584,2.2945', '--within', '300', '--confidence', 'probable', '--because', 'the facades and the Metro entrance match r1', '--result', 'r1'], 'the facades and the Metro entrance match r1');
  await ok(asBob(data, ['cases', 'review', id, '--approve', '--because', 'checked each clue against Street View']));
  words.set(custodyOf(data, id).find((e) => e.event === 'review_made')!.seq, 'checked each clue against Street View');
}, 240_000);

describe('a scripted investigation, reviewed by a second key', () => {
  it('has the entries it was scripted to have: 5 notes, 2 judgements, 2 places ruled out, a conclusion, a review, each signed', () => {
    const log = custodyOf(data, id);
    const count = (ev: string) => log.filter((e) => e.event === ev).length;
    expect([count('note_made'), count('clue_judged'), count('place_ruled_out'), count('conclusion_made'), count('review_made')]).toEqual([5, 2, 2, 1, 1]);
    expect(count('result_linked')).toBe(3);
    expect(log.at(-1)!.event).toBe('head_signed');
    expect(words.size).toBe(11);
  });

  it('verify --require-signature --require-reviews 1 --allowed-signers --allow-sandbox exits 0', async () => {
    const r = await asAlice(data, ['cases', 'verify', id, ...STRICT]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('the text of each of those entries changed with sqlite3: exit 1 naming that entry', async () => {
    for (const [n, text] of words) {
      const forged = copy(data);
      execFileSync('sqlite3', [join(forged, 'geo.db'), `UPDATE custody SET line = replace(line, '${text.replace(/'/g, "''")}', 'changed after the fact') WHERE case_id = '${id}' AND seq = ${n}`]);
      const r = await asAlice(forged, ['cases', 'verify', id, ...STRICT]);
      expect(r.code, `entry ${n}`).toBe(1);
      expect(r.stdout + r.stderr, `entry ${n}`).toMatch(new RegExp(`entry ${n} \\(\\w+\\): its content does not match its hash`));
    }
  }, 240_000);

  it('a note added after the review: --require-reviews 1 fails, naming the review as stale', async () => {
    const noted = copy(data);
    await ok(asAlice(noted, ['cases', 'note', id, '--observation', 'a crane on the left edge']));
    const review = custodyOf(noted, id).find((e) => e.event === 'review_made')!.seq;
    const r = await asAlice(noted, ['cases', 'verify', id, ...STRICT]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(new RegExp(`review at entry ${review} is stale: entry \\d+ \\(note_made\\) came after it`));
  });
});

describe('the same case\'s bundle, without geo', () => {
  let dir = '';
  beforeAll(async () => {
    const zip = join(tmp('geo-must-show-zip-'), 'quay.zip');
    await ok(asAlice(data, ['cases', 'bundle', id, zip, '--with-originals']));
    dir = tmp('geo-must-show-x-');
    execFileSync('unzip', ['-q', zip, '-d', dir]);
  }, 120_000);

  it('passes every command its VERIFY.md lists, run in sh with standard tools alone and a HOME with no geo config', () => {
    const commands = readFileSync(join(dir, 'VERIFY.md'), 'utf8').match(/```sh\n[\s\S]*?```/g)!.flatMap((b) => b.split('\n').slice(1, -1)).filter((l) => l.trim() && !l.trim().startsWith('#'));
    expect(commands.some((c) => c.includes('verify_chain.py'))).toBe(true);
    expect(commands.filter((c) => c.includes('ssh-keygen -Y verify')).length).toBeGreaterThan(1);
    const home = tmp('geo-must-show-home-');
    for (const line of commands) {
      const r = spawnSync('sh', ['-c', line], { cwd: dir, env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8' });
      expect(r.status, `${line}\n${r.stdout}${r.stderr}`).toBe(0);
    }
  });

  it('report.html, screenshot in headless Chromium at 1280 px and printed to PDF, holds every section', (t) => {
    if (!CHROMIUM) return t.skip(CHROMIUM_SKIP);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    for (const [section] of REPORT_SECTIONS) expect(html).toContain(`id="${section}"`);
    const png = join(dir, 'report.png');
    screenshotAtLoad(join(dir, 'report.html'), png, '1280,2000');
    expect(existsSync(png) && statSync(png).size > 10_000).toBe(true);
    const pdf = join(dir, 'report.pdf');
    printToPdfAtLoad(join(dir, 'report.html'), pdf);
    const text = spawnSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    for (const [, heading] of REPORT_SECTIONS) expect(text).toContain(heading);
    for (const said of ['the facades and the Metro entrance match r1', 'the west bank has no such bridge', 'bob@example.org']) expect(text).toContain(said);
  }, 180_000);
});
