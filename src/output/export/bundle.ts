/**
 * A case bundle (case.zip): everything a case holds, with a manifest giving every member's sha256
 * (layout in evidence/bundle-format.ts). Plain data in, the zip's bytes out: the caller (`geo cases
 * bundle`) reads the case from the store, renders the report, GeoJSON and KMZ with the exporters
 * beside this file, writes the bytes where asked, and then appends bundle_made to the case's log
 * with the zip's sha256 (a bundle cannot hold its own hash).
 */
import {
  ANSWERS_DIR, BUNDLE_SCHEMA, type BundleManifest, CUSTODY_NAME, MANIFEST_NAME, type ManifestFile, type ManifestResult, ORIGINALS_DIR, RECORDS_DIR,
} from '../../evidence/bundle-format.js';
import { sha256Hex } from '../../evidence/custody.js';
import { describeBroken, verifyChain } from '../../evidence/custody-verify.js';
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { type ZipEntry, writeZip } from './zip.js';

export interface BundleOriginal {
  /** sha256 of the bytes, as its input_hashed entry has it. */
  sha256: string;
  bytes: Uint8Array;
  /** The file's extension without the dot ("jpg"), for viewers; "bin" when unknown. */
  extension?: string;
}

export interface BundleData {
  case: { id: string; name: string; description?: string };
  /** The case's custody log as stored (CustodyStorage.lines): it must verify. */
  custody: readonly string[];
  /** The case's results, each with its raw answer (response.raw) as received. */
  records: readonly ProvenanceRecord[];
  reportHtml?: string;
  geojson?: string;
  kmz?: Uint8Array;
  /** With --with-originals: the original files; without, only their hashes (in the custody log). */
  originals?: readonly BundleOriginal[];
  createdAt: Date;
  geoVersion: string;
}

export interface Bundle {
  zip: Buffer;
  manifest: BundleManifest;
  /** sha256 of manifest.json: what to send on separately, so the recipient can pin the bundle. */
  manifestSha256: string;
}

/** Already compressed, or small: stored rather than deflated. */
const STORED = /\.(kmz|jpe?g|png|gif|webp|avif|heic|zip)$/i;
const SAFE_EXTENSION = /^[a-z0-9]{1,8}$/i;

export function writeBundle(d: BundleData): Bundle {
  const chain = verifyChain(d.custody, { caseId: d.case.id });
  if (!chain.ok) throw new Error(`the custody log of case ${d.case.id} does not verify (${describeBroken(chain.broken)}): no bundle written`);
  const members = new Map<string, Uint8Array>();
  const put = (path: string, data: string | Uint8Array) => members.set(path, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

  put(CUSTODY_NAME, d.custody.map((l) => `${l}\n`).join(''));
  const results: ManifestResult[] = d.records.map((rec, i) => {
    const raw = rec.response.raw;
    if (raw === undefined) throw new Error(`the result of ${rec.input.path} has no raw answer to bundle`);
    const answerSha = sha256Hex(raw);
    const answer = `${ANSWERS_DIR}${answerSha}.json`;
    put(answer, raw);
    const id = rec.response.body.analysis_id;
    const record = `${RECORDS_DIR}${String(i + 1).padStart(3, '0')}-${answerSha.slice(0, 12)}.json`;
    put(record, `${JSON.stringify(rec, null, 2)}\n`);
    return { record, answer, answer_sha256: answerSha, input_sha256: rec.input.sha256, analysis_id: typeof id === 'string' ? id : null };
  });
  if (d.reportHtml !== undefined) put('report.html', d.reportHtml);
  if (d.geojson !== undefined) put('results.geojson', d.geojson);
  if (d.kmz !== undefined) put('results.kmz', d.kmz);
  for (const o of d.originals ?? []) {
    const ext = o.extension && SAFE_EXTENSION.test(o.extension) ? o.extension.toLowerCase() : 'bin';
    put(`${ORIGINALS_DIR}${o.sha256}.${ext}`, o.bytes);
  }

  const files: ManifestFile[] = [...members].map(([path, data]) => ({ path, sha256: sha256Hex(data), size: data.length })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifest: BundleManifest = {
    schema: BUNDLE_SCHEMA,
    created_at: d.createdAt.toISOString(),
    geo_version: d.geoVersion,
    case: { id: d.case.id, name: d.case.name, ...(d.case.description ? { description: d.case.description } : {}) },
    custody: { path: CUSTODY_NAME, entries: chain.entries, head: chain.head },
    results,
    originals: d.originals ? 'included' : 'hashes only',
    files,
  };
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const entries: ZipEntry[] = [
    { name: MANIFEST_NAME, data: Buffer.from(manifestText, 'utf8'), compress: true },
    ...files.map((f) => ({ name: f.path, data: members.get(f.path)!, compress: !STORED.test(f.path) })),
  ];
  return { zip: writeZip(entries, d.createdAt), manifest, manifestSha256: sha256Hex(manifestText) };
}
