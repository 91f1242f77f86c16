/**
 * The help topics: `geo help NAME` prints docs/topics/NAME.md, the same file the docs
 * link to, so a topic has one source. Three are made from the code instead, so they cannot drift
 * from it: environment (help/environment.ts), exit-codes (the table in cli.ts) and reference (the
 * command definitions); the build writes them into docs/ too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../files/package-root.js';

export interface TopicSource {
  name: string;
  /** One line for the list in `geo help`: the title's words after its first colon. */
  summary: string;
  markdown(): string;
}

/** docs/topics/ in the package (shipped: package.json "files"). */
export function topicsDir(): string {
  return fileURLToPath(new URL('docs/topics/', packageRoot()));
}

/** The words after "# Title:" on the first line of a topic. */
export function summaryOf(markdown: string): string {
  const title = /^#\s+(.*)$/m.exec(markdown)?.[1] ?? '';
  return title.includes(': ') ? title.slice(title.indexOf(': ') + 2) : title;
}

/** Every topic: the files of docs/topics/, then the generated ones (which win over a file of their name). */
export function listTopics(generated: readonly TopicSource[], dir = topicsDir()): TopicSource[] {
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.md'));
  } catch {
    // no topics folder (a broken install): the generated topics still answer
  }
  const made = new Set(generated.map((t) => t.name));
  const fromFiles = files
    .map((f) => f.slice(0, -3))
    .filter((name) => !made.has(name))
    .map((name): TopicSource => {
      const text = readFileSync(`${dir}${name}.md`, 'utf8');
      return { name, summary: summaryOf(text), markdown: () => text };
    });
  // Code-unit order, not localeCompare: topic names are lower-case ASCII, and the first
  // localeCompare of a process loads ICU's collator, ~5 ms of every `geo --help` (bench/startup.mjs).
  return [...fromFiles, ...generated].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
