/**
 * Colour through chalk, with the level forced from our own decision (output/io.ts decideColor),
 * never from chalk's global detection. Imported only where colour is on (render.ts loadStyle) or
 * where a view always styles (batch progress on stderr).
 */
import { Chalk } from 'chalk';
import { PLAIN, type Style } from './plain-style.js';

export function makeStyle(color: boolean): Style {
  if (!color) return PLAIN;
  const c = new Chalk({ level: 1 });
  return { bold: (s) => c.bold(s), dim: (s) => c.dim(s), red: (s) => c.red(s), yellow: (s) => c.yellow(s), green: (s) => c.green(s), cyan: (s) => c.cyan(s) };
}
