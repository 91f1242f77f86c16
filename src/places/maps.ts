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
    // The marker and the zoom as query parameters (openstreetmap.org centres on mlat/mlon at
    // `zoom`): the same map as `#map=17/lat/lng` in a link short enough (71 characters at most with
    // six decimals) to stand whole on one line of an 80-column terminal.
    osm: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}&zoom=17`,
    apple: `https://maps.apple.com/?ll=${lat},${lng}&q=${lat},${lng}`,
  };
}
