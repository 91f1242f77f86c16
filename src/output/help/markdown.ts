/**
 * The light markdown of docs/topics/*.md and docs/reference.md as help blocks, so a
 * topic has one source for the docs and `geo help`: headings, paragraphs, bullets, two-column
 * tables (shown as definitions), and code blocks (``` fences), whose `$ geo …` lines are examples
 * like a command's. Inline: **bold** and [text](link) lose their marks; `code` keeps its backticks
 * only around more than one word (a command to copy whole), as geo's hints do.
 */
import type { Block } from './blocks.js';
import { parseHelpText } from './blocks.js';

export interface Topic {
  /** The first heading's text. */
  title: string;
  blocks: Block[];
}

/** Inline markup as terminal text. */
export function plainInline(s: string): string {
  return s
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\[([^\]]+)\]\((https?:[^)]+)\)/g, '$1 ($2)')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`\s]+)`/g, '$1')
    .replace(/\\([|\\`*_[\]])/g, '$1');
}

/** The cells of a table row `| a | b |` (`\|` is a bar inside a cell). */
export function tableCells(row: string): string[] {
  return row.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim());
}

export function parseMarkdown(md: string): Topic {
  const lines = md.replace(/\r\n/g, '\n').split('\n');
  const blocks: Block[] = [];
  let title = '';
  const blank = () => {
    if (blocks.length && blocks[blocks.length - 1]!.kind !== 'blank') blocks.push({ kind: 'blank' });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') {
      blank();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const text = plainInline(heading[2]!.trim());
      if (!title && heading[1] === '#') title = text;
      blank();
      blocks.push({ kind: 'text', first: '', hang: '', text });
      blank();
      continue;
    }
    if (line.startsWith('```')) {
      const code: string[] = [];
      while (i + 1 < lines.length && !lines[++i]!.startsWith('```')) code.push(`  ${lines[i]!}`);
      blocks.push(...parseHelpText(code.join('\n')).map((b) => (b.kind === 'text' ? ({ kind: 'line', text: `${b.first}${b.text}` } as const) : b)));
      continue;
    }
    if (line.trim().startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.trim().startsWith('|'); i++) rows.push(tableCells(lines[i]!));
      i--;
      // The header row and its separator name the columns for a reader of the file: the terminal
      // shows the rows.
      const body = rows.length > 1 && rows[1]!.every((c) => /^:?-+:?$/.test(c)) ? rows.slice(2) : rows;
      // A term is a flag or a name: shown bare, whatever its words (`-q, --quiet`).
      const terms = body.map((r) => plainInline(r[0] ?? '').replace(/^`(.*)`$/, '$1'));
      const column = 2 + Math.min(Math.max(...terms.map((t) => t.length)), 28) + 2;
      body.forEach((r, n) => blocks.push({ kind: 'item', indent: '  ', term: terms[n]!, column, text: plainInline(r.slice(1).join(' — ')) }));
      continue;
    }
    const bullet = /^(\s*)[-*] (.*)$/.exec(line);
    let text = bullet ? bullet[2]! : line.trim();
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== '' && !/^\s*([-*] |#|```|\|)/.test(lines[i + 1]!)) text += ` ${lines[++i]!.trim()}`;
    const indent = bullet ? bullet[1]!.length : 0;
    blocks.push(bullet ? { kind: 'text', first: `${' '.repeat(indent)}- `, hang: ' '.repeat(indent + 2), text: plainInline(text) } : { kind: 'text', first: '', hang: '', text: plainInline(text) });
  }
  while (blocks.length && blocks[blocks.length - 1]!.kind === 'blank') blocks.pop();
  while (blocks.length && blocks[0]!.kind === 'blank') blocks.shift();
  return { title, blocks };
}
