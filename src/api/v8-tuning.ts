/**
 * V8 flags for a short-lived client process (createAgent in undici.ts applies them before the first
 * connection), and the hook that runs right before they change. No undici import here: cli.ts
 * re-exports onBeforeV8Tuning for bin/load-cli.js, and `geo --help` must not load undici.
 */
import { createRequire } from 'node:module';
import type * as V8 from 'node:v8';
import { runInNewContext } from 'node:vm';

// Loaded on first use: node:v8 costs ~5 ms of start-up on Node 20, and only a command that
// connects (or frugalMemory's callers) changes V8's flags.
let v8: typeof V8 | undefined;
const setFlagsFromString = (flags: string) => (v8 ??= createRequire(import.meta.url)('node:v8') as typeof V8).setFlagsFromString(flags);

let tuned = false;
let collect: (() => void) | undefined;
let beforeTuning: (() => void) | undefined;

/**
 * Registers a function to run once, right before tuneV8() changes V8's flags. bin/load-cli.js
 * saves its code cache there: V8 checks a cache against the flag hash of the process that made
 * it, so a cache made after the change would be refused by every later run.
 */
export function onBeforeV8Tuning(fn: () => void): void {
  beforeTuning = fn;
}

/**
 * V8 settings for a short-lived client process, set once, right before the first connection.
 * - undici parses HTTP with llhttp compiled to WebAssembly, and a CLI parses a few small answers,
 *   so V8's baseline code is enough and its optimising tier only costs. Node 20 compiles llhttp
 *   with that tier up front (~35 MB more peak RSS, ~150 ms that Node waits for at exit);
 *   --liftoff-only stops it. Node 24 tiers the hot parser function up in the background after a
 *   few answers and exit waits ~80-100 ms for that compile; a tiering budget nobody reaches stops
 *   it (the run-time --liftoff-only does not, there).
 * - The young generation does not grow further: each doubling stays resident until exit, and
 *   streaming a 15 MB photo as base64 strings doubled it twice (about 3 MiB of peak RSS).
 * Why here and not at start-up: changing a V8 flag at run time changes the flag hash that code
 * caches are checked against, so a code cache made afterwards is refused (onBeforeV8Tuning). Set
 * at start-up, the wasm flags made node's own modules compile from scratch (`geo credits --json`
 * +20 ms, `geo --help` +7 ms), and a young generation that never grows made loading the CLI
 * garbage-collect more (+16 ms). By the first connection the command's code is loaded.
 * All measured with bench/ (startup.mjs, image.mjs).
 */
export function tuneV8(): void {
  if (tuned) return;
  tuned = true;
  beforeTuning?.();
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--wasm-tiering-budget=2000000000');
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * For a batch of many inputs (Runtime.frugalMemory), called where one phase's garbage is all left
 * behind (the folder listed, the inputs loaded). The first call sets V8's --optimize-for-size (the
 * heap grows by small steps instead of up to fourfold) and takes V8's gc() the way the expose-gc
 * package does; every call then collects the heap once. Without the collections, the listing's
 * garbage sat in the old generation and set its limit: 100,000 inputs --dry-run peaked at 210-230
 * MB for about 30 MB of live jobs; with them, 146 MB on Node 20 (bench/memory.mjs). A collection
 * of that heap takes tens of milliseconds. Flags set while running are undefined behaviour for
 * Node in general; these two are only read by V8's heuristics and by the gc() made here. The code
 * cache is saved first, as for tuneV8().
 */
export function frugalMemory(): void {
  if (!collect) {
    beforeTuning?.();
    setFlagsFromString('--optimize-for-size');
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/**
 * For a command that streams much through little (geo export --all): the young generation stops
 * growing. Its garbage dies young either way; a young generation grown to its 16 MB semi-spaces
 * stays resident to the end.
 */
export function streamingHeap(): void {
  beforeTuning?.();
  setFlagsFromString('--semi-space-growth-factor=1');
}
