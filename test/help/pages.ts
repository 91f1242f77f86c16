/**
 * Every help page geo has, from the program itself (src/cli.ts definitions(): each command
 * registered in full, the program --help draws) and the topics of `geo help`: a command or a topic
 * added later is checked by every test that iterates over these, without a list to keep.
 */
import { EXIT_MEANINGS, definitions } from '../../src/cli.js';
import { commandsOf, generatedTopics, pathOf } from '../../src/help/reference.js';
import { listTopics } from '../../src/help/topics.js';

export interface Page {
  /** How a user asks for it. */
  argv: string[];
  /** geo locate, geo help money. */
  name: string;
  kind: 'root' | 'command' | 'topic';
}

export function commandPaths(): string[][] {
  return commandsOf(definitions()).map((c) => pathOf(c).split(' ').slice(1));
}

export function topicNames(): string[] {
  return listTopics(generatedTopics(() => definitions(), EXIT_MEANINGS)).map((t) => t.name);
}

export function helpPages(): Page[] {
  return [
    { argv: ['--help'], name: 'geo --help', kind: 'root' },
    ...commandPaths().map((p): Page => ({ argv: [...p, '--help'], name: `geo ${p.join(' ')} --help`, kind: 'command' })),
    ...topicNames().map((t): Page => ({ argv: ['help', t], name: `geo help ${t}`, kind: 'topic' })),
  ];
}

/** Runs `fn` over `items`, `n` at a time (the machine is shared: a few pseudo-terminals at once). */
export async function pool<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  }));
  return out;
}

/**
 * The words of a text, to compare two widths: the layout marks a narrow screen adds aside (the ` \`
 * of a continued example, the `#` starting each line of a comment moved above its example).
 */
export function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '' && w !== '\\' && w !== '#').sort();
}
