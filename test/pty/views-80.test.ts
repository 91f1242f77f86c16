/**
 * Views that must fit an 80-column terminal with every long token whole: `geo cases show`, `geo
 * keys signing show` and `create` (the key's path, the public key), the last hint of `geo cases
 * verify`, the candidates' map links of `locate --depth 3`, and `geo sandbox`'s key table with its
 * stdout redirected to a file. Each runs in a real pseudo-terminal of 80 columns; no line may be
 * wider, with no exception, and each token (a key, a path, a link, a command) stands in one row.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { machineEnv, runCli } from '../helpers/run-cli.js';
import { makeKey, tmp } from '../helpers/ssh.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';
import { KEY, builtBinaryOrThrow, spawnGeoInPty } from './pty.js';
import { screenRows, tooWideLines } from './screen.js';

const COLUMNS = 80;
const NOTHING = /(?!)/;
const sb = withSandbox();
let env: Record<string, string>;
let photo: string;

async function at80(argv: string[], opts: { stdoutFile?: string } = {}) {
  const s = spawnGeoInPty(argv, env, { columns: COLUMNS, rows: 60 }, opts);
  const code = await s.exit;
  // The logical lines, as the program wrote them (a row the terminal wrapped is not cut here).
  return { code, raw: s.raw(), lines: screenRows(s.raw(), 100_000) };
}

/** Each token in one line: not split by a line break. */
const whole = (lines: string[], tokens: string[]) => tokens.filter((t) => !lines.some((l) => l.includes(t)));

beforeAll(async () => {
  builtBinaryOrThrow();
  // A key file path of 68 characters or more: it fits the screen, not after a key's column.
  env = { ...machineEnv(mkdtempSync(join(tmpdir(), 'geo-fit80-home-'))), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro };
  // An input whose path is 78 characters: it fits the screen only at the left edge.
  const dir = join(mkdtempSync(join(tmpdir(), 'geo-fit80-')), 'harbour', 'received');
  mkdirSync(dir, { recursive: true });
  photo = join(dir, `${'x'.repeat(78 - dir.length - '/harbour-.jpg'.length)}harbour-.jpg`);
  expect(photo.length).toBe(78);
  copyFileSync(join(FIXTURES, 'paris.jpg'), photo);
  for (const argv of [['cases', 'create', '--name', 'Harbour fire', '--local'], ['locate', photo, '--case', 'Harbour fire']]) {
    const r = await runCli(argv, { env });
    expect(r.code, r.stderr).toBe(0);
  }
}, 60_000);

describe('at 80 columns, long tokens whole', { timeout: 60_000 }, () => {
  it('geo keys signing create and show: the key path and the public key whole, no line wider than 80', async () => {
    const made = await at80(['keys', 'signing', 'create', '--insecure-storage', '--name', 'harbour-fire-release-signing-key']);
    expect(made.code).toBe(0);
    const json = JSON.parse((await runCli(['keys', 'signing', 'show', '--json'], { env })).stdout) as { path: string; publicKey: string; fingerprint: string; allowedSigners: string };
    const [type, base64] = json.publicKey.split(' ');
    expect(json.path.length).toBeGreaterThan(COLUMNS - 13);
    expect(json.path.length).toBeLessThanOrEqual(COLUMNS);
    for (const r of [made, await at80(['keys', 'signing', 'show'])]) {
      expect(r.code).toBe(0);
      expect(tooWideLines(r.raw, COLUMNS, NOTHING)).toEqual([]);
      expect(whole(r.lines, [json.path, type!, base64!, json.fingerprint, 'geo keys signing show --jq .allowedSigners', 'ssh-keygen -Y verify -f allowed_signers'])).toEqual([]);
      expect(r.lines.join('\n')).toMatch(/ssh-keygen -Y verify -f allowed_signers .* \\\n {4}\S/);
    }
  });

  it('geo cases show: the input path, the place line and the map link fit, each whole', async () => {
    const r = await at80(['cases', 'show', 'Harbour fire']);
    expect(r.code).toBe(0);
    expect(tooWideLines(r.raw, COLUMNS, NOTHING)).toEqual([]);
    const shown = JSON.parse((await runCli(['cases', 'show', 'Harbour fire', '--json'], { env })).stdout) as { results: Array<{ map_links: Array<{ name: string; url: string }> }>; custody: { head: string } };
    expect(whole(r.lines, [photo, shown.results[0]!.map_links.find((m) => m.name === 'OpenStreetMap')!.url, shown.custody.head])).toEqual([]);
  });

  it('geo cases verify: its last hint names the command whole, and fits', async () => {
    const r = await at80(['cases', 'verify', 'Harbour fire']);
    expect(r.code).toBe(1);
    expect(tooWideLines(r.raw, COLUMNS, NOTHING)).toEqual([]);
    const id = /case (lc_\w+)/.exec(r.lines.join('\n'))![1]!;
    expect(whole(r.lines, [`\`geo cases verify ${id} --allow-sandbox\``])).toEqual([]);
  });

  it('geo cases verify BUNDLE: its closing hint fits, each flag and command whole', async () => {
    // A machine of its own: a signed case, bundled.
    const own = { ...env, ...machineEnv(mkdtempSync(join(tmpdir(), 'geo-fit80-bundle-'))) };
    const key = makeKey(tmp('geo-fit80-key-'), 'desk', { comment: 'desk@example.org' });
    const zip = join(mkdtempSync(join(tmpdir(), 'geo-fit80-zip-')), 'harbour.zip');
    for (const argv of [['keys', 'signing', 'use', key.path], ['cases', 'create', '--name', 'Harbour fire', '--local'], ['locate', photo, '--case', 'Harbour fire'], ['cases', 'bundle', 'Harbour fire', zip]]) {
      const r = await runCli(argv, { env: own });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const r = await at80(['cases', 'verify', zip, '--allow-sandbox']);
    expect(r.code).toBe(0);
    expect(tooWideLines(r.raw, COLUMNS, NOTHING)).toEqual([]);
    expect(r.lines.join('\n')).toMatch(/Check whose keys signed/);
    expect(whole(r.lines, ['`--allowed-signers FILE`', '`geo keys signing show`'])).toEqual([]);
  });

  it('locate --depth 3: each candidate\'s map link whole on a line that fits', async () => {
    const r = await at80(['locate', join(FIXTURES, 'paris.jpg'), '--depth', '3', '--yes']);
    expect(r.code).toBe(0);
    expect(r.lines.join('\n')).toContain('Candidates');
    expect(tooWideLines(r.raw, COLUMNS, NOTHING)).toEqual([]);
    const body = JSON.parse((await runCli(['locate', join(FIXTURES, 'paris.jpg'), '--depth', '3', '--yes', '--json'], { env })).stdout) as { forensic: { candidates: Array<{ lat: number; lng: number }> } };
    const links = body.forensic.candidates.map((c) => `https://www.openstreetmap.org/?mlat=${c.lat.toFixed(6)}&mlon=${c.lng.toFixed(6)}&zoom=17`);
    expect(links.length).toBeGreaterThan(0);
    expect(whole(r.lines, links)).toEqual([]);
  });

  it('geo sandbox > file: the key table and the links fit 80 columns, each key and link whole', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'geo-fit80-sb-')), 'sandbox.txt');
    const s = spawnGeoInPty(['sandbox', '--port', '0'], env, { columns: COLUMNS, rows: 30 }, { stdoutFile: out });
    await s.waitFor('sandbox ready');
    s.type(KEY.ctrlC);
    await s.exit;
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines.filter((l) => [...l].length > COLUMNS)).toEqual([]);
    const url = lines[0]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const k of Object.values(KEYS)) expect(lines.some((l) => l.startsWith(`${k} `))).toBe(true);
    expect(whole(lines, [`${url}/api/v1/docs`, `${url}/__sandbox/openapi.json`, `${url}/__sandbox/ledger`, 'prepaid_credits_exhausted'])).toEqual([]);
  });
});
