import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvCell, renderCSV } from '../../src/output/export/csv.js';
import { hostileRecord, parisRecord, sydneyRecord } from './fixtures.js';

/** RFC 4180 reader for the assertions (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ',') endCell();
    else if (c === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += c;
  }
  return rows;
}

describe('CSV export', () => {
  it('writes the header and one row per result with CRLF line ends', () => {
    const text = renderCSV([parisRecord(), sydneyRecord()]);
    expect(text.split('\r\n')).toHaveLength(4);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const paris = Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, rows[1]![i]]));
    expect(paris).toMatchObject({ input: 'fixtures/images/paris.jpg', lat: '48.8584', lng: '2.2945', confidence: '0.87', address: 'Champ de Mars, 5 Av. Anatole France', depth: '3', exif_verdict: 'agrees', exif_lat: '48.85837' });
    expect(rows[2]!.slice(2, 4)).toEqual(['-33.8568', '151.2153']); // numbers are never formula-guarded
  });

  it('quotes per RFC 4180', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('guards against formula injection in text cells', () => {
    for (const s of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx']) expect(csvCell(s).replace(/^"/, '')).toMatch(/^'/);
    const rows = parseCsv(renderCSV([hostileRecord()]));
    const row = Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, rows[1]![i]!]));
    expect(row.city).toBe(`'=HYPERLINK("http://evil")`);
    expect(row.neighborhood).toBe("'+1");
    expect(row.address).toBe("'@SUM(A1)");
    expect(rows[1]).toHaveLength(CSV_COLUMNS.length);
    for (const cell of rows[1]!) expect(cell).not.toMatch(/^[=+\-@]/);
    expect(renderCSV([hostileRecord()])).not.toMatch(/[\u001b\u202e]/);
  });
});
