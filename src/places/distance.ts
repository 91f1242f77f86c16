/**
 * Spherical geodesy, the one implementation every layer uses (sandbox results, views, EXIF
 * corroboration, export shapes).
 */
const EARTH_RADIUS_KM = 6371.0088;
const rad = Math.PI / 180;

/**
 * The latitude span (degrees) beyond which two points are surely more than `km` apart: a
 * great-circle distance is never less than R times the difference of latitude.
 */
export function latitudeSpanDeg(km: number): number {
  return km / EARTH_RADIUS_KM / rad;
}

/** Great-circle distance in km. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The point `distanceKm` from (lat, lng) along `bearingDeg` (clockwise from north). */
export function destination(lat: number, lng: number, distanceKm: number, bearingDeg: number): { lat: number; lng: number } {
  const d = distanceKm / EARTH_RADIUS_KM;
  const b = bearingDeg * rad;
  const p1 = lat * rad;
  const l1 = lng * rad;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
  const l2 = l1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return { lat: p2 / rad, lng: l2 / rad };
}
