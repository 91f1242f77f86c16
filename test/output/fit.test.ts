/** The width solver and wrapping behind every terminal table and text block (issue 13, "Width"). */
import { describe, expect, it } from 'vitest';
import { cut, cutPath, fitColumns, wrap } from '../../src/output/fit.js';

const BORDER = { fixed: 1, perColumn: 3 };

describe('fitColumns', () => {
  it('keeps every column at its natural width when the table fits', () => {
    const f = fitColumns({ natural: [10, 20], available: 80, ...BORDER });
    expect(f.shown).toEqual([0, 1]);
    expect([...f.widths.values()]).toEqual([10, 20]);
  });

  it('drops optional columns first, in order, while the rest would be cut below a readable width', () => {
    const f = fitColumns({ natural: [30, 30, 21, 84], optional: [3, 2], keep: [3], available: 80, ...BORDER });
    expect(f.dropped).toEqual([3]);
    expect(f.shown).toEqual([0, 1, 2]);
    expect(1 + [...f.widths.values()].reduce((s, w) => s + w + 3, 0)).toBeLessThanOrEqual(80);
  });

  it('then narrows the widest column first, never below a floor; Infinity means never cut', () => {
    const f = fitColumns({ natural: [40, 12, 21], floor: [10, undefined, Infinity], available: 50, ...BORDER });
    expect(f.widths.get(2)).toBe(21);
    expect(f.widths.get(0)).toBeGreaterThanOrEqual(10);
    expect(1 + [...f.widths.values()].reduce((s, w) => s + w + 3, 0)).toBe(50);
  });

  it('cuts keep columns only after every other column reached its floor', () => {
    const f = fitColumns({ natural: [20, 60], keep: [1], available: 60, ...BORDER });
    expect(f.widths.get(0)).toBe(6);
    expect(f.widths.get(1)).toBe(60 - 1 - 3 - 6 - 3);
  });
});

describe('cut and wrap', () => {
  it('cuts from the right, or from the left for paths so the file name stays', () => {
    expect(cut('Paris 16 Passy, Île-de-France', 10)).toBe('Paris 16 …');
    expect(cut('/home/ana/photos/gps_italy_florence.jpg', 24, true)).toBe('…/gps_italy_florence.jpg');
    expect(cut('short', 10)).toBe('short');
  });

  it('wraps words under a hanging prefix and keeps an over-long word whole on its own line', () => {
    expect(wrap('metadata can be edited; pixels were not corroborated', 30, '    ', '  - ')).toEqual([
      '  - metadata can be edited;', '    pixels were not', '    corroborated',
    ]);
    const url = 'https://www.openstreetmap.org/?mlat=48.858000&mlon=2.294000#map=17/48.858000/2.294000';
    expect(wrap(url, 40, '       ', '  maps ')).toEqual(['  maps', `       ${url}`]);
  });

  it('cutPath cuts a path at its start at a folder, never inside a name', () => {
    const p = '/tmp/cases/2026/received-from-source/IMG_2041.jpg';
    expect(cutPath(p, 80)).toBe(p);
    expect(cutPath(p, 36)).toBe('…/received-from-source/IMG_2041.jpg');
    expect(cutPath(p, 34)).toBe('…/IMG_2041.jpg');
    expect(cutPath(p, 14)).toBe('…/IMG_2041.jpg');
    expect(cutPath(p, 13)).toBe('…IMG_2041.jpg');
    expect(cutPath(p, 8)).toBe('…041.jpg'); // a name longer than the column: only then cut
    expect(cutPath('C:\\photos\\IMG_1.jpg', 12)).toBe('…\\IMG_1.jpg');
  });

  it('a word that fits the screen but not after the indent (a key, a path) starts at the left edge, whole', () => {
    const key = 'AAAAC3NzaC1lZDI1NTE5AAAAIASelzHEuOrNwfGp5QE2c4GQKVQW2Sr3+NCINLMTQRm0';
    expect(wrap(`ssh-ed25519 ${key} root@vm`, 80, ' '.repeat(13), 'public key   ')).toEqual(['public key   ssh-ed25519', `${key} root@vm`]);
    expect(wrap(`${key} tail`, 70, '    ')).toEqual([key, '    tail']);
    for (const l of wrap(`ssh-ed25519 ${key} root@vm`, 80, ' '.repeat(13), 'public key   ')) expect([...l].length).toBeLessThanOrEqual(80);
  });
});
