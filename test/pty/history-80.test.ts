/**
 * `geo history` on an 80-column terminal does what docs/store.md says: PAID BY is a column of the
 * table (the place goes below it), and an input too long for its column is cut at its start, at a
 * folder, never inside a folder's or the file's name, down to its file name; a file name too long
 * to leave PAID BY its room sends PAID BY below the table, and the name stays whole.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnGeo, tempConfigDir } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { builtBinaryOrThrow, spawnGeoInPty } from './pty.js';
import { screenRows, tooWideLines } from './screen.js';

const ME = `${userInfo().username}@${hostname()}`;
const LONG_NAME = 'audit-newuser-harbour-front-at-dusk.jpg';

/** A store of its own holding the sandbox's answers for these files (copies of fixtures). */
async function storeWith(files: Array<[fixture: string, path: string]>): Promise<Record<string, string>> {
  const env = { GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-h80-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-h80-state-')), CI: '1' };
  for (const [fixture, path] of files) {
    mkdirSync(join(path, '..'), { recursive: true });
    copyFileSync(join(FIXTURES, fixture), path);
  }
  const r = await spawnGeo(['--sandbox', 'locate', ...files.map(([, p]) => p), '-q'], { env });
  expect(r.code, r.stderr).toBe(0);
  return env;
}

async function history80(env: Record<string, string>) {
  const s = spawnGeoInPty(['history'], { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), ...env }, { columns: 80, rows: 40 });
  const code = await s.exit;
  return { code, raw: s.raw(), rows: screenRows(s.raw(), 80).filter((l) => l.trim() !== '') };
}

/** The INPUT cells of the table's body rows. */
const inputCells = (rows: string[]) => rows.filter((l) => l.startsWith('│') && !l.includes('INPUT')).map((l) => l.split('│')[1]!.trim());

/** A cell shows its path whole, or `…` then whole folders and the name, or `…` then the whole name. */
function cutAtAFolder(cell: string, path: string): boolean {
  if (cell === path) return true;
  if (!cell.startsWith('…')) return false;
  const tail = cell.slice(1);
  return path.endsWith(tail) && (tail.startsWith('/') || tail === basename(path));
}

beforeAll(() => builtBinaryOrThrow());

describe('geo history at 80 columns', { timeout: 60_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'geo-h80-'));
  const deep = join(root, 'cases', '2026', 'harbour-fire', 'received-from-source');
  const paths = { short: join(deep, 'IMG_2041.jpg'), other: join(root, 'field-photos-received-on-the-ground', 'IMG_2042.jpg'), long: join(deep, LONG_NAME) };

  it('PAID BY is in the table, the place below it; inputs are cut at a folder, never inside a name', async () => {
    const env = await storeWith([['paris.jpg', paths.short], ['tokyo.jpg', paths.other]]);
    const r = await history80(env);
    expect(r.code).toBe(0);
    expect(tooWideLines(r.raw, 80)).toEqual([]);
    expect(r.rows.find((l) => l.includes('INPUT'))).toMatch(/│ PAID BY\s*│$/);
    expect(r.rows.find((l) => l.includes('INPUT'))).not.toContain('PLACE');
    const cells = inputCells(r.rows);
    expect(cells).toHaveLength(2);
    expect(cells.some((c) => c.endsWith('/IMG_2041.jpg'))).toBe(true);
    expect(cells.some((c) => c.endsWith('/IMG_2042.jpg'))).toBe(true);
    for (const c of cells) expect(cutAtAFolder(c, c.endsWith('2041.jpg') ? paths.short : paths.other), c).toBe(true);
    expect(r.rows.join('\n')).toMatch(/place: /);
  });

  it('a file name too long to leave PAID BY room: the name stays whole in the table, PAID BY goes below under the input', async () => {
    const env = await storeWith([['nogps.jpg', paths.long]]);
    const r = await history80(env);
    expect(r.code).toBe(0);
    expect(tooWideLines(r.raw, 80)).toEqual([]);
    const [cell] = inputCells(r.rows);
    expect(cell).toBe(`…/${LONG_NAME}`);
    const label = r.rows.find((l) => !l.startsWith('│') && l.endsWith(LONG_NAME))!;
    expect(cutAtAFolder(label, paths.long), label).toBe(true);
    expect(r.rows.join('\n')).toContain(`paid by: ${ME}`);
  });
});
