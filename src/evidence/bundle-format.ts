/**
 * A case bundle's layout, shared by the writer (output/export/bundle.ts) and the
 * verifier (bundle-verify.ts); the README's "Verifying a bundle without geo" documents the same.
 *
 *   manifest.json           this file's BundleManifest (pretty JSON); every other member is in `files`
 *   custody.jsonl           the case's custody log, one entry per line (evidence/custody.ts)
 *   answers/<sha256>.json   each raw answer, byte for byte as received, named by its sha256
 *   records/<n>-<id>.json   each result's provenance record (evidence/record-types.ts)
 *   report.html             the case as a person reads it (geo cases report)
 *   results.html, results.geojson, results.kmz   each result's detail, and the map files (with
 *                           the investigation drawn after the results)
 *   originals/<sha256>.<ext>   the original files, only when bundled with originals
 *   working/<sha256>.<ext>     the case's working copies (annotated: working_copy_made entries)
 *   exhibits/<sha256>.<ext>    the exhibits its notes keep (note_made entries)
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
export const WORKING_DIR = 'working/';
export const EXHIBITS_DIR = 'exhibits/';
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

/**
 * What an image in a bundle is, so an original is never taken for a copy made from it: the words
 * the manifest, VERIFY.md and the report use, one per folder.
 */
export const LABELS = { original: 'original (evidence)', working: 'working copy (annotated)', exhibit: 'exhibit (reference)' } as const;
export type ImageLabel = (typeof LABELS)[keyof typeof LABELS];

/** The folder each label's files are in. */
export const LABEL_DIRS: ReadonlyArray<[string, ImageLabel]> = [[ORIGINALS_DIR, LABELS.original], [WORKING_DIR, LABELS.working], [EXHIBITS_DIR, LABELS.exhibit]];

/**
 * One image member and what it is. A working copy names the original it was made from (`of`: its
 * sha256) and the clues drawn; an exhibit, its name and where it came from, as the note gave them.
 */
export interface MemberLabel {
  path: string;
  label: ImageLabel;
  sha256: string;
  of?: string;
  clues?: string[];
  name?: string;
  source?: string;
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
  /** What each original, working copy and exhibit in the bundle is (as the seal lists them); absent when there are none. */
  labels?: MemberLabel[];
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
  const labelled = (l: unknown) => isObject(l) && typeof l.path === 'string' && typeof l.label === 'string' && typeof l.sha256 === 'string';
  if (v.labels !== undefined && !(Array.isArray(v.labels) && v.labels.every(labelled))) return 'labels must give path, label and sha256 for each image';
  return undefined;
}
