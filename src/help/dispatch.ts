/**
 * `geo help [topic | command…]` (gh's `gh help <topic>`): no word prints the root help
 * (commands and topics); a topic prints its text fitted to the screen, with no "Usage:" line; a
 * command path prints that command's help; anything else is one line with the closest name, exit 2.
 * A topic's name wins over a command's (`geo help cases` explains cases; `geo cases --help` lists
 * its flags, and each says where the other is).
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { cut } from '../output/fit.js';
import { parseMarkdown } from '../output/help/markdown.js';
import { renderBlocks } from '../output/help/render.js';
import { closest } from './suggest.js';
import type { TopicSource } from './topics.js';

/** A topic's markdown as the terminal shows it, at `columns`. */
export function renderTopic(markdown: string, columns: number): string {
  return `${renderBlocks(parseMarkdown(markdown).blocks, columns).join('\n')}\n`;
}

const names = (cmd: Command) => cmd.commands.filter((c) => c.name() !== 'help').flatMap((c) => [c.name(), ...c.aliases()]);

export function showHelp(program: Command, words: readonly string[], topics: readonly TopicSource[], out: { write: (s: string) => void; columns: number }): void {
  const [first, ...rest] = words;
  if (first === undefined) return program.outputHelp();
  const topic = rest.length === 0 ? topics.find((t) => t.name === first) : undefined;
  if (topic) return out.write(renderTopic(topic.markdown(), out.columns));
  let cmd = program;
  const path: string[] = [];
  for (const word of words) {
    const next = cmd.commands.find((c) => c.name() !== 'help' && (c.name() === word || c.aliases().includes(word)));
    if (!next) throw unknown(word, path, path.length === 0 ? [...names(cmd), ...topics.map((t) => t.name)] : names(cmd));
    path.push(next.name());
    cmd = next;
  }
  cmd.outputHelp();
}

/** The most of an unknown word the error echoes: a topic of 120,000 characters is not a message. */
const ECHO_MAX = 40;

function unknown(word: string, path: readonly string[], candidates: readonly string[]): UsageError {
  // Only a word near a name's length can be its typo; a long one is not measured against each name.
  const near = word.length <= ECHO_MAX ? closest(word, candidates) : undefined;
  const shown = cut(word, ECHO_MAX);
  const where = path.length ? `geo ${path.join(' ')} has no command "${shown}"` : `no help topic or command "${shown}"`;
  const hint = near ? `did you mean \`geo help ${[...path, near].join(' ')}\`?` : path.length ? `\`geo ${path.join(' ')} --help\` lists its commands` : '`geo help` lists the commands and topics';
  return new UsageError(where, hint);
}
