/** `--format kmz` from geo export and geo locate: bytes into a file or a pipe, never onto a terminal. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveRecord } from '../helpers/store.js';
import { runCli } from '../helpers/run-cli.js';
import { withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from '../commands/locate-helpers.js';
import { PARIS_SHA, parisRecord, sydneyRecord } from './fixtures.js';
import { unzip } from './unzip.js';

const sb = withSandbox();
const tmp = () => mkdtempSync(join(tmpdir(), 'geo-kmz-'));
const names = (zip: Buffer) => unzip(zip).map((e) => e.name);

describe('geo export --format kmz', () => {
  let data: string;
  beforeAll(async () => {
    data = tmp();
    await saveRecord(data, parisRecord());
    await saveRecord(data, sydneyRecord());
  });
  const geo = (argv: string[], tty = false) => runCli(argv, { env: { GEO_DATA_DIR: data }, tty: { stdout: tty } });

  it('writes a KMZ to --out (format from the .kmz extension) with the image that is still there', async () => {
    const out = join(tmp(), 'results.kmz');
    const r = await geo(['export', '--all', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote 2 results to .*results\.kmz \(kmz\)/);
    const entries = unzip(readFileSync(out));
    expect(entries.map((e) => e.name)).toEqual(['doc.kml', `files/${PARIS_SHA.slice(0, 16)}.jpg`]);
    const kml = entries[0]!.data.toString('utf8');
    expect(kml).toContain(`&lt;img src=&quot;files/${PARIS_SHA.slice(0, 16)}.jpg&quot;`);
    expect(kml).toContain('no image: image not found at photos/sydney.jpg');
  });

  it('writes the bytes to a pipe, and refuses a terminal (exit 2) with a hint', async () => {
    const piped = await geo(['export', '--all', '--format', 'kmz']);
    expect(piped.code).toBe(0);
    expect(names(piped.stdoutBytes!)[0]).toBe('doc.kml');
    const tty = await geo(['export', '--all', '--format', 'kmz'], true);
    expect(tty.code).toBe(2);
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toMatch(/kmz is a binary format: not written to a terminal/);
    expect(tty.stderr).toMatch(/--out results\.kmz/);
  });
});

describe('geo locate --format kmz', () => {
  const run = runner(sb);

  it('writes the run as a KMZ into a pipe, the image in the balloon', async () => {
    const r = await run(['locate', `${IMG}paris.jpg`, '--format', 'kmz', '--no-store']);
    expect(r.code).toBe(0);
    expect(names(r.stdoutBytes!)).toEqual(['doc.kml', `files/${PARIS_SHA.slice(0, 16)}.jpg`]);
  });

  it('on a terminal: exit 2 before anything is sent or charged; a dry run still prints its plan', async () => {
    const before = footprint(sb);
    const r = await run(['locate', `${IMG}paris.jpg`, '--format', 'kmz'], { tty: { stdout: true } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/kmz is a binary format: not written to a terminal/);
    expect(footprint(sb)).toEqual(before);
    const dry = await run(['locate', `${IMG}paris.jpg`, '--format', 'kmz', '--dry-run'], { tty: { stdout: true } });
    expect(dry.code).toBe(0);
    expect(footprint(sb)).toEqual(before);
  });
});
