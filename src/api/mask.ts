/**
 * The one masking function: every spelling of a key a reader would still
 * recognise, in text and in raw bytes alike. api/secret.ts masks every answer with it before
 * anything reads or keeps it; output/sanitize.ts redact() masks every other output with it.
 *
 * The text is read in several ways (views), each with its invisible characters dropped and its
 * case folded: as it is; with JSON escapes undone; then also with HTML entities (named and numeric)
 * or percent-encoding undone, or both. In each view geo looks for the key, the key reversed, and
 * the base64 of the key (standard and url-safe, in each of the three alignments inside a longer
 * blob, padded or not). What matches is replaced, from the first character of the spelling to its
 * last, by SECRET_MASK: always those 10 characters, whatever the length of what they replace.
 *
 * Only the configured secret is masked, never what merely looks like one; secrets shorter than 4
 * characters match nothing (a mask of "abc" would eat text), and the reversed and base64 spellings
 * need 8 (shorter ones would match ordinary words and base64).
 */
import { bytesOfEscaped, escapedText } from './decode.js';
import { type Encoding, type Mapped, TOKENS, VIEWS, decodeToken, foldAll, mappedView, sourceOf, tokenRegex } from './mask-views.js';

export const SECRET_MASK = '[REDACTED]';

const MIN = 4;
const DERIVED_MIN = 8;

/** A spelling looked for in a view; base64 ones may take a character either side the key only shares, and padding. */
interface Needle {
  text: string;
  lead: number;
  trail: number;
}

const needleCache = new Map<string, Needle[]>();

function needlesOf(secret: string): Needle[] {
  let out = needleCache.get(secret);
  if (out) return out;
  out = [];
  const key = foldAll(secret);
  if (key.length >= MIN) out.push({ text: key, lead: 0, trail: 0 });
  if (key.length >= DERIVED_MIN) {
    out.push({ text: [...key].reverse().join(''), lead: 0, trail: 0 });
    const bytes = Buffer.from(secret, 'utf8');
    for (let a = 0; a < 3; a++) {
      // Behind `a` other bytes the key's own characters are those whose 6 bits are all its own.
      const enc = Buffer.concat([Buffer.alloc(a), bytes]).toString('base64');
      const bits = 8 * (a + bytes.length);
      const core = enc.slice(Math.ceil((8 * a) / 6), Math.floor(bits / 6));
      for (const c of new Set([core, core.replace(/\+/g, '-').replace(/\//g, '_')])) out.push({ text: c.toLowerCase(), lead: a > 0 ? 1 : 0, trail: bits % 6 ? 1 : 0 });
    }
  }
  needleCache.set(secret, out);
  return out;
}

const B64 = /[a-z0-9+/_-]/;

/** Where in the text a needle found at `at` of the view lies, widened over base64 characters it shares and its padding. */
function spanOf(v: Mapped, at: number, n: Needle): [number, number] {
  let s = at;
  let e = at + n.text.length;
  if (n.lead && s > 0 && B64.test(v.norm[s - 1]!)) s--;
  if (n.trail && e < v.norm.length && B64.test(v.norm[e]!)) e++;
  for (let pad = 0; n.trail && pad < 2 && v.norm[e] === '='; pad++) e++;
  return [sourceOf(v, s)[0], sourceOf(v, e - 1)[1]];
}

/** `text` with each span (merged where they overlap) replaced by the mask. */
function replaceSpans(text: string, spans: Array<[number, number]>): string {
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (let i = 0; i < spans.length; ) {
    const s = spans[i]![0];
    let e = spans[i++]![1];
    while (i < spans.length && spans[i]![0] < e) e = Math.max(e, spans[i++]![1]);
    out += text.slice(pos, s) + SECRET_MASK;
    pos = e;
  }
  return out + text.slice(pos);
}

function maskText(text: string, secrets: readonly string[]): string {
  const needles = secrets.flatMap(needlesOf);
  if (needles.length === 0 || text === '') return text;
  // An encoding whose mark is absent cannot occur: the views it would add are views already read.
  const views = new Set(VIEWS.map((v) => v.filter((e) => text.includes(TOKENS[e][1])).join()));
  let out = text;
  // A cheap look first, without positions: the text folded once, each view's encodings undone on
  // that (it may find more than the view itself, never less). The mapped view is made only where
  // something is left to mask, and what it finds is masked before the next view looks.
  let folded = foldAll(out);
  for (const id of views) {
    const view = (id === '' ? [] : id.split(',')) as Encoding[];
    const quick = view.length === 0 ? folded : folded.replace(tokenRegex(view, false), (t) => foldAll(decodeToken(t) ?? t));
    const hits = needles.filter((n) => quick.includes(n.text));
    if (hits.length === 0) continue;
    const v = mappedView(out, view);
    const spans: Array<[number, number]> = [];
    for (const n of hits) for (let at = v.norm.indexOf(n.text); at >= 0; at = v.norm.indexOf(n.text, at + 1)) spans.push(spanOf(v, at, n));
    if (spans.length > 0) folded = foldAll((out = replaceSpans(out, spans)));
  }
  return out;
}

/**
 * `input` with every spelling of each secret replaced by SECRET_MASK. Bytes are read as text
 * without losing any (decode.ts escapedText), so a body that is not UTF-8 keeps every byte but the
 * key's. Nothing to mask: the same string, or the very same Buffer, is returned.
 */
export function maskSecrets(input: string, secrets: readonly string[]): string;
export function maskSecrets(input: Buffer, secrets: readonly string[]): Buffer;
export function maskSecrets(input: string | Buffer, secrets: readonly string[]): string | Buffer {
  if (typeof input === 'string') return maskText(input, secrets);
  if (secrets.every((s) => needlesOf(s).length === 0)) return input;
  const text = escapedText(input);
  const masked = maskText(text, secrets);
  return masked === text ? input : bytesOfEscaped(masked);
}

/** A parsed JSON value with `mask` applied to every string in it, object keys included. */
export function mapStrings<T>(value: T, mask: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return mask(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [mask(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}
