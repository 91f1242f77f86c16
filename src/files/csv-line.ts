/** One CSV line split into fields (RFC 4180 quoting): truth files (eval/truth.ts) and claims files (claims/file.ts) share it. */

/**
 * One CSV record per physical line, fields split at commas outside double quotes ("" is a quote).
 * A quoted field spanning lines is not supported (file names do not hold newlines in practice).
 */
export function splitCsvLine(line: string): string[] | undefined {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (line[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field.trim() === '' && !wasQuoted) {
      quoted = wasQuoted = true;
      field = '';
    } else if (c === ',') {
      out.push(wasQuoted ? field : field.trim());
      field = '';
      wasQuoted = false;
    } else if (wasQuoted) {
      if (c.trim() !== '') return undefined;
    } else field += c;
  }
  if (quoted) return undefined;
  out.push(wasQuoted ? field : field.trim());
  return out;
}
