/**
 * Issue 34 item 6, what a new user tripped over, each through the real program: an HTML export on
 * a terminal refused as KMZ is; a busy sandbox port suggests --port 0; one message when only
 * sandbox results are stored; skipped inputs not counted as failed; no empty column cutting
 * `cases ls`; --sandbox saying once that it is fresh; a results table naming the shared folder
 * once; one account of a `| head -1` stop; --keep-metadata never reusing an answer made without
 * metadata; one time format; help examples that hold on a second read-through. Elsewhere:
 * test/commands/keys.test.ts (masked keys told apart, hints of a refused key),
 * test/cases/commands.test.ts (WHERE names another service), test/commands/locate-rate-wait.test.ts
 * (the rate-limit wait counted down), test/reporters/ (the reason of each skip).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { width } from '../../src/output/fit.js';
import { peopleTime, takenTime } from '../../src/output/time.js';
import { GEO_BIN, binEnv, runCli, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, startTestSandbox } from '../helpers/sandbox.js';
import { type Example, examplesOf } from '../install/examples.js';

it('geo export --format html to a terminal: refused with a hint to --out, exit 2, nothing printed', async () => {
  const r = await runCli(['export', '--all', '--include-sandbox', '--format', 'html'], { tty: { stdout: true, stderr: true }, columns: 200 });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain('--out report.html');
});

it('geo sandbox --port N on a busy port: exit 2, one line suggesting --port 0', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const r = await runCli(['sandbox', '--port', String(port)]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(r.stderr).toContain('--port 0');
  } finally {
    server.close();
  }
});

it('geo export --all with only sandbox results stored: one message saying so and how to add them, exit 2', async () => {
  const env = { GEO_DATA_DIR: tempConfigDir() };
  expect((await runCli(['--sandbox', 'locate', 'sample:paris'], { env })).code).toBe(0);
  const r = await runCli(['export', '--all', '--format', 'geojson'], { env });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain('1 sandbox result');
  expect(r.stderr).toContain('--include-sandbox');
});

it('a folder with a file geo must skip: the progress says "1 skipped", never counts it as failed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'geo-skip-progress-'));
  copyFileSync(new URL('../../fixtures/images/paris.jpg', import.meta.url).pathname, join(dir, 'paris.jpg'));
  writeFileSync(join(dir, 'notes.jpg'), 'not an image');
  const r = await runCli(['--sandbox', 'locate', dir], { tty: { stderr: true }, env: { GEO_ACCESSIBLE: '1', GEO_DATA_DIR: tempConfigDir() } });
  expect(r.code).toBe(7);
  const progress = r.stderr.split('\n').filter((l) => l.startsWith('progress '));
  expect(progress.length).toBeGreaterThan(0);
  for (const line of progress) expect(line).toContain('0 failed');
  expect(progress.at(-1)).toContain('1 skipped');
  expect(progress.at(-1)).toMatch(/^progress 100% · 2 of 2/);
});

it('geo cases ls at 120 columns: no empty TEAM or DESCRIPTION column, so names and times stay whole', async () => {
  const env = { GEO_DATA_DIR: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir() };
  expect((await runCli(['cases', 'create', '--name', 'Harbour fire investigation', '--local'], { env })).code).toBe(0);
  const r = await runCli(['--sandbox', 'cases', 'ls'], { env, tty: { stdout: true }, columns: 120 });
  expect(r.code).toBe(0);
  expect(r.stdout).not.toContain('TEAM');
  expect(r.stdout).not.toContain('DESCRIPTION');
  expect(r.stdout).toContain('Harbour fire investigation');
  expect(r.stdout).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
});

it('--sandbox says once on stderr that its state is fresh for this command; not with --quiet, never on --json stdout', async () => {
  const env = { GEO_DATA_DIR: tempConfigDir() };
  const fresh = 'sandbox: simulated, no real money; a fresh one for this command alone\n';
  const credits = await runCli(['--sandbox', 'credits', '--json'], { env });
  expect(credits.code).toBe(0);
  expect(credits.stderr).toBe(fresh);
  expect(() => JSON.parse(credits.stdout)).not.toThrow();
  const located = await runCli(['--sandbox', 'locate', 'sample:paris'], { env });
  expect(located.stderr.split('\n').filter((l) => l.startsWith('sandbox:'))).toEqual([fresh.trimEnd()]);
  const quiet = await runCli(['--sandbox', '--quiet', 'credits'], { env });
  expect(quiet.stderr).toBe('');
  // And its help says so.
  expect((await runCli(['--help'], { columns: 200 })).stdout).toMatch(/--sandbox\s+a sandbox for this command only, fresh each run/);
});

it('a results table at 60 columns: the folder the inputs share is said once above it, each file name whole in the table', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'geo-deep-')), 'investigation-harbour-fire', 'photos-from-witnesses');
  mkdirSync(dir, { recursive: true });
  for (const n of ['paris.jpg', 'tokyo.jpg', 'nogps.jpg']) copyFileSync(new URL(`../../fixtures/images/${n}`, import.meta.url).pathname, join(dir, n));
  const r = await runCli(['--sandbox', 'locate', ...['paris.jpg', 'tokyo.jpg', 'nogps.jpg'].map((n) => join(dir, n))], { tty: { stdout: true }, columns: 60, env: { GEO_DATA_DIR: tempConfigDir() } });
  expect(r.code).toBe(0);
  const lines = r.stdout.replace(/\u001b\[[0-9;]*m/g, '').trimEnd().split('\n');
  // The shared folder, alone (a path the screen may not hold stands on its own line).
  expect(lines.slice(0, 2).join(' ')).toContain(`${dir}/`);
  for (const l of lines.filter((l) => l.startsWith('│'))) expect(width(l)).toBeLessThanOrEqual(60);
  for (const n of ['paris.jpg', 'tokyo.jpg', 'nogps.jpg']) expect(lines.join('\n')).toMatch(new RegExp(`│ ${n.replace('.', '\\.')} +│`));
  expect(r.stdout).not.toContain('…witnesses');
});

it('| head -1 on a batch: one account of the stop on stderr (what is stored, what to run), not a second one that disagrees', async () => {
  const sb = await startTestSandbox({ latencyMs: 300 });
  try {
    const env = binEnv({ GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_DATA_DIR: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir() });
    const child = spawn('sh', ['-c', `"${process.execPath}" "${GEO_BIN}" locate sample:all --format ndjson --concurrency 1 | head -1`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expect(stderr).toMatch(/stdout was closed: geo stopped sending; \d answers? (is|are) in the store .* not sent: run the same command again to send them/);
    expect(stderr).not.toContain('--resume');
    expect(stderr).not.toMatch(/^stopped:/m);
  } finally {
    await sb.close();
  }
}, 30_000);

it('--keep-metadata after a plain run: the image is sent (the stored answer was made without its metadata), not reused silently', async () => {
  const sb = await startTestSandbox();
  try {
    const env = { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_DATA_DIR: tempConfigDir() };
    const paris = new URL('../../fixtures/images/paris.jpg', import.meta.url).pathname;
    expect((await runCli(['locate', paris], { env })).code).toBe(0);
    const kept = await runCli(['locate', paris, '--keep-metadata', '--json'], { env });
    expect(kept.code).toBe(0);
    expect(kept.stderr).not.toContain('from your results');
    expect(sb.ledger().keys[KEYS.pro]!.debits).toBe(2);
    // The answer now comes from the EXIF GPS the service saw: Paris, not the synthetic city.
    expect(JSON.parse(kept.stdout).location.city).toBe('Paris');
    // And the reverse: a plain run after it reuses that answer, saying it was made with metadata.
    const plain = await runCli(['locate', paris], { env });
    expect(plain.stderr).toContain('made with the photo\'s metadata sent');
    expect(sb.ledger().keys[KEYS.pro]!.debits).toBe(2);
  } finally {
    await sb.close();
  }
});

it('one time format for people in cases list, cases show, history and inspect ("2026-11-26 21:59 UTC"); --json keeps ISO 8601', async () => {
  const env = { GEO_DATA_DIR: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir() };
  const PEOPLE = /\b\d{4}-\d\d-\d\d \d\d:\d\d UTC\b/;
  const OTHER = /\d{4}-\d\d-\d\dT\d\d:\d\d|\d{4}:\d\d:\d\d \d\d:\d\d|\d\d:\d\d:\d\d(?! UTC)/;
  expect((await runCli(['--sandbox', 'locate', 'sample:paris'], { env })).code).toBe(0);
  expect((await runCli(['cases', 'create', '--name', 'Harbour', '--local'], { env })).code).toBe(0);
  const paris = new URL('../../fixtures/images/paris.jpg', import.meta.url).pathname;
  for (const argv of [['cases', 'list'], ['cases', 'show', 'Harbour'], ['history'], ['inspect', paris]]) {
    const r = await runCli(argv, { env });
    expect(r.code, argv.join(' ')).toBe(0);
    const timed = r.stdout.split('\n').filter((l) => /\d{4}[-:]\d\d[-:]\d\d/.test(l) && !/sun |sha256|https?:/.test(l));
    expect(timed.length, argv.join(' ')).toBeGreaterThan(0);
    for (const l of timed) {
      expect(l, argv.join(' ')).toMatch(PEOPLE);
      expect(l, argv.join(' ')).not.toMatch(OTHER);
    }
  }
  const json = JSON.parse((await runCli(['history', '--json'], { env })).stdout) as Array<{ stored_at: string }>;
  expect(json[0]!.stored_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

it('a capture time: local wall-clock time with its offset and the UTC instant; without an offset, no UTC made up', () => {
  expect(takenTime('2022:07:04 21:40:00', '-04:00')).toBe('2022-07-04 21:40 local (UTC-04:00), 2022-07-05 01:40 UTC');
  expect(takenTime('2024:05:14 18:32:07', '+02:00')).toBe('2024-05-14 18:32 local (UTC+02:00), 2024-05-14 16:32 UTC');
  expect(takenTime('2024:05:14 18:32:07')).toBe('2024-05-14 18:32 local (time zone not recorded)');
  expect(peopleTime('2026-11-26T21:59:03.120Z')).toBe('2026-11-26 21:59 UTC');
  expect(peopleTime('not a time')).toBe('not a time');
});

it('the --max-credits examples of locate, eval and geo help money still exit 2 once an earlier example stored their answers', async () => {
  const env = { GEO_DATA_DIR: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir() };
  // What the examples before them (or a second read-through) leave in the store: every sample, depth 3.
  expect((await runCli(['--sandbox', 'eval', 'sample:all', '--depth', '3', '--yes'], { env })).code).toBe(0);
  const pages = [['locate', '--help'], ['eval', '--help'], ['help', 'money']];
  const capped: Example[] = [];
  for (const argv of pages) {
    const help = (await runCli(argv, { env, columns: 80 })).stdout;
    capped.push(...examplesOf(help).filter((e) => e.command.includes('--max-credits 5')));
  }
  expect(capped.map((e) => e.command.split(' ')[2])).toEqual(['locate', 'eval', 'locate']);
  for (const e of capped) {
    const r = await runCli(e.command.replace(/^geo /, '').split(' '), { env });
    expect(r.code, `${e.command}\n${r.stderr}`).toBe(e.expect);
    expect(e.expect).toBe(2);
  }
});
