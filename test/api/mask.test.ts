/**
 * Issue 30, section 4: the one masking function (src/api/mask.ts) over text and raw bytes alike.
 * Every spelling a reader recognises is masked (checked by the independent detector of
 * test/security/key-spellings.ts), the rest of the text is left exactly as it was, a JSON text stays
 * JSON, a body that is not UTF-8 keeps every other byte, and nothing that merely looks like the key
 * is touched. scrubAnswer (src/api/secret.ts) masks an answer's headers and body and says, with the
 * sha256 of the bytes as received, when it did.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SECRET_MASK, mapStrings, maskSecrets } from '../../src/api/mask.js';
import { scrubAnswer } from '../../src/api/secret.js';
import { findKey, jsonEscaped, spellings } from '../security/key-spellings.js';

const KEY = 'orca_live_Sp3lL~ngK3y9Q7wXz';
const mask = (s: string) => maskSecrets(s, [KEY]);

describe('maskSecrets: every spelling', () => {
  for (const [name, spelt] of Object.entries({ ...spellings(KEY), jsonEscaped: jsonEscaped(KEY) })) {
    it(`${name}: masked in text and in a JSON text (still JSON), nothing around it touched`, () => {
      expect(findKey(`say ${spelt} end`, KEY), 'the detector sees it').toBeDefined();
      const out = mask(`say ${spelt} end`);
      expect(findKey(out, KEY)).toBeUndefined();
      expect(out).toMatch(/^say .*\[REDACTED\].* end$/s);
      const json = name === 'jsonEscaped' ? `{"note":"say ${spelt} end","n":1}` : JSON.stringify({ note: `say ${spelt} end`, n: 1 });
      const masked = mask(json);
      expect(findKey(masked, KEY)).toBeUndefined();
      expect(JSON.parse(masked)).toMatchObject({ note: expect.stringMatching(/^say .*\[REDACTED\].* end$/s), n: 1 });
    });
  }

  it('the mask is always the same 10 characters, once per occurrence, whatever it replaces', () => {
    expect(mask(`a ${KEY} b ${KEY.toUpperCase()} c`)).toBe(`a ${SECRET_MASK} b ${SECRET_MASK} c`);
    expect(SECRET_MASK).toBe('[REDACTED]');
    expect(mask(`${KEY}${KEY}`)).toBe(SECRET_MASK + SECRET_MASK);
  });

  it('look-alikes of ASCII (fullwidth, mathematical letters: NFKC) are read as that ASCII', () => {
    const fullwidth = KEY.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    expect(mask(`say ${fullwidth} end`)).toBe(`say ${SECRET_MASK} end`);
    const bold = [...KEY].map((c) => (/[a-z]/.test(c) ? String.fromCodePoint(0x1d41a + c.charCodeAt(0) - 0x61) : c)).join('');
    expect(mask(`say ${bold} end`)).toBe(`say ${SECRET_MASK} end`);
  });

  it('base64 inside a longer blob: the characters the key shares with its neighbours and the padding go too, nothing else', () => {
    const s = spellings(KEY);
    expect(mask(s.base64!)).toBe(SECRET_MASK);
    // 'x' + key + '!': "e" is the x alone, "E=" the ! alone.
    expect(mask(s.base64Align1!)).toBe(`e${SECRET_MASK}E=`);
    expect(mask(s.base64Align2!)).toBe(`eH${SECRET_MASK}h`);
  });

  it('raw bytes: a body that is not UTF-8 (BOM, stray bytes) keeps every byte but the key; no key, the very same Buffer', () => {
    const before = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x20]), Buffer.from('"k":"'), Buffer.from(KEY.toUpperCase()), Buffer.from([0xc3, 0x28, 0x22, 0x7d, 0x80])]);
    const after = maskSecrets(before, [KEY]);
    expect(after).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x20]), Buffer.from('"k":"'), Buffer.from(SECRET_MASK), Buffer.from([0xc3, 0x28, 0x22, 0x7d, 0x80])]));
    const clean = Buffer.from([0xff, 0x00, 0x41, 0xe2, 0x80, 0x8b, 0x80]);
    expect(maskSecrets(clean, [KEY])).toBe(clean);
    expect(maskSecrets('unchanged', [KEY])).toBe('unchanged');
    const zw = Buffer.from(spellings(KEY).zeroWidth!, 'utf8');
    expect(maskSecrets(zw, [KEY]).toString()).toBe(SECRET_MASK);
  });
});

describe('maskSecrets: only the configured key, never what merely looks like one', () => {
  const OTHER = 'orca_live_Sp3lL~ngK3y9Q8wXz'; // one character off
  const untouched = [
    `${OTHER} ${OTHER.toUpperCase()} ${[...OTHER].reverse().join('')} ${Buffer.from(OTHER).toString('base64')} ${encodeURIComponent(OTHER)}`,
    'orca_live_ orca_live_…7wXz orca_live_Sp3lL~ngK3y9Q7wX (all but the last character) zXw7Q9y3KgnL',
    'ordinary text: a &amp; b, 100% sure, a%20b, line\\nbreak, \\u00e9, &constructor; &#99999999; %zz %C0%80',
  ];
  for (const text of untouched) {
    it(`leaves alone: ${text.slice(0, 60)}…`, () => {
      expect(mask(text)).toBe(text);
      expect(maskSecrets(Buffer.from(text), [KEY])).toEqual(Buffer.from(text));
    });
  }

  it('secrets shorter than 4 characters mask nothing; reversed and base64 spellings need 8', () => {
    expect(maskSecrets('abc ABC cba', ['abc'])).toBe('abc ABC cba');
    expect(maskSecrets('k3yx K3YX xy3k', ['k3yx'])).toBe(`${SECRET_MASK} ${SECRET_MASK} xy3k`);
    expect(maskSecrets(`s3cr3t ${Buffer.from('s3cr3t').toString('base64')}`, ['s3cr3t'])).toBe(`${SECRET_MASK} ${Buffer.from('s3cr3t').toString('base64')}`);
  });

  it('mapStrings masks every string of a value, object keys included, and nothing else', () => {
    const value = { [KEY]: [KEY.toUpperCase(), 1, null, true], nested: { note: `x ${KEY} y` } };
    expect(mapStrings(value, mask)).toEqual({ [SECRET_MASK]: [SECRET_MASK, 1, null, true], nested: { note: `x ${SECRET_MASK} y` } });
  });
});

describe('scrubAnswer: an answer as geo keeps it', () => {
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const answer = (body: string, headers: Record<string, string> = {}) => {
    const bytes = Buffer.from(body, 'utf8');
    return { status: 200, headers, raw: body, bytes, deviations: [] };
  };

  it('masks the body (text and bytes alike) and the headers (names and values), and gives the sha256 of the bytes as received', () => {
    const body = JSON.stringify({ note: spellings(KEY).percentUpper, ok: true });
    const ans = scrubAnswer(answer(body, { 'x-echo': KEY.toUpperCase(), [`x-${KEY.toLowerCase()}`]: 'v' }), KEY);
    expect(ans.raw).toBe(JSON.stringify({ note: SECRET_MASK, ok: true }));
    expect(ans.bytes.toString()).toBe(ans.raw);
    expect(ans.headers).toEqual({ 'x-echo': SECRET_MASK, [`x-${SECRET_MASK}`]: 'v' });
    expect(ans.receivedSha256).toBe(sha(Buffer.from(body)));
  });

  it('an answer without the key is returned as it came, with no received sha256', () => {
    const a = answer('{"ok":true}');
    const ans = scrubAnswer(a, KEY);
    expect(ans.bytes).toBe(a.bytes);
    expect(ans.raw).toBe(a.raw);
    expect(ans.receivedSha256).toBeUndefined();
  });

  it('a mask that would cut a JSON escape is made on the parsed body instead: the answer stays JSON', () => {
    const key = 'norca_live_xyz12345';
    // `\n` then the key's tail: read as text the backslash's "n" starts the key.
    const body = `{"a":"x\\${key}","b":"${key.toUpperCase()}"}`;
    const ans = scrubAnswer(answer(body), key);
    expect(JSON.parse(ans.raw)).toEqual({ a: `x\n${key.slice(1)}`, b: SECRET_MASK });
    expect(ans.receivedSha256).toBe(sha(Buffer.from(body)));
  });
});
