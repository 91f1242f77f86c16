/**
 * C2PA content credentials of an original: whether it carries a manifest store
 * (c2pa-find.ts, no library needed), and for one that does, what its active manifest says and
 * whether it holds, as read by the C2PA reference implementation.
 *
 * The reader is @contentauth/c2pa-wasm: c2pa-rs (the Content Authenticity Initiative's own Rust
 * implementation) compiled to WebAssembly; one package, no dependencies, no install script or
 * download, MIT. @trustnxt/c2pa-ts (pure TypeScript) was evaluated too and not taken: it does not
 * check a signer's chain of trust yet, yet reported "signingCredential.trusted" for c2pa-rs's test
 * certificate; it needs 30 packages, one with a native install step (cbor-extract); and it was
 * slower to load (2.7 s against 0.8 s). The price of the choice is 9 MB installed and about a
 * second to compile the WebAssembly, paid only when a file has a manifest (loaded lazily), once
 * per process.
 *
 * Offline: the reader is told not to fetch remote manifests or OCSP answers, so nothing leaves the
 * machine. No trust list ships with geo: a valid signature by a signer nobody vouched for is
 * "valid" with signingCredential.untrusted; `trustAnchors` (PEM, e.g. the C2PA trust list a user
 * downloaded) makes a signer chaining to one of them "trusted".
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { importEsm } from '../lazy/esm.js';
import { type C2paLocation, findC2pa } from './c2pa-find.js';
import { type ImageKind, MIME } from './sniff.js';
import { type C2paManifest, type CrJson, type ReaderJson, summarize } from './c2pa-summary.js';

export type { C2paManifest, C2paSigner, C2paValidation } from './c2pa-summary.js';

/** None found, or the manifest's summary. */
export type C2paRecord = { present: false } | C2paManifest;

interface WasmReader {
  json(): string;
  crJson(): string;
  free(): void;
}
interface C2paWasm {
  default(init: { module_or_path: Uint8Array }): Promise<unknown>;
  WasmReader: { fromBytes(format: string, bytes: Uint8Array, context?: string | null): Promise<WasmReader> };
}

const PACKAGE = '@contentauth/c2pa-wasm';
let loaded: Promise<{ lib: C2paWasm; version: string }> | undefined;

/** The reader, compiled once per process (about a second), the first time a manifest is met. */
function reader(): Promise<{ lib: C2paWasm; version: string }> {
  loaded ??= (async () => {
    const lib = await importEsm<C2paWasm>(PACKAGE);
    const req = createRequire(import.meta.url);
    const [wasm, pkg] = await Promise.all([readFile(req.resolve(`${PACKAGE}/c2pa.wasm`)), readFile(req.resolve(`${PACKAGE}/package.json`), 'utf8')]);
    await lib.default({ module_or_path: wasm });
    return { lib, version: (JSON.parse(pkg) as { version: string }).version };
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

export interface C2paOptions {
  /** PEM certificates whose chains count as trusted signers (none by default). */
  trustAnchors?: string;
  /** Why the bytes are not the whole file, if they are not: a manifest is then not checked. */
  partial?: string;
}

/** c2pa-rs settings: nothing fetched (remote manifests, OCSP), trust only what the caller gives. */
function context(o: C2paOptions): string {
  return JSON.stringify({ verify: { remote_manifest_fetch: false, ocsp_fetch: false }, ...(o.trustAnchors ? { trust: { trust_anchors: o.trustAnchors } } : {}) });
}

/** The C2PA record of an image's bytes (the whole file: the manifest's hashes cover all of it). */
export async function readC2pa(bytes: Uint8Array, kind: ImageKind, o: C2paOptions = {}): Promise<C2paRecord> {
  const at = findC2pa(bytes, kind);
  if (!at) return { present: false };
  if (o.partial) return unchecked(at, o.partial);
  let lib: C2paWasm;
  let version: string;
  try {
    ({ lib, version } = await reader());
  } catch (e) {
    return unchecked(at, `the C2PA reader (${PACKAGE}) could not be loaded: ${message(e)}`);
  }
  let r: WasmReader | undefined;
  try {
    r = await lib.WasmReader.fromBytes(MIME[kind], bytes, context(o));
    return summarize(at, JSON.parse(r.json()) as ReaderJson, JSON.parse(r.crJson()) as CrJson, `${PACKAGE} ${version}`);
  } catch (e) {
    // c2pa-rs refuses a store it cannot parse at all (a broken JUMBF, a claim that is not CBOR).
    return { present: true, ...at, validation: { state: 'invalid', signer_trusted: false, failures: [{ code: 'manifest.unreadable', explanation: message(e) }] }, reader: `${PACKAGE} ${version}` };
  } finally {
    r?.free();
  }
}

function unchecked(at: C2paLocation, why: string): C2paManifest {
  return { present: true, ...at, validation: { state: 'unchecked', signer_trusted: false, failures: [], reason: why } };
}

function message(e: unknown): string {
  const m = e instanceof Error ? e.message : typeof e === 'string' ? e : JSON.stringify(e);
  return (m ?? String(e)).slice(0, 500);
}
