import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandInputs } from '../../src/batch/inputs.js';
import { UsageError } from '../../src/errors.js';

function tree(): string {
  const d = mkdtempSync(join(tmpdir(), 'geo-inputs-'));
  mkdirSync(join(d, 'imgs/sub'), { recursive: true });
  mkdirSync(join(d, 'imgs/.hidden'), { recursive: true });
  mkdirSync(join(d, 'empty'));
  for (const f of ['imgs/b.JPG', 'imgs/a.png', 'imgs/notes.txt', 'imgs/c.webp', 'imgs/d.heic', 'imgs/sub/z.jpeg', 'imgs/.hidden/x.jpg', 'imgs/.DS_Store', 'empty/readme.md']) {
    writeFileSync(join(d, f), 'x');
  }
  writeFileSync(join(d, 'list.txt'), '# my list\n\nimgs/a.png\n  https://example.com/p.jpg  \n# done\n');
  return d;
}

describe('batch inputs', () => {
  it('walks folders recursively in code-point order, skipping hidden and non-image files (HEIC is an image)', async () => {
    const cwd = tree();
    const { entries, skipped } = await expandInputs(['imgs'], { cwd });
    expect(entries.map((e) => e.input)).toEqual(['imgs/a.png', 'imgs/b.JPG', 'imgs/c.webp', 'imgs/d.heic', 'imgs/sub/z.jpeg']);
    expect(skipped).toEqual([]);
  });

  it('reads --from-file lists (comments, blanks, relative paths) after the arguments', async () => {
    const cwd = tree();
    const { entries } = await expandInputs(['-'], { cwd, fromFile: 'list.txt' });
    expect(entries.map((e) => [e.kind, e.input])).toEqual([
      ['stdin', '-'],
      ['path', 'imgs/a.png'],
      ['url', 'https://example.com/p.jpg'],
    ]);
  });

  it('refuses a folder with no images, a missing file, http URLs and a second `-`', async () => {
    const cwd = tree();
    await expect(expandInputs(['empty'], { cwd })).rejects.toThrow(UsageError);
    await expect(expandInputs(['nope.jpg'], { cwd })).rejects.toThrow(/no such file/);
    await expect(expandInputs(['http://example.com/a.jpg'], { cwd })).rejects.toThrow(/https/);
    await expect(expandInputs(['-', '-'], { cwd })).rejects.toThrow(/only once/);
  });
});
