/**
 * The views the one masking function (mask.ts) reads a text in: which characters a reader skips,
 * which encodings geo undoes (JSON escapes, HTML entities, percent-encoding), how a character is
 * folded (case, look-alikes of ASCII), and a view that keeps where each of its characters came from,
 * so what is found there is masked in the text itself.
 */
import { isUtf8 } from 'node:buffer';

/**
 * What a reader skips without seeing it: whitespace, the soft hyphen, the combining grapheme joiner,
 * the Arabic letter mark, Hangul fillers, Khmer inherent vowels, Mongolian selectors, zero-width
 * spaces and joiners, bidi marks, embeddings and isolates, the word joiner and invisible operators,
 * variation selectors, the BOM, invisible musical symbols and tag characters.
 */
const FILLER = String.raw`\s\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}`;
// Each mark in the class stands alone, on purpose (it is what is looked for), not as part of a letter.
// eslint-disable-next-line no-misleading-character-class
const IS_FILLER = new RegExp(`^[${FILLER}]$`, 'u');

/** The encodings a view undoes, each a token pattern, and the character without which it cannot occur. */
export const TOKENS = {
  json: [String.raw`\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|["\\/bfnrt])`, '\\'],
  entity: [String.raw`&#[xX][0-9a-fA-F]{1,6};?|&#[0-9]{1,7};?|&[a-zA-Z][a-zA-Z0-9]{1,31};`, '&'],
  percent: [String.raw`%[0-7][0-9a-fA-F]|%[cdCD][0-9a-fA-F]%[89abAB][0-9a-fA-F]|%[eE][0-9a-fA-F](?:%[89abAB][0-9a-fA-F]){2}|%[fF][0-4](?:%[89abAB][0-9a-fA-F]){3}`, '%'],
} as const;
export type Encoding = keyof typeof TOKENS;
/** The views: a spelling that mixes encodings is read by the last; the others read what it would misread (a literal "%61" in a key). */
export const VIEWS: Encoding[][] = [[], ['json'], ['json', 'entity'], ['json', 'percent'], ['json', 'entity', 'percent']];

const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The HTML entities that spell a character a key or its base64 may hold, or an invisible one (names matched in any case). */
const NAMED_ENTITIES: Record<string, string> = {
  lowbar: '_', UnderBar: '_', period: '.', sol: '/', plus: '+', equals: '=', colon: ':', excl: '!', num: '#', dollar: '$', percnt: '%', amp: '&', ast: '*',
  comma: ',', semi: ';', quest: '?', commat: '@', lsqb: '[', rsqb: ']', bsol: '\\', Hat: '^', grave: '`', lcub: '{', rcub: '}', verbar: '|', apos: "'", quot: '"',
  lpar: '(', rpar: ')', lt: '<', gt: '>', nbsp: ' ', shy: '\u00ad', zwnj: '\u200c', zwj: '\u200d', lrm: '\u200e', rlm: '\u200f', ZeroWidthSpace: '\u200b',
  NegativeVeryThinSpace: '\u200b', NegativeThinSpace: '\u200b', NegativeMediumSpace: '\u200b', NegativeThickSpace: '\u200b', NoBreak: '\u2060',
  ApplyFunction: '\u2061', af: '\u2061', InvisibleTimes: '\u2062', it: '\u2062', InvisibleComma: '\u2063', ic: '\u2063', Tab: '\t', NewLine: '\n',
  ensp: ' ', emsp: ' ', thinsp: ' ', hairsp: ' ', numsp: ' ', puncsp: ' ', MediumSpace: ' ',
};
const NAMED = new Map(Object.entries(NAMED_ENTITIES).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * A token's text once decoded: an encoded character, '' for a run of invisible characters, any other
 * character as itself; undefined when it decodes to nothing (it is then read as it is).
 */
export function decodeToken(t: string): string | undefined {
  if (t[0] === '\\') return t.length === 2 ? JSON_ESCAPES[t[1]!] : String.fromCharCode(...t.split('\\u').slice(1).map((h) => parseInt(h, 16)));
  if (t[0] === '%') {
    const b = Buffer.from(t.replace(/%/g, ''), 'hex');
    return isUtf8(b) ? b.toString('utf8') : undefined;
  }
  if (t[0] === '&' && t[1] === '#') {
    const n = t[2] === 'x' || t[2] === 'X' ? parseInt(t.slice(3), 16) : parseInt(t.slice(2), 10);
    return n > 0 && n <= 0x10ffff && (n < 0xd800 || n > 0xdfff) ? String.fromCodePoint(n) : undefined;
  }
  if (t[0] === '&') return NAMED.get(t.slice(1, -1).toLowerCase());
  return IS_FILLER.test(String.fromCodePoint(t.codePointAt(0)!)) ? '' : t;
}

/** One character as a view holds it: invisible ones dropped, case folded, look-alikes of ASCII (fullwidth, NFKC) as that ASCII. */
function fold(ch: string): string {
  const c = ch.charCodeAt(0);
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? String.fromCharCode(c + 32) : IS_FILLER.test(ch) ? '' : ch;
  let f = folded.get(ch);
  if (f === undefined) {
    const n = ch.normalize('NFKC');
    f = IS_FILLER.test(ch) ? '' : n.length === 1 && n.charCodeAt(0) < 0x80 ? fold(n) : ch;
    // A text rarely holds more than a few hundred characters beyond ASCII; the memo stays small.
    if (folded.size > 4096) folded.clear();
    folded.set(ch, f);
  }
  return f;
}
const folded = new Map<string, string>();

// eslint-disable-next-line no-misleading-character-class
const FILLERS = new RegExp(`[${FILLER}]+`, 'gu');
const NON_ASCII = /[\u0080-\u{10ffff}]/gu;

/**
 * fold() over a whole string, for the quick look: native passes, and a call only per character
 * beyond ASCII. (Lower-casing those first may find more than the mapped view, never less.)
 */
export function foldAll(s: string): string {
  const t = s.replace(FILLERS, '').toLowerCase();
  NON_ASCII.lastIndex = 0;
  return NON_ASCII.test(t) ? t.replace(NON_ASCII, fold) : t;
}

const regexCache = new Map<string, RegExp>();

/** The tokens of a view's encodings (quick look), or with `mapped` also invisible runs and every character beyond ASCII. */
export function tokenRegex(view: Encoding[], mapped: boolean): RegExp {
  const id = `${view.join()}${mapped ? '+' : ''}`;
  let re = regexCache.get(id);
  if (!re) regexCache.set(id, (re = new RegExp([...(mapped ? [`[${FILLER}]+`] : []), ...view.map((e) => TOKENS[e][0]), ...(mapped ? [NON_ASCII.source] : [])].join('|'), 'gu')));
  re.lastIndex = 0;
  return re;
}

/**
 * A view with where each of its parts came from: part k starts at norm[at[k]] and came from
 * text[from[k], to[k]); a literal part (`same`) maps character for character.
 */
export interface Mapped {
  norm: string;
  at: number[];
  from: number[];
  to: number[];
  same: boolean[];
}

export function mappedView(text: string, view: Encoding[]): Mapped {
  const v: Mapped = { norm: '', at: [], from: [], to: [], same: [] };
  const parts: string[] = [];
  let n = 0;
  const add = (s: string, a: number, b: number, same: boolean) => {
    if (s === '') return;
    parts.push(s);
    v.at.push(n);
    v.from.push(a);
    v.to.push(b);
    v.same.push(same);
    n += s.length;
  };
  const re = tokenRegex(view, true);
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // Between tokens: ASCII without spaces, whose folding keeps every position.
    if (m.index > last) add(text.slice(last, m.index).toLowerCase(), last, m.index, true);
    const end = m.index + m[0].length;
    const d = decodeToken(m[0]);
    if (d === undefined) add(m[0].toLowerCase(), m.index, end, true);
    else add(d === '' ? '' : fold(d), m.index, end, false);
    last = end;
  }
  if (last < text.length) add(text.slice(last).toLowerCase(), last, text.length, true);
  v.norm = parts.join('');
  return v;
}

/** Where in the text the view's character i came from: [start, end). */
export function sourceOf(v: Mapped, i: number): [number, number] {
  let lo = 0;
  let hi = v.at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (v.at[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return v.same[lo] ? [v.from[lo]! + i - v.at[lo]!, v.from[lo]! + i - v.at[lo]! + 1] : [v.from[lo]!, v.to[lo]!];
}
