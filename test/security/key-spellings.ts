/**
 * Issue 30, section 4: the spellings of a key a hostile server echoes, and an independent detector
 * that finds the key in any of them (it shares no code with src/api/mask.ts): the text is read as
 * is, with JSON \u escapes undone, with HTML entities undone and with percent-encoding undone; in
 * each reading every space, format character (Unicode Cf: zero-width, bidi, BOM, soft hyphen, tags)
 * and non-spacing mark is dropped and the case folded; then the key, the key reversed and the key's
 * base64 (each alignment, standard and url-safe) are looked for.
 */

const hex = (c: string) => c.charCodeAt(0).toString(16);
const FILLERS = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u202e', '\u2066', '\u200e', '\u180e', '\u034f', '\u{e0041}'];

/** base64 of the key behind `pad` bytes (its alignment), as a server would embed it in a longer blob. */
const b64 = (key: string, pad: string, url = false) => Buffer.from(`${pad}${key}!`).toString(url ? 'base64url' : 'base64');

/** Every spelling section 4 names, each by name: a reader still recognises the key in each. */
export function spellings(key: string): Record<string, string> {
  const chars = [...key];
  return {
    upper: key.toUpperCase(),
    zeroWidth: chars.map((c, i) => (i === 0 ? c : FILLERS[i % FILLERS.length]! + c)).join(''),
    zeroWidthMixedCase: chars.map((c, i) => (i % 2 ? c.toUpperCase() : c) + (i < chars.length - 1 ? '\u200b\u200d' : '')).join(''),
    percentUpper: chars.map((c) => `%${hex(c).toUpperCase()}`).join(''),
    percentLowerPartial: chars.map((c, i) => (i % 3 ? c : `%${hex(c)}`)).join(''),
    percentWithEncodedZwsp: chars.join('%E2%80%8B'),
    entitiesDecimal: chars.map((c) => `&#${c.charCodeAt(0)};`).join(''),
    entitiesHexNamed: chars.map((c) => (c === '_' ? '&lowbar;' : `&#x${hex(c).toUpperCase()};`)).join('&ZeroWidthSpace;'),
    base64: Buffer.from(key).toString('base64'),
    base64Align1: b64(key, 'x'),
    base64Align2: b64(key, 'xy'),
    base64UrlAlign2: b64(key, 'xy', true),
    base64UrlUnpadded: Buffer.from(key).toString('base64url').replace(/=+$/, ''),
    base64Wrapped: Buffer.from(`ab${key}`).toString('base64').replace(/(.{8})/g, '$1\r\n'),
    reversed: [...chars].reverse().join(''),
    reversedZeroWidthUpper: [...chars].reverse().join('\u2060').toUpperCase(),
  };
}

/**
 * The key as JSON escapes with an escaped zero-width space between its characters: a JSON text
 * spells it so (the server writes it into the JSON text itself, see jsonSpelt).
 */
export const jsonEscaped = (key: string) => [...key].map((c) => `\\u${hex(c).padStart(4, '0')}`).join('\\u200b');

/** A JSON text with the upper-case spelling rewritten as JSON escapes (hostile-server.ts mangle). */
export const jsonSpelt = (key: string) => (json: string) => json.replaceAll(key.toUpperCase(), jsonEscaped(key));

/** One string with every spelling, what the hostile server puts in every field it sends. */
export const allSpellings = (key: string) => Object.entries(spellings(key)).map(([name, s]) => `${name}: ${s}`).join(' | ');

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const decodeJson = (s: string) => s.replace(/\\(?:u([0-9a-fA-F]{4})|(.))/g, (_, h?: string, c?: string) => (h !== undefined ? String.fromCharCode(parseInt(h, 16)) : (ESCAPES[c!] ?? c!)));
const NAMED: Record<string, string> = { lowbar: '_', ZeroWidthSpace: '\u200b', amp: '&', quot: '"', lt: '<', gt: '>', shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c' };
const decodeEntities = (s: string) =>
  s.replace(/&#[xX]([0-9a-fA-F]+);?|&#(\d+);?|&([a-zA-Z]+);/g, (m, h?: string, d?: string, n?: string) => {
    const cp = h !== undefined ? parseInt(h, 16) : d !== undefined ? Number(d) : undefined;
    if (cp !== undefined) return cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    return NAMED[n!] ?? m;
  });
const decodePercent = (s: string) => s.replace(/(?:%[0-9a-fA-F]{2})+/g, (m) => Buffer.from(m.replace(/%/g, ''), 'hex').toString('utf8'));
const squeeze = (s: string) => s.replace(/[\s\p{Cf}\p{Mn}]/gu, '').toLowerCase();

/** What a reader looks for: the key, reversed, and the base64 characters only the key decides. */
function needles(key: string): string[] {
  const out = [key, [...key].reverse().join('')];
  for (const pad of ['', 'x', 'xy']) {
    for (const url of [false, true]) {
      const enc = Buffer.from(pad + key).toString(url ? 'base64url' : 'base64').replace(/=+$/, '');
      out.push(enc.slice(Math.ceil((pad.length * 8) / 6), Math.floor(((pad.length + key.length) * 8) / 6)));
    }
  }
  return [...new Set(out.map((n) => n.toLowerCase()))];
}

/** The spelling of `key` found in `data`, or undefined: every reading of the text, every needle. */
export function findKey(data: string | Buffer, key: string): string | undefined {
  const text = typeof data === 'string' ? data : data.toString('utf8');
  const json = decodeJson(text);
  const views = { text, json, entities: decodeEntities(json), percent: decodePercent(json), both: decodePercent(decodeEntities(json)) };
  for (const [name, view] of Object.entries(views)) {
    const v = squeeze(view);
    for (const n of needles(key)) {
      const at = v.indexOf(n);
      if (at >= 0) return `${name} reading, "${n}" at ${at}: …${v.slice(Math.max(0, at - 40), at + n.length + 40)}…`;
    }
  }
  return undefined;
}
