/**
 * Help blocks (blocks.ts) drawn for a terminal of `columns` ("help that fits"): text is
 * reflowed with output/fit.ts's wrap (a word, a flag or a `quoted command` is never split), a
 * definition too wide for its column stacks its text under the term, and an example is never
 * wrapped inside a word: its comment moves to the line above (`# …`, as gh's examples read) and a
 * command still too wide continues on the next line after ` \`, at a space outside quotes, so
 * the lines still paste into a shell as one command. A single word longer than the screen (a URL,
 * a path) is left whole on its own line: the terminal's soft wrap keeps it one link to click.
 */
import { width, wrap } from '../fit.js';
import { type Block, parseHelpText } from './blocks.js';

/** Below this a definition's text column is too narrow to read: the text goes under the term. */
const NARROWEST_TEXT = 24;

/** `text` (help text as written for 80 columns) fitted to `columns`. */
export function fitHelpText(text: string, columns: number): string {
  return renderBlocks(parseHelpText(text), columns).join('\n');
}

export function renderBlocks(blocks: readonly Block[], columns: number): string[] {
  return alignComments(blocks, columns).flatMap((b) => renderBlock(b, columns));
}

type Example = Extract<Block, { kind: 'example' }>;
const commandWidth = (b: Example) => width(b.indent + b.prompt + b.command);

/**
 * The comments of a run of examples start in one column, after the widest command, when every
 * one fits there; otherwise every comment of the run goes above its command (gh's layout), never
 * a ragged mix.
 */
function alignComments(blocks: readonly Block[], columns: number): Block[] {
  const out = [...blocks];
  for (let i = 0; i < out.length; ) {
    let j = i;
    while (j < out.length && out[j]!.kind === 'example') j++;
    const run = out.slice(i, j) as Example[];
    const column = Math.max(0, ...run.map((b) => (b.comment === undefined ? 0 : commandWidth(b) + 2)));
    const beside = run.every((b) => b.comment === undefined || column + 2 + width(b.comment) <= columns);
    for (let k = i; k < j; k++) {
      const b = out[k] as Example;
      if (b.comment !== undefined) out[k] = beside ? { ...b, gap: column - commandWidth(b) } : { ...b, above: true };
    }
    i = Math.max(j, i + 1);
  }
  return out;
}

function renderBlock(b: Block, columns: number): string[] {
  switch (b.kind) {
    case 'blank':
      return [''];
    case 'line':
      return [b.text];
    case 'text':
      return wrap(b.text, columns, b.hang, b.first);
    case 'item':
      return renderItem(b.indent, b.term, b.column, b.text, columns);
    case 'example':
      return renderExample(b, columns);
  }
}

/** A term and its text in two columns; the text under the term when the term or the column does not fit. */
export function renderItem(indent: string, term: string, column: number, text: string, columns: number): string[] {
  const under = indent + '    ';
  if (columns - column < NARROWEST_TEXT) return [indent + term, ...wrap(text, columns, under)];
  const lines = wrap(text, columns - column, '');
  const pad = ' '.repeat(column);
  if (width(indent + term) + 2 > column) return [indent + term, ...lines.map((l) => pad + l)];
  return lines.map((l, i) => (i === 0 ? (indent + term).padEnd(column) + l : pad + l));
}

function renderExample(b: Extract<Block, { kind: 'example' }>, columns: number): string[] {
  const head = b.indent + b.prompt;
  const whole = head + b.command + (b.comment !== undefined ? ' '.repeat(b.gap) + '# ' + b.comment : '');
  if (!b.above && width(whole) <= columns) return [whole];
  const above = b.comment !== undefined ? wrap(b.comment, columns, b.indent + '# ') : [];
  return [...above, ...commandLines(b.command, head, b.indent + '    ', columns)];
}

/** Shell words of a command line: spaces inside quotes do not separate. */
export function shellWords(command: string): string[] {
  return command.match(/(?:'[^']*'|"(?:\\.|[^"\\])*"|\\.|[^\s'"\\])+/g) ?? [];
}

/** The command on lines of at most `columns`, broken between shell words with ` \`. */
export function commandLines(command: string, head: string, cont: string, columns: number): string[] {
  const out: string[] = [];
  let line = head;
  let empty = true;
  for (const word of shellWords(command)) {
    // Room for " \" at the end of every line but the last.
    if (!empty && width(line) + 1 + width(word) + 2 > columns) {
      out.push(`${line} \\`);
      line = cont;
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  out.push(line);
  return out;
}
