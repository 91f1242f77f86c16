/**
 * The store (DESIGN.md "Layers": src/store/), the ONE owner of state. Its engines live in their own
 * folders: sqlite/ (the embedded file, the default). Callers import from here only, never an engine.
 */
export * from './sqlite/store.js';
