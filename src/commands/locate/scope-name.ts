/**
 * `--scope NAME` without `--center`: the centre comes from the offline GeoNames index
 * that ships with geo (src/places/search.ts), so analysts can say `--scope Paris` as they
 * would to a colleague. A name the index cannot settle is a usage error listing the choices.
 */
import { RequestValidationError } from '../../api/errors.js';
import { UsageError } from '../../errors.js';
import { looksLikeCoordinates } from '../../places/coordinates.js';
import { type FoundPlace, placeLabel, searchPlace } from '../../places/search.js';

const listed = (ps: FoundPlace[]) => ps.map((p) => `"${placeLabel(p)}" (${p.lat}, ${p.lng})`).join('; ');

/** "LAT,LNG" of the place NAME names; `note` gets the line saying which place that is. */
export function centreOf(name: string, note: (line: string) => void): string {
  if (name.trim() === '') throw new RequestValidationError('invalid_scope', '--scope needs a city name', undefined, 'scope');
  // "NaN,NaN" or "48.8,2.3" names no city: searched, it would find one (the town of Nan).
  if (looksLikeCoordinates(name)) throw new RequestValidationError('invalid_scope', `--scope "${name.trim()}" looks like coordinates: --scope takes a city name, its centre goes in --center`, undefined, 'scope');
  const r = searchPlace(name);
  if (r.kind === 'none') {
    const hint = r.similar.length ? `did you mean ${listed(r.similar)}? Or give --center LAT,LNG` : 'check the spelling, or give its centre: --center LAT,LNG';
    throw new UsageError(`--scope ${name}: no such place in the offline index (GeoNames places of 1,000+ people)`, hint);
  }
  if (r.kind === 'ambiguous') {
    throw new UsageError(
      `--scope ${name} is ambiguous: ${r.total} places of that name and the index cannot tell which is largest`,
      `add a country code or region, e.g. --scope "${placeLabel(r.top[0]!)}"; top matches: ${listed(r.top)}; or give --center LAT,LNG`,
    );
  }
  const p = r.place;
  const other = r.runnerUp ? ` (--scope "${placeLabel(r.runnerUp)}")` : '';
  const others = r.others ? `; ${r.others} other place${r.others === 1 ? '' : 's'} of that name: add a country code or region${other} or --center to choose` : '';
  note(`--scope ${name}: ${placeLabel(p)} (${p.lat}, ${p.lng})${others}`);
  return `${p.lat},${p.lng}`;
}
