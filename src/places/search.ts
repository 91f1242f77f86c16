/**
 * Forward look-up in the offline index for `--scope NAME`: "Paris" -> Paris,
 * Île-de-France, FR and its coordinates. A name may carry qualifiers after commas: an ISO country
 * code ("Paris, US"), a first-level region ("Paris, Texas") or a US state's or Canadian province's
 * abbreviation ("Paris, TX"), in any order. Former names, exonyms and short forms ("Kiev", "NYC")
 * go through aliases.ts first.
 *
 * The index has no population (see rank.ts), so matches are ranked by: named after their
 * region first, then the places within 10 km. The leader is taken when it stands out; when the
 * runner-up has the same region signal and at least a third of the leader's neighbours, the
 * index cannot tell them apart and the name is reported as ambiguous rather than guessed.
 */
import { PLACE_ALIASES, REGION_ABBREVIATIONS } from './aliases.js';
import { hasWords, namesItsRegion, normName, placesAround, regionOf } from './rank.js';
import { type PlaceIndex, placeIndex } from './place-index.js';

export interface FoundPlace {
  name: string;
  region: string;
  countryCode: string;
  lat: number;
  lng: number;
}

export type PlaceSearch =
  | { kind: 'found'; place: FoundPlace; others: number; runnerUp?: FoundPlace }
  | { kind: 'ambiguous'; top: FoundPlace[]; total: number }
  | { kind: 'none'; similar: FoundPlace[] };

const TOP = 5;

function describe(index: PlaceIndex, i: number): FoundPlace {
  return { name: index.nameOf(i), region: regionOf(index, i), countryCode: index.countries[index.country[i]!]!, lat: round5(index.lat[i]!), lng: round5(index.lng[i]!) };
}

const round5 = (n: number) => Math.round(n * 1e5) / 1e5;

/** "Paris, Île-de-France, FR". */
export function placeLabel(p: FoundPlace): string {
  return [p.name, p.region, p.countryCode].filter((s, i, all) => s && all.indexOf(s) === i).join(', ');
}

/**
 * Does qualifier `q` (normalized) describe place i: its country code, the postal abbreviation of
 * its US state or Canadian province ("Springfield, IL"; "IL" is also Israel's code: either may
 * match), or its region's name?
 */
function qualifies(index: PlaceIndex, i: number, q: string): boolean {
  if (/^[a-z]{2}$/.test(q)) {
    const cc = index.countries[index.country[i]!]!.toLowerCase();
    if (cc === q || REGION_ABBREVIATIONS[cc]?.[q] === regionOf(index, i)) return true;
  }
  const region = normName(regionOf(index, i));
  return region === q || hasWords(region, q);
}

/** "d c" (normName of "D.C.") -> "dc": an abbreviation written with dots. */
const compact = (q: string) => (/^[a-z]( [a-z])+$/.test(q) ? q.replace(/ /g, '') : q);

export function searchPlace(query: string, index: PlaceIndex = placeIndex()): PlaceSearch {
  const [head = '', ...quals] = query.split(',').map(normName);
  const wanted = quals.filter(Boolean).map(compact);
  const alias = PLACE_ALIASES[head] ?? PLACE_ALIASES[compact(head)];
  if (alias !== undefined) {
    // The alias's qualifiers and the user's together: "Odessa, TX" is not the Odesa of Ukraine,
    // so it falls through to the name as written (Odessa, Texas).
    const [name = '', ...own] = alias.split(',').map(normName);
    const r = searchName(index, name, [...own, ...wanted]);
    // Places that bear the name as typed are others to choose from ("Odessa": Texas, Florida).
    const plain = searchName(index, head, wanted);
    if (r.kind === 'found') {
      const [more, next] = plain.kind === 'found' ? [plain.others + 1, plain.place] : plain.kind === 'ambiguous' ? [plain.total, plain.top[0]!] : [0, undefined];
      return { ...r, others: r.others + more, ...(next ? { runnerUp: next } : {}) };
    }
    return plain;
  }
  return searchName(index, head, wanted);
}

function searchName(index: PlaceIndex, head: string, wanted: string[]): PlaceSearch {
  const exact: number[] = [];
  const similar: number[] = [];
  for (let i = 0; i < index.count; i++) {
    const raw = index.nameOf(i);
    // The first letter first: normalizing all 171,000 names costs more than the rest together.
    const first = foldFirst(raw);
    if (first !== '' && first !== head.charAt(0)) continue;
    const name = normName(raw);
    if (name !== head && !(head && name.startsWith(head + ' '))) continue;
    if (!wanted.every((q) => qualifies(index, i, q))) continue;
    (name === head ? exact : similar).push(i);
  }
  if (exact.length === 0) return { kind: 'none', similar: rank(index, similar).slice(0, TOP).map((r) => describe(index, r.i)) };
  const ranked = rank(index, exact);
  const [lead, next] = ranked;
  if (next && next.region === lead!.region && next.around * 3 >= lead!.around) {
    return { kind: 'ambiguous', top: ranked.slice(0, TOP).map((r) => describe(index, r.i)), total: ranked.length };
  }
  return { kind: 'found', place: describe(index, lead!.i), others: ranked.length - 1, ...(next ? { runnerUp: describe(index, next.i) } : {}) };
}

const folded = new Map<string, string>();
/** The name's first character as normName would give it, '' when that is not a letter or digit. */
function foldFirst(raw: string): string {
  const c = raw.charAt(0);
  let f = folded.get(c);
  if (f === undefined) folded.set(c, (f = normName(c).charAt(0)));
  return f;
}

function rank(index: PlaceIndex, candidates: number[]): Array<{ i: number; region: boolean; around: number }> {
  return candidates
    .map((i) => ({ i, region: namesItsRegion(index, i), around: placesAround(index, i).length }))
    .sort((a, b) => Number(b.region) - Number(a.region) || b.around - a.around);
}
