/**
 * Map links built from the coordinates, never taken from the response: the response's own links
 * are server strings (shape not shown) and a link is exactly what a hostile server would forge.
 */
import { mapUrls } from '../places/maps.js';

export interface MapLink {
  name: 'Google Maps' | 'OpenStreetMap' | 'Apple Maps';
  url: string;
}

/** 6 decimals is ~0.1 m, finer than the service's ~100 m rounding, so nothing is lost. */
export function coord(n: number): string {
  return n.toFixed(6);
}

export function mapLinks(lat: number, lng: number): MapLink[] {
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return [];
  const u = mapUrls(coord(lat), coord(lng));
  return [
    { name: 'Google Maps', url: u.google },
    { name: 'OpenStreetMap', url: u.osm },
    { name: 'Apple Maps', url: u.apple },
  ];
}

/** The one link a table row has room for. */
export function osmLink(lat: number, lng: number): string {
  return mapLinks(lat, lng)[1]?.url ?? '';
}
