/**
 * Injected into the CommonJS bundle by the build (package.json "build": --inject, with
 * --define:import.meta.url=importMetaUrl). Source files are ES modules and resolve their own
 * files from import.meta.url (package.json, createRequire for data packages); in dist/cli.js,
 * which bin/geo.js runs as CommonJS, that URL comes from the bundle's __filename.
 */
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
