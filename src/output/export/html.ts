/** HTML escaping for the report: the terminal sanitizer first (controls and bidi marks made visible), then entities. */
import { sanitize } from '../sanitize.js';

export function esc(s: unknown): string {
  return sanitize(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** JSON for a <script type="application/json"> block: nothing in it can close the tag or open a comment. */
export function jsonForScript(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Library code inlined in <script>/<style>: an end tag or comment opener inside it would end the element early. */
export function inlineSafe(code: string, tag: 'script' | 'style'): string {
  const end = new RegExp(`</${tag}`, 'gi');
  // The HTML parser turns CRLF and CR into LF before the CSP hash is checked: normalise first.
  return code.replace(/\r\n?/g, '\n').replace(end, `<\\/${tag}`).replace(/<!--/g, '<\\!--');
}

/**
 * The start of a self-contained page, up to <body>: its Content-Security-Policy (a meta tag, the
 * only way a file opened from disk can carry one), no referrer, and the given <style> blocks.
 */
export function pageHead(o: { csp: string; title: string; cliVersion?: string; styles: readonly string[] }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(o.csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="geo ${esc(o.cliVersion ?? '')}">
<title>${esc(o.title)}</title>
${o.styles.map((st) => `<style>${st}</style>`).join('\n')}
</head>
<body>`;
}
