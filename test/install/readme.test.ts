/**
 * The README's promise to a newcomer, read from the files themselves: it names the set-up command
 * and the main job first, and the test command again, the one .ci/run calls.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The lines of each fenced code block, in order, comments cut. */
export function codeBlocks(markdown: string): string[][] {
  return [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) =>
    m[1]!.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean),
  );
}

/** The commands a bash script runs (comments and echoed text left out). */
function commandsOf(script: string): string[] {
  return script.split('\n').map((l) => l.replace(/#.*$/, '').replace(/"[^"]*"|'[^']*'/g, '""').trim()).filter(Boolean);
}

describe('README.md', () => {
  const blocks = codeBlocks(README);

  it('names the set-up command first: its first code block installs', () => {
    expect(blocks[0]!.join('\n')).toMatch(/^npm install\b/m);
  });

  it('names the main job next: the first code block that runs geo locates a photo', () => {
    const first = blocks.find((b) => b.some((l) => /^geo\b/.test(l)))!;
    expect(first.find((l) => /^geo\b/.test(l))).toMatch(/^geo (--sandbox )?locate /);
  });

  it('names the test command again, npm test, and .ci/run calls that same command', () => {
    const tests = blocks.flat().filter((l) => /^npm test\b/.test(l));
    expect(tests).toEqual(['npm test']);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toMatch(/\bvitest run\b/);
    expect(commandsOf(readFileSync(join(ROOT, '.ci/run'), 'utf8')).some((c) => /(^|\s)npm test\b/.test(c))).toBe(true);
  });
});
