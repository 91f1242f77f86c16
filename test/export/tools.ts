/** Test tools for the export suites: where files go (test/out, gitignored) and the ogrinfo check. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const OUT_DIR = new URL('../out/', import.meta.url).pathname;

/** Writes a test artifact under test/out/<sub>/ and returns its path. */
export function writeOut(sub: string, name: string, text: string | Uint8Array): string {
  const dir = join(OUT_DIR, sub);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function has(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

/** exiftool (Debian libimage-exiftool-perl), the reference EXIF reader. Tests skip with this reason when it is missing. */
export const EXIFTOOL = has('exiftool', ['-ver']);
export const EXIFTOOL_SKIP = 'skipped: exiftool is not installed (apt-get install libimage-exiftool-perl)';

/** Debian gdal-bin; .ci/run installs it. Tests skip with this reason when it is missing. */
export const OGRINFO = has('ogrinfo', ['--version']);
export const OGRINFO_SKIP = 'ogrinfo missing: apt-get install -y gdal-bin';

/** `ogrinfo -ro -al -so FILE`: summary of every layer. Throws (with GDAL's message) when it cannot read the file. */
export function ogrinfo(path: string): string {
  return execFileSync('ogrinfo', ['-ro', '-al', '-so', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Total "Feature Count" over all layers of an ogrinfo summary. */
export function featureCount(summary: string): number {
  return [...summary.matchAll(/Feature Count: (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
}

/**
 * A strict-enough XML well-formedness check for generated documents: one root, every tag closed
 * in order, attributes quoted, every & a known entity, no raw < in text. (ogrinfo's expat read is
 * the second, independent check.)
 */
export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+="[^"<]*")*)\s*(\/?)>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g;
  let last = 0;
  for (const m of body.matchAll(tag)) {
    const text = body.slice(last, m.index);
    if (text.includes('<')) problems.push(`raw < in text near ${JSON.stringify(text.slice(0, 40))}`);
    for (const amp of text.matchAll(/&([^;\s]*);?/g)) if (!/^(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+)$/i.test(amp[1]!) || !amp[0].endsWith(';')) problems.push(`bad entity ${amp[0]}`);
    last = m.index + m[0].length;
    if (!m[2]) continue;
    const [, close, name, , selfClose] = m;
    if (close) {
      if (stack.pop() !== name) problems.push(`</${name}> closes the wrong element`);
    } else if (!selfClose) {
      if (stack.length === 0) roots++;
      stack.push(name!);
    } else if (stack.length === 0) roots++;
  }
  if (body.slice(last).trim() !== '') problems.push('text after the root element');
  if (stack.length) problems.push(`unclosed: ${stack.join(' > ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}
