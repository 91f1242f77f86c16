/**
 * Files geo keeps by their sha256, on purpose: a case's exhibits (a reference photo, a map
 * screenshot), its annotated working copies, and originals an analyst asked to keep. Content
 * addressed, so a custody entry that names a sha256 names exactly these bytes, and the same bytes
 * kept twice are one row. Never sent anywhere.
 */
export interface KeptFile {
  sha256: string;
  size: number;
  /** The media type geo sniffed or was told when it kept them ("image/png"). */
  media_type: string;
  /** ISO-8601 UTC: when these bytes were first kept. */
  kept_at: string;
  bytes: Buffer;
}

export interface KeptFilesApi {
  /** Keeps the bytes (a second put of the same bytes changes nothing) and says their sha256 and size. */
  put(bytes: Uint8Array, mediaType: string): Promise<{ sha256: string; size: number }>;
  get(sha256: string): Promise<KeptFile | undefined>;
}
