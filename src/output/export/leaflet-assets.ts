/**
 * Leaflet's JS and CSS, read from its installed npm package at report time and inlined, so the
 * report is one file that draws its vector layers with no network. Reads installed package files
 * only: nothing is fetched. Returns undefined when the package is absent (the report then says
 * the map is unavailable instead of failing).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

export interface LeafletAssets {
  js: string;
  css: string;
  version?: string;
}

export async function loadLeafletAssets(): Promise<LeafletAssets | undefined> {
  const require = createRequire(import.meta.url);
  let jsPath: string;
  let cssPath: string;
  try {
    jsPath = require.resolve('leaflet/dist/leaflet.js');
    cssPath = require.resolve('leaflet/dist/leaflet.css');
  } catch {
    return undefined;
  }
  const [js, css] = await Promise.all([readFile(jsPath, 'utf8'), readFile(cssPath, 'utf8')]);
  const version = /version\s*=\s*"(\d+\.\d+\.\d+[^"]*)"/.exec(js)?.[1];
  // The source-map comments point at files next to the package, which the report does not carry.
  const strip = (s: string) => s.replace(/^\s*(\/\/|\/\*)# sourceMappingURL=.*$/gm, '');
  return { js: strip(js), css: strip(css), ...(version ? { version } : {}) };
}
