/**
 * Help blocks (blocks.ts) as roff for man(7) (man pages from the same definitions as
 * --help). man wraps the text to the reader's width itself, so paragraphs are written unwrapped;
 * examples are no-fill lines. Escapes follow groff_man(7): a backslash is `\e`, a hyphen in a flag
 * `\-` (so it copies as a hyphen-minus), and a line starting with `.` or `'` is guarded by `\&`.
 */
import type { Block } from './blocks.js';

/** Text for a roff line: backslashes and hyphens escaped, a leading control character guarded. */
export function roffText(s: string): string {
  const out = s.replace(/\\/g, '\\e').replace(/-/g, '\\-');
  return /^[.']/.test(out) ? `\\&${out}` : out;
}

/** One request line (`.TH`, `.SH`…) with quoted arguments. */
export const request = (name: string, ...args: string[]) => `.${name}${args.map((a) => ` "${roffText(a).replace(/"/g, '\\(dq')}"`).join('')}`;

export function roffBlocks(blocks: readonly Block[]): string[] {
  const out: string[] = [];
  let nofill = false;
  const fill = () => {
    if (nofill) out.push('.fi', '.RE');
    nofill = false;
  };
  for (const b of blocks) {
    if (b.kind === 'example' || b.kind === 'line') {
      if (!nofill) out.push('.RS 2', '.nf');
      nofill = true;
      if (b.kind === 'line') out.push(roffText(b.text.trimStart()) || '\\&');
      else out.push(roffText(`${b.prompt}${b.command}${b.comment !== undefined ? `  # ${b.comment}` : ''}`));
      continue;
    }
    fill();
    if (b.kind === 'blank') continue;
    if (b.kind === 'item') out.push('.TP', `.B ${roffText(b.term)}`, roffText(b.text));
    else if (/^\s*[-•*] $/.test(b.first)) out.push('.IP \\(bu 2', roffText(b.text));
    else out.push(b.first.length > 0 ? '.IP' : '.PP', roffText(b.text));
  }
  fill();
  return out;
}
