/** XML text escaping for KML (and anything else XML). */
import { sanitize } from '../sanitize.js';

// XML 1.0 forbids most C0 controls, lone surrogates, U+FFFE and U+FFFF even as references.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Server text to XML text: terminal-unsafe characters made visible first, then the five entities. */
export function xmlText(s: unknown): string {
  return sanitize(s)
    .replace(NOT_XML, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
