/**
 * Help text as blocks: what a command's addHelpText and a topic say, parsed once, so the
 * terminal (render.ts), the reference (markdown) and the man pages (roff, at build time) draw the
 * same words in their own way. The help text of a command is plain text written to be read as it
 * is at 80 columns; this finds its structure again:
 *
 * - a paragraph: lines of the same indentation, reflowed; a first line that starts with a label
 *   (`Exit codes: …`) or a bullet (`- …`) may hang its other lines under the text after it;
 * - an example: an indented line starting `$ ` (or `geo `, a placeholder not run by the tests),
 *   its comment after two spaces and a `#`; a line ending with `\` continues on the next;
 * - a definition: an indented term, two or more spaces, its text (its other lines under the text).
 */

export type Block =
  | { kind: 'blank' }
  /** Reflowed text: the first line starts with `first`, the others with `hang`. */
  | { kind: 'text'; first: string; hang: string; text: string }
  /** A term and its text at `column` (`indent` before the term). */
  | { kind: 'item'; indent: string; term: string; column: number; text: string }
  /** A command to copy: never wrapped inside a word; its comment moves above it when too wide. */
  | { kind: 'example'; indent: string; prompt: string; command: string; comment?: string; gap: number; above?: boolean }
  /** Lines shown as written (a heading of a topic, preformatted text). */
  | { kind: 'line'; text: string };

const EXAMPLE = /^(\s+)(\$ |(?=geo\s))(.*)$/;
const ITEM = /^( {2,})(\S(?:\S| (?! ))*?)( {2,})(\S.*)$/;
const LABEL = /^(\s*)((?:[-•*] )|(?:[A-Z][\w ,/()-]{0,30}: +))\S/;

const indentOf = (line: string) => /^\s*/.exec(line)![0].length;

/** The command and its comment (after two or more spaces and `# `), as the tests read them too. */
export function splitComment(text: string): { command: string; comment?: string; gap: number } {
  const at = text.search(/ {2,}# /);
  if (at < 0) return { command: text.trimEnd(), gap: 2 };
  const hash = text.indexOf('# ', at);
  return { command: text.slice(0, at), comment: text.slice(hash + 2).trim(), gap: hash - at };
}

export function parseHelpText(text: string): Block[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (line === '') {
      blocks.push({ kind: 'blank' });
      continue;
    }
    const ex = EXAMPLE.exec(line);
    if (ex) {
      let body = ex[3]!;
      while (body.endsWith('\\') && i + 1 < lines.length) body = `${body.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
      blocks.push({ kind: 'example', indent: ex[1]!, prompt: ex[2]!, ...splitComment(body) });
      continue;
    }
    const item = ITEM.exec(line);
    if (item && item[2]!.length <= 32) {
      const column = item[1]!.length + item[2]!.length + item[3]!.length;
      let body = item[4]!;
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== '' && indentOf(lines[i + 1]!) === column) body += ` ${lines[++i]!.trim()}`;
      blocks.push({ kind: 'item', indent: item[1]!, term: item[2]!, column, text: body });
      continue;
    }
    const first = ' '.repeat(indentOf(line));
    const label = LABEL.exec(line);
    const next = lines[i + 1];
    // A label hangs its text only when the next line is written under the text (root help's
    // "Environment: …"); a bullet always does.
    const labelHang = label ? label[1]!.length + label[2]!.length : -1;
    const hangs = label && (/^[-•*] /.test(label[2]!) || (next !== undefined && next.trim() !== '' && indentOf(next) === labelHang));
    const hang = hangs ? ' '.repeat(labelHang) : first;
    let body = line.trim();
    while (i + 1 < lines.length) {
      const n = lines[i + 1]!;
      if (n.trim() === '' || indentOf(n) !== hang.length || EXAMPLE.exec(n) || (ITEM.exec(n) && hang.length > 0) || /^\s*[-•*] /.test(n)) break;
      body += ` ${n.trim()}`;
      i++;
    }
    blocks.push({ kind: 'text', first, hang, text: body });
  }
  return blocks;
}
