/**
 * "LAT,LNG" as a person types it (--at, a claims file's at, --center, --scope): the one reading of
 * coordinates. Text shaped like coordinates (two number-like words around one comma, NaN and
 * Infinity included) that is not two finite decimal numbers in range is refused: searched as a
 * place name instead, "NaN,NaN" found the town of Nan and was charged.
 */

export interface LatLng {
  lat: number;
  lng: number;
}

export const COORDINATES_HINT = 'LAT,LNG in decimal degrees, latitude first: 49.99,36.23';

export class CoordinatesProblem extends Error {
  readonly hint = COORDINATES_HINT;
}

const PAIR = /^\s*([^,\s]+)\s*,\s*([^,\s]+)\s*$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** What a number looks like to a person or to JavaScript's Number(): exponents, hex, NaN, Infinity. */
const NUMBER_LIKE = /^[+-]?(nan|inf(inity)?|0[xob][\da-f]+|(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?)$/i;

/** Whether `text` is meant as coordinates: a place name never looks like this. */
export function looksLikeCoordinates(text: string): boolean {
  const m = PAIR.exec(text);
  return m !== null && NUMBER_LIKE.test(m[1]!) && NUMBER_LIKE.test(m[2]!);
}

/**
 * The point `text` names, or undefined when it is not shaped like coordinates (a place name);
 * throws CoordinatesProblem when it is shaped like them but is not a point on Earth.
 */
export function readCoordinates(text: string): LatLng | undefined {
  if (!looksLikeCoordinates(text)) return undefined;
  const [, a, b] = PAIR.exec(text)!;
  if (!DECIMAL.test(a!) || !DECIMAL.test(b!)) throw new CoordinatesProblem(`"${text.trim()}": not LAT,LNG in decimal degrees (NaN, Infinity, exponents and hex are not)`);
  const lat = Number(a);
  const lng = Number(b);
  // A digit string too long for a double is Infinity: out of range too.
  const off = !(Math.abs(lat) <= 90) ? `latitude ${a} is not within -90 to 90` : !(Math.abs(lng) <= 180) ? `longitude ${b} is not within -180 to 180` : undefined;
  if (off) throw new CoordinatesProblem(`"${text.trim()}": coordinates out of range (${off})`);
  return { lat, lng };
}
