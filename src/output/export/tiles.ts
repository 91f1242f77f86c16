/**
 * The map backgrounds the report offers, one list for the browser script (layer switcher) and the
 * Content-Security-Policy (img-src allows exactly these origins, nothing else). Attributions are
 * what each provider asks for: OpenStreetMap's copyright notice; for Esri, "Powered by Esri" and
 * the imagery sources (developers.arcgis.com "Esri and data attribution"). They are our constant
 * HTML, never server text: Leaflet writes attributions as HTML.
 */
export interface TileLayer {
  name: string;
  url: string;
  maxZoom: number;
  attribution: string;
}

export const TILE_LAYERS: readonly TileLayer[] = [
  {
    name: 'OpenStreetMap',
    url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    maxZoom: 19,
    attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  },
  {
    name: 'Satellite (Esri World Imagery)',
    url: 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
    maxZoom: 19,
    attribution: 'Powered by <a href="https://www.esri.com">Esri</a> | Source: Esri, Maxar, Earthstar Geographics, and the GIS User Community',
  },
];

/** "https://tile.openstreetmap.org" for the CSP: the scheme and host of each template. */
export const TILE_ORIGINS: readonly string[] = TILE_LAYERS.map((t) => new URL(t.url.replace(/\{[a-z]\}/g, '0')).origin);
