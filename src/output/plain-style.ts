/**
 * What a view may style text with, and the style without colour. Its own module, free of chalk, so
 * render.ts (which loads chalk only when colour is on) and style.ts (chalk's style) both build on
 * it without importing each other.
 */
export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
}

const same = (s: string) => s;
/** No colour: what pipes, --no-color and NO_COLOR get. */
export const PLAIN: Style = { bold: same, dim: same, red: same, yellow: same, green: same, cyan: same };
