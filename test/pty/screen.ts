/**
 * What a terminal of `columns` shows after a program's bytes, by a small emulator of the sequences
 * geo and ora write: printing (with xterm's wrap at the last column), \r, \n, \b, erase in line
 * (CSI K), cursor up/down/left/right/column (CSI A B C D G), erase below (CSI J); colours and
 * other sequences draw nothing. A redraw in place leaves one row; a line wider than the screen
 * leaves the rows it wrapped into, as a person sees them.
 */
export function screenRows(raw: string, columns: number): string[] {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  let pendingWrap = false;
  const line = () => (rows[row] ??= []);
  const put = (ch: string) => {
    if (pendingWrap) {
      row++;
      col = 0;
      pendingWrap = false;
    }
    const l = line();
    while (l.length < col) l.push(' ');
    l[col] = ch;
    if (col === columns - 1) pendingWrap = true;
    else col++;
  };
  const chars = [...raw];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\u001b') {
      const rest = chars.slice(i, i + 40).join('');
      const csi = /^\u001b\[([0-9;?]*)([ -/]*)([@-~])/.exec(rest);
      const osc = /^\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)/.exec(rest);
      const other = /^\u001b[()][0-9A-B]|^\u001b[=>78]/.exec(rest);
      const m = csi ?? osc ?? other;
      if (!m) continue;
      i += [...m[0]].length - 1;
      if (!csi) continue;
      const n = Number(csi[1]?.replace('?', '') || '') || 1;
      pendingWrap = false;
      switch (csi[3]) {
        case 'K': {
          const l = line();
          const mode = Number(csi[1] || '0');
          if (mode === 2) rows[row] = [];
          else if (mode === 0) l.length = Math.min(l.length, col);
          else for (let c = 0; c <= col && c < l.length; c++) l[c] = ' ';
          break;
        }
        case 'J':
          if (Number(csi[1] || '0') === 0) {
            line().length = Math.min(line().length, col);
            rows.length = row + 1;
          }
          break;
        case 'A': row = Math.max(0, row - n); break;
        case 'B': row += n; break;
        case 'C': col = Math.min(columns - 1, col + n); break;
        case 'D': col = Math.max(0, col - n); break;
        case 'G': col = Math.min(columns - 1, n - 1); break;
        default: break;
      }
      continue;
    }
    if (ch === '\r') {
      col = 0;
      pendingWrap = false;
    } else if (ch === '\n') {
      row++;
      col = 0;
      pendingWrap = false;
    } else if (ch === '\b') col = Math.max(0, col - 1);
    else if (ch >= ' ' || ch === '\t') put(ch === '\t' ? ' ' : ch);
  }
  const out = Array.from({ length: rows.length }, (_, r) => (rows[r] ?? []).map((c) => c ?? ' ').join('').trimEnd());
  while (out.length && out[out.length - 1] === '') out.pop();
  return out;
}

/**
 * The logical lines as the program meant them (rows joined where the terminal wrapped them), for
 * "no line wider than the screen": a line that wrapped is one whose row was full.
 */
export function tooWideLines(raw: string, columns: number, allowed: RegExp = /^\s*\S+$/): string[] {
  // Emulate with an endless width, so a line keeps its length instead of wrapping.
  return screenRows(raw, 100_000).filter((l) => [...l].length > columns && !allowed.test(l));
}
