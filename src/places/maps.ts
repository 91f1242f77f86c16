/**
 * Google Maps, OpenStreetMap and Apple Maps links for a point: one set of URL templates for the
 * CLI's views and the sandbox's `location.maps`. Coordinates come as text, so each caller keeps its
 * own precision (the views print 6 decimals, the sandbox its ~100 m rounding).
 */
export interface MapUrls {
  google: string;
  osm: string;
  apple: string;
}

export function mapUrls(lat: string, lng: string): MapUrls {
  return {
    google: `https://www.google.com/maps/search/?api=1&query=${lat},${lng}`,
    osm: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`,
    apple: `https://maps.apple.com/?ll=${lat},${lng}&q=${lat},${lng}`,
  };
}
