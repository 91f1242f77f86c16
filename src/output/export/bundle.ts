/**
 * A case bundle (case.zip): everything a case holds, with a manifest giving every member's sha256
 * (layout in evidence/bundle-format.ts). The caller (`geo cases bundle`) reads the case as its log
 * vouches for it, renders the report, GeoJSON and KMZ with the exporters beside this file, and
 * passes `seal`: once every other member is made, their paths, sha256s and sizes (and the results
 * as the manifest lists them) are appended to the case's log as bundle_sealed, and the
 * log through that entry becomes custody.jsonl, so the bundle's custody head commits to every
 * member. `seal` also signs it when a key is chosen: the head_signed entries right after
 * the seal go into custody.jsonl with it. Then the members made from that log (signatures/,
 * allowed_signers, VERIFY.md, SHA256SUMS: evidence/bundle-standard.ts) are added. The caller
 * writes the bytes where asked, then appends bundle_made with the zip's sha256 (a bundle cannot
 * hold its own hash).
 */
import {
  ANSWERS_DIR, BUNDLE_SCHEMA, type BundleManifest, CHAIN_SCRIPT_NAME, CUSTODY_NAME, EXHIBITS_DIR, LABELS, MANIFEST_NAME, type ManifestFile, type ManifestResult, type MemberLabel, ORIGINALS_DIR,
  RECORDS_DIR, SUMS_NAME, WORKING_DIR,
} from '../../evidence/bundle-format.js';
import { derivedMembers, sha256Sums, stampFile } from '../../evidence/bundle-standard.js';
import { CHAIN_SCRIPT } from '../../evidence/chain-script.js';
import { type CustodyEntry, type CustodyEvents, parseEntry, sha256Hex } from '../../evidence/custody.js';
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

/** A working copy (annotated): its bytes as kept, the original's sha256 it was made from, the clues drawn. */
export interface BundleWorkingCopy {
  sha256: string;
  bytes: Uint8Array;
  media_type: string;
  of: string;
  clues: string[];
}

/** An exhibit a note keeps: its bytes, and its name and source as the note gave them. */
export interface BundleExhibit {
  sha256: string;
  bytes: Uint8Array;
  media_type: string;
  name: string;
  source: string;
}

export type SealContents = CustodyEvents['bundle_sealed']['bundle'];

export interface BundleData {
  /** The case as case_created logged it. */
  case: { id: string; name: string; description?: string };
  /**
   * Appends bundle_sealed with these contents to the case's log (and signs it, when it can);
   * returns the entry and the log's lines (CustodyStorage.lines) through it at least: they must
   * verify, and only head_signed entries may follow the seal in them.
   */
  seal: (contents: SealContents) => Promise<{ entry: CustodyEntry; lines: readonly string[] }>;
  /** The tokens of the log's head_stamped entries (by entry position), each with the CA pinned for it: sealed under timestamps/. */
  stamps?: ReadonlyArray<{ entry: number; reply: Uint8Array; caPem: string }>;
  /** The case's results, each with its raw answer (response.raw) as received. */
  records: readonly ProvenanceRecord[];
  reportHtml?: string;
  /** Each result's detail (export/report.ts), beside report.html, the case as a person reads it. */
  resultsHtml?: string;
  geojson?: string;
  kmz?: Uint8Array;
  /** With --with-originals: the original files; without, only their hashes (in the custody log). */
  originals?: readonly BundleOriginal[];
  /** The case's working copies (working/) and exhibits (exhibits/), apart from the originals. */
  working?: readonly BundleWorkingCopy[];
  exhibits?: readonly BundleExhibit[];
}

export interface Bundle {
  zip: Buffer;
  manifest: BundleManifest;
  /** sha256 of manifest.json: what to send on separately, so the recipient can pin the bundle. */
  manifestSha256: string;
  /** The signatures in its custody log: entry, principal (as declared) and key fingerprint. */
  signatures: Array<{ entry: number; principal: string | null; fingerprint: string }>;
}

/** Already compressed, or small: stored rather than deflated. */
const STORED = /\.(kmz|jpe?g|png|gif|webp|avif|heic|zip)$/i;
const SAFE_EXTENSION = /^[a-z0-9]{1,8}$/i;

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const extensionOf = (name: string | undefined) => (name && SAFE_EXTENSION.test(name) ? name.toLowerCase() : 'bin');
/** A kept file's extension by its media type (image/png -> png), for viewers. */
const typeExtension = (mediaType: string) => extensionOf({ 'image/jpeg': 'jpg', 'image/svg+xml': 'svg' }[mediaType] ?? /^[a-z]+\/([a-z0-9]+)$/i.exec(mediaType)?.[1]);

export async function writeBundle(d: BundleData): Promise<Bundle> {
  const members = new Map<string, Uint8Array>();
  const put = (path: string, data: string | Uint8Array) => members.set(path, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

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
  if (d.resultsHtml !== undefined) put('results.html', d.resultsHtml);
  if (d.geojson !== undefined) put('results.geojson', d.geojson);
  if (d.kmz !== undefined) put('results.kmz', d.kmz);
  // Each image labelled by what it is, so a copy made from an original is never taken for it.
  const labels: MemberLabel[] = [];
  for (const o of d.originals ?? []) {
    const path = `${ORIGINALS_DIR}${o.sha256}.${extensionOf(o.extension)}`;
    put(path, o.bytes);
    labels.push({ path, label: LABELS.original, sha256: o.sha256 });
  }
  for (const w of d.working ?? []) {
    const path = `${WORKING_DIR}${w.sha256}.${typeExtension(w.media_type)}`;
    if (!members.has(path)) labels.push({ path, label: LABELS.working, sha256: w.sha256, of: w.of, clues: w.clues });
    put(path, w.bytes);
  }
  for (const x of d.exhibits ?? []) {
    const path = `${EXHIBITS_DIR}${x.sha256}.${typeExtension(x.media_type)}`;
    if (!members.has(path)) labels.push({ path, label: LABELS.exhibit, sha256: x.sha256, name: x.name, source: x.source });
    put(path, x.bytes);
  }
  labels.sort(byPath);
  for (const t of d.stamps ?? []) {
    put(stampFile(t.entry, 'tsr'), t.reply);
    put(stampFile(t.entry, 'pem'), t.caPem);
  }
  put(CHAIN_SCRIPT_NAME, CHAIN_SCRIPT);
  const listed = (m: Map<string, Uint8Array>): ManifestFile[] => [...m].map(([path, data]) => ({ path, sha256: sha256Hex(data), size: data.length })).sort(byPath);

  // Every member is made: the log commits to them, and ends there in the bundle.
  const { entry: seal, lines } = await d.seal({ members: listed(members), results, originals: d.originals !== undefined, ...(labels.length ? { labels } : {}) });
  // The seal, and the signatures over it that follow it.
  let end = seal.seq;
  while (end < lines.length && parseEntry(lines[end]!).event === 'head_signed') end++;
  const custody = lines.slice(0, end);
  const chain = verifyChain(custody, { caseId: d.case.id });
  if (!chain.ok) throw new Error(`the custody log of case ${d.case.id} does not verify (${describeBroken(chain.broken)}): no bundle written`);
  if (lines[seal.seq - 1] === undefined || parseEntry(lines[seal.seq - 1]!).hash !== seal.hash) throw new Error(`the custody log of case ${d.case.id} does not end with its bundle_sealed entry: no bundle written`);
  put(CUSTODY_NAME, custody.map((l) => `${l}\n`).join(''));
  // Made from the log as it goes in: a verifier makes them again and compares (bundle-standard.ts).
  const logged = custody.map(parseEntry);
  for (const [path, bytes] of derivedMembers(logged)) put(path, bytes);
  const signatures = logged.flatMap((e) => {
    const sig = e.event === 'head_signed' ? (e.data.signature as { principal?: string; fingerprint?: string }) : undefined;
    return sig ? [{ entry: e.seq, principal: sig.principal ?? null, fingerprint: String(sig.fingerprint) }] : [];
  });
  put(SUMS_NAME, sha256Sums(listed(members)));

  const files = listed(members);
  const manifest: BundleManifest = {
    schema: BUNDLE_SCHEMA,
    // The seal's own time and geo: every field of the manifest is one the log holds.
    created_at: seal.at,
    geo_version: seal.geo,
    case: { id: d.case.id, name: d.case.name, ...(d.case.description ? { description: d.case.description } : {}) },
    custody: { path: CUSTODY_NAME, entries: chain.entries, head: chain.head },
    results,
    originals: d.originals ? 'included' : 'hashes only',
    files,
    ...(labels.length ? { labels } : {}),
  };
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const entries: ZipEntry[] = [
    { name: MANIFEST_NAME, data: Buffer.from(manifestText, 'utf8'), compress: true },
    ...files.map((f) => ({ name: f.path, data: members.get(f.path)!, compress: !STORED.test(f.path) })),
  ];
  return { zip: writeZip(entries, new Date(seal.at)), manifest, manifestSha256: sha256Hex(manifestText), signatures };
}
