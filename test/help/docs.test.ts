/**
 * Issue 34 items 1-2: a README a newcomer reads in minutes (at most 200 lines) and docs/ guides
 * whose links hold: every relative link of README.md and docs/**.md names a file that exists, and
 * its #anchor a heading of that file (GitHub's slugs). docs/reference.md is what the build makes
 * from the command definitions today. The examples of these pages run in
 * test/install/packed.test.ts, after a global install.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_MEANINGS, definitions } from '../../src/cli.js';
import { referenceMarkdown } from '../../src/help/reference.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const walk = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.md') ? [join(dir, d.name)] : []));
const PAGES = ['README.md', ...walk('docs')];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = fence ? null : /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    if (!m) continue;
    const slug = m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

/** The relative links of a page, outside code: [text](target). */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('README and docs/', () => {
  it('the user guides (docs/*.md and docs/topics/) send no analyst to test files, bench scripts or issue numbers: docs/internals/ does', () => {
    const guides = PAGES.filter((p) => p.startsWith('docs/') && !p.startsWith('docs/internals/') && p !== 'docs/reference.md');
    expect(guides.length).toBeGreaterThan(10);
    const found = guides.flatMap((p) =>
      readFileSync(join(ROOT, p), 'utf8').split('\n').flatMap((line, i) => (/\btest\/[\w./-]+|\bbench\/[\w./-]+|npm run bench|\.test\.ts\b|\(issue \d+[);]/.test(line) ? [`${p}:${i + 1}: ${line}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('the README is at most 200 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('the README links a guide for each subject of the issue, and the reference', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const guide of ['getting-started', 'batches', 'store', 'videos', 'evidence', 'cases', 'claims', 'eval', 'scripting', 'agents', 'sandbox', 'security', 'reference']) {
      expect(readme).toContain(`(docs/${guide}.md`);
    }
  });

  it.each(PAGES.map((p) => [p]))('%s: every relative link and anchor resolves', (page) => {
    const broken: string[] = [];
    for (const link of linksOf(readFileSync(join(ROOT, page), 'utf8'))) {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file ? normalize(join(dirname(page), file)) : page;
      if (!existsSync(join(ROOT, target))) {
        broken.push(`${link}: no file ${target}`);
        continue;
      }
      if (anchor && !anchorsOf(readFileSync(join(ROOT, target), 'utf8')).has(anchor)) broken.push(`${link}: no heading #${anchor} in ${target}`);
    }
    expect(broken).toEqual([]);
  });

  it('docs/reference.md is what the command definitions make today (npm run build writes it)', () => {
    expect(readFileSync(join(ROOT, 'docs/reference.md'), 'utf8')).toBe(referenceMarkdown(definitions(), EXIT_MEANINGS));
  });

  it('the anchor rule: GitHub slugs, repeats numbered', () => {
    expect([...anchorsOf('# Install\n## The store: never paying twice\n## Install')]).toEqual(['install', 'the-store-never-paying-twice', 'install-1']);
  });
});
