/**
 * import() of the ES-module-only packages geo loads on demand (conf, @inquirer/prompts, and the C2PA
 * reader @contentauth/c2pa-wasm).
 *
 * Why not a plain import(): bin/load-cli.js runs the bundle (dist/cli.js, CommonJS) from a V8 code
 * cache, and on Node 20 code compiled from a cache has no module loader behind import() ("A dynamic
 * import callback was not specified"). The build turns every other import() into require()
 * (--supported:dynamic-import=false); these packages cannot be required on Node 20.18, so
 * load-cli.js passes the bundle an import() of its own, __geoImport. Run from src/ (vitest, tsx)
 * there is no __geoImport and import() is the native one.
 */
declare const __geoImport: ((id: string) => Promise<unknown>) | undefined;

export function importEsm<T>(id: 'conf' | '@inquirer/prompts' | '@contentauth/c2pa-wasm'): Promise<T> {
  return (typeof __geoImport === 'function' ? __geoImport(id) : import(id)) as Promise<T>;
}
