/**
 * A case bundle's layout, shared by the writer (output/export/bundle.ts) and the
 * verifier (bundle-verify.ts); the README's "Verifying a bundle without geo" documents the same.
 *
 *   manifest.json           this file's BundleManifest (pretty JSON); every other member is in `files`
 *   custody.jsonl           the case's custody log, one entry per line (evidence/custody.ts)
 *   answers/<sha256>.json   each raw answer, byte for byte as received, named by its sha256
 *   records/<n>-<id>.json   each result's provenance record (evidence/record-types.ts)
 *   report.html, results.geojson, results.kmz   when the case has them
 *   originals/<sha256>.<ext>   the original files, only when bundled with originals
 *   timestamps/entry-<n>.tsr, .pem   the token of head_stamped entry n, and the CA pinned for it
 *   verify_chain.py         the chain recomputed with Python's standard library alone
 * and, made from the log once it is sealed and signed (bundle-standard.ts; not sealed: a verifier
 * makes them again from the log and compares):
 *   signatures/entry-<n>.msg, .sig   the line head_signed entry n signs, and its SSH signature
 *   allowed_signers         each key that signed, under the principal its signer gave
 *   VERIFY.md               the commands that check the bundle with standard tools alone
 *   SHA256SUMS              sha256sum's list of every member but itself and manifest.json
 */

export const BUNDLE_SCHEMA = 'geo.case-bundle/1';
export const MANIFEST_NAME = 'manifest.json';
export const CUSTODY_NAME = 'custody.jsonl';
export const ANSWERS_DIR = 'answers/';
export const RECORDS_DIR = 'records/';
export const ORIGINALS_DIR = 'originals/';
export const TIMESTAMPS_DIR = 'timestamps/';
export const SIGNATURES_DIR = 'signatures/';
export const CHAIN_SCRIPT_NAME = 'verify_chain.py';
export const ALLOWED_SIGNERS_NAME = 'allowed_signers';
export const VERIFY_NAME = 'VERIFY.md';
export const SUMS_NAME = 'SHA256SUMS';

/** Members made from the log after the seal (bundle-standard.ts): checked by making them again, not by the seal. */
export const isDerivedMember = (path: string): boolean => path.startsWith(SIGNATURES_DIR) || [ALLOWED_SIGNERS_NAME, VERIFY_NAME, SUMS_NAME].includes(path);

export interface ManifestFile {
  path: string;
  sha256: string;
  size: number;
}

/** One result: its provenance record, its raw answer, and the hashes that tie them together. */
export interface ManifestResult {
  record: string;
  answer: string;
  answer_sha256: string;
  input_sha256: string;
  analysis_id: string | null;
}

export interface BundleManifest {
  schema: typeof BUNDLE_SCHEMA;
  created_at: string;
  geo_version: string;
  case: { id: string; name: string; description?: string };
  /** The log in custody.jsonl: its number of entries and the hash of the last (the head). */
  custody: { path: typeof CUSTODY_NAME; entries: number; head: string };
  results: ManifestResult[];
  /** "included": the original files are under originals/; "hashes only": only their input_hashed entries. */
  originals: 'included' | 'hashes only';
  /** Every member but manifest.json, sorted by path. */
  files: ManifestFile[];
}

export const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Why a member name may not be used, or undefined: names are relative, forward-slash paths inside
 * the bundle's folder (APPNOTE 4.4.17), so nothing extracted from it can land elsewhere.
 */
export function unsafeMemberName(name: string): string | undefined {
  if (name === '') return 'an empty name';
  if (name.includes('\0')) return 'a NUL byte in its name';
  if (name.includes('\\')) return 'a backslash in its name (not a zip path separator; may escape on Windows)';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.split('/').some((part) => part === '..')) return 'a ../ that escapes the bundle\'s folder';
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSize = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/** Why a parsed manifest.json is not a BundleManifest geo can check, or undefined. */
export function manifestProblem(v: unknown): string | undefined {
  if (!isObject(v)) return 'not a JSON object';
  if (v.schema !== BUNDLE_SCHEMA) return `schema is ${JSON.stringify(v.schema)}, not ${BUNDLE_SCHEMA}`;
  if (!isObject(v.case) || typeof v.case.id !== 'string' || typeof v.case.name !== 'string') return 'case has no id and name';
  const c = v.custody;
  if (!isObject(c) || typeof c.path !== 'string' || !isSize(c.entries) || typeof c.head !== 'string' || !HEX64.test(c.head)) return 'custody needs path, entries and head';
  if (!Array.isArray(v.files) || !v.files.every((f) => isObject(f) && typeof f.path === 'string' && typeof f.sha256 === 'string' && HEX64.test(f.sha256) && isSize(f.size))) {
    return 'files must list path, sha256 and size for each member';
  }
  const strings = (r: Record<string, unknown>) => ['record', 'answer', 'answer_sha256', 'input_sha256'].every((k) => typeof r[k] === 'string');
  if (!Array.isArray(v.results) || !v.results.every((r) => isObject(r) && strings(r))) return 'results must name record, answer, answer_sha256 and input_sha256';
  return undefined;
}
