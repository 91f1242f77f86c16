/**
 * The README's promise to a newcomer, read from the files themselves: it names the set-up command
 * and the main job first, and the test command again, the one .ci/run calls; and its install
 * leaves nothing in the clone and names npm's install-scripts warning for what it is.
 * test/install/packed.test.ts checks the warning's packages against a real global install.
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

  it('packs the tarball outside the clone, and installs that file', () => {
    const lines = blocks.flat();
    const pack = lines.find((l) => /^npm pack\b/.test(l))!;
    const dest = /--pack-destination\s+(\S+)/.exec(pack)?.[1];
    expect(dest, pack).toBeDefined();
    expect(lines).toContain(`npm install -g ${dest}/geo-cli-0.1.0.tgz`);
  });

  it("says that npm's install-scripts warning is harmless, and names the package and its script", () => {
    const prose = README.replace(/\s+/g, ' ');
    expect(prose).toContain('npm warn install-scripts');
    expect(prose).toContain('geo-cli@0.1.0 (prepare: npm run build)');
    expect(prose).toMatch(/warning is harmless/);
  });
});
