import { describe, expect, it } from 'vitest';
import { confidenceBar, confidenceWord, formatConfidence, percent } from '../../src/output/confidence.js';
import { flatten, renderKv } from '../../src/output/kv.js';
import { mapLinks } from '../../src/output/maps.js';
import { formatOutput, type ViewOpts } from '../../src/output/render.js';
import { makeStyle } from '../../src/output/style.js';
import { plainTable, renderTable } from '../../src/output/table.js';

const plain: ViewOpts = { style: makeStyle(false), tty: false, columns: 100 };
const tty: ViewOpts = { style: makeStyle(true), tty: true, columns: 100 };
const ANSI = new RegExp(String.fromCharCode(27) + '\\[');

describe('confidence', () => {
  it('words by band', () => {
    expect([0.95, 0.8, 0.79, 0.5, 0.3, 0.25, 0.1].map(confidenceWord)).toEqual(['high', 'high', 'medium', 'medium', 'low', 'low', 'very low']);
  });
  it('ASCII bar when piped, blocks on a terminal', () => {
    expect(confidenceBar(0.87, false)).toBe('[#########.]');
    expect(confidenceBar(0.3, true)).toBe('███░░░░░░░');
    expect(confidenceBar(Number.NaN, false)).toBe('[..........]');
  });
  it('formats with colour only when asked', () => {
    expect(formatConfidence(0.62, plain)).toBe('0.62 [######....] medium');
    expect(formatConfidence(0.62, tty)).toMatch(ANSI);
    expect(percent(72.4)).toBe('72%');
  });
});

describe('kv', () => {
  it('flattens nested objects with dotted keys', () => {
    expect(flatten({ meter: { status: 'ok', used: 3 }, tags: ['a', 'b'], list: [{ x: 1 }], none: null, empty: {} })).toEqual([
      ['meter.status', 'ok'],
      ['meter.used', '3'],
      ['tags', 'a, b'],
      ['list.0.x', '1'],
      ['none', 'null'],
      ['empty', '{}'],
    ]);
  });
  it('aligns and escapes keys and values', () => {
    expect(renderKv([['a', '1'], ['long.key', 'x\u001b]52;c;evil\u0007']], plain)).toBe('a         1\nlong.key  x\\x1b]52;c;evil\\x07');
  });
});

describe('maps', () => {
  it('builds the three links with 6 decimals', () => {
    const links = mapLinks(48.8584, 2.2945);
    expect(links.map((l) => l.name)).toEqual(['Google Maps', 'OpenStreetMap', 'Apple Maps']);
    expect(links[0]!.url).toBe('https://www.google.com/maps/search/?api=1&query=48.858400,2.294500');
    expect(links[2]!.url).toContain('ll=48.858400,2.294500');
    expect(mapLinks(Number.NaN, 1)).toEqual([]);
  });
});

describe('table', () => {
  it('is plain aligned text when piped', () => {
    expect(plainTable(['ID', 'CITY'], [['a1', 'Paris'], ['b22', 'Oslo']])).toBe('ID   CITY\na1   Paris\nb22  Oslo');
    const out = renderTable({ head: ['N'], rows: [['\u202eevil\u001b[2J']] }, plain);
    expect(out).toBe('N\n\\u202eevil\\x1b[2J');
  });
  it('draws boxes on a terminal', () => {
    const out = renderTable({ head: ['ID'], rows: [['x']] }, tty);
    expect(out).toContain('┌');
  });
});

describe('render', () => {
  const out = { raw: '{"a":"\u009b31m"}', data: { a: 1 }, human: () => 'human', records: () => [{ a: 1 }, { b: 2 }] };
  it('json prints the raw body (C1 escaped) plus a newline', async () => {
    expect(await formatOutput(out, 'json', plain)).toBe('{"a":"\\u009b31m"}\n');
  });
  it('ndjson prints one line per record', async () => {
    expect(await formatOutput(out, 'ndjson', plain)).toBe('{"a":1}\n{"b":2}\n');
  });
  it('table is the human view', async () => {
    expect(await formatOutput(out, 'table', plain)).toBe('human\n');
  });
});
