/**
 * What an original says about itself, in its own bytes: its metadata as
 * exiftool-style JSON (metadata.ts) and its C2PA content credentials (c2pa.ts). geo reads it before
 * the upload strips it (batch/embedded.ts keeps it in the store, keyed by the original's sha256, and
 * a case's input_hashed entry carries it); `geo inspect` shows it. None of it is ever sent.
 */
import { type C2paOptions, type C2paRecord, readC2pa } from './c2pa.js';
import { type MetadataRecord, readMetadata } from './metadata.js';
import type { ImageKind } from './sniff.js';

export type { C2paManifest, C2paRecord } from './c2pa.js';
export { MAX_METADATA_JSON_BYTES, type MetadataRecord } from './metadata.js';

export interface EmbeddedProvenance {
  metadata: MetadataRecord;
  c2pa: C2paRecord;
}

/** Both, from the original's bytes (the whole file: a C2PA manifest's hash covers all of it). */
export async function readEmbedded(bytes: Uint8Array, kind: ImageKind, opts: C2paOptions = {}): Promise<EmbeddedProvenance> {
  const [metadata, c2pa] = await Promise.all([readMetadata(bytes), readC2pa(bytes, kind, opts)]);
  return { metadata, c2pa };
}
