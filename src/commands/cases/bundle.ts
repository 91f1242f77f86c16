/**
 * `geo cases bundle <case> case.zip [--with-originals]`: the case, as its custody
 * log vouches for it (batch/case-results.ts: a case that does not verify is refused, nothing
 * written), into one self-contained file (output/export/bundle.ts): the custody log, every raw
 * answer, the provenance records, the HTML report, GeoJSON and KMZ, and with --with-originals the
 * original files, each vouched for by its sha256 (a file at the recorded path that no longer hashes
 * the same is left out, and said); and the case's working copies and exhibits from the store's kept
 * files (batch/working-copies.ts), each labelled apart from the originals. Before the log goes in, bundle_sealed commits it to every other
 * member; after the zip is written, bundle_made is appended with the zip's sha256: a bundle cannot
 * hold its own hash, so the log in the store goes one entry further than the log in the bundle.
 */
import { extname, resolve } from 'node:path';
import { caseLog } from '../../batch/case-custody.js';
import { isUrlInput } from '../../batch/inputs.js';
import { type CaseSigner, caseActor, caseSigner } from '../../batch/case-sign.js';
import { vouchedOrRefuse } from '../../batch/case-results.js';
import { exhibitsOf, workingCopiesOf } from '../../batch/working-copies.js';
import { investigationOf } from '../../evidence/investigation.js';
import type { Ctx } from '../../context.js';
import { ConfigError, KeyringError, NotVerifiedError, UsageError } from '../../errors.js';
import { type CustodyEntry, sha256Hex } from '../../evidence/custody.js';
import { checkSignatures } from '../../evidence/custody-sign.js';
import { type StampedHead, checkStamps } from '../../evidence/custody-stamps.js';
import { type FileMode, writeOwnFile } from '../../files/own-file.js';
import { checkWritableFile } from '../../files/safe.js';
import { fileMode } from '../../flags.js';
import { openRegularFile } from '../../files/read.js';
import { type FetchedFrom, type ProvenanceRecord, isResultBody } from '../../evidence/record-types.js';
import { type VouchedImage, vouchedImage } from '../../image/vouched-image.js';
import { type BundleOriginal, writeBundle } from '../../output/export/bundle.js';
import { buildHtmlReport, renderKMZ, streamExport } from '../../output/export/index.js';
import { caseExport } from '../../output/export/case-geo.js';
import { renderCaseReport } from './report.js';
import { findCase } from '../../store/find.js';
import type { CaseRow, StoreApi } from '../../store/index.js';
import { storedToken } from './check.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import type { Handler } from '../types.js';

export interface Bundled {
  file: string;
  case: { id: string; name: string };
  sha256: string;
  size: number;
  manifest_sha256: string;
  results: number;
  /** Originals in the bundle, and why the others are not. */
  originals: number;
  left_out: string[];
  /** Working copies (working/) and exhibits (exhibits/) in the bundle, and why any the log names are not. */
  working: number;
  exhibits: number;
  copies_left_out: string[];
  custody: { entries: number; head: string };
  /** The signatures in the bundle's log (principal and fingerprint), and the tokens in it. */
  signatures: Array<{ entry: number; principal: string | null; fingerprint: string }>;
  timestamps: number;
}

type Say = (line: string) => void;

/** The file an answer was made from: a video's for its frames, else the image itself. */
const originalOf = (r: ProvenanceRecord) => (r.video ? { path: r.video.path, sha256: r.video.sha256 } : r.input);

/** A video, read whole without ever blocking on a FIFO or device put at its path (openRegularFile). */
async function readVideo(path: string): Promise<Buffer | string> {
  try {
    const fh = await openRegularFile(path);
    try {
      return await fh.readFile();
    } finally {
      await fh.close();
    }
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? `video not found at ${path}` : `${path}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** A kept original's extension, from the media type geo sniffed when it kept it. */
const extensionOf = (mediaType: string) => (mediaType === 'image/jpeg' ? 'jpg' : /^image\/([a-z0-9]+)$/.exec(mediaType)?.[1] ?? 'bin');

/**
 * The image a record vouches for: the file at its path, else the bytes kept in the store with
 * --keep-original (a photo fetched from the web, a file not on this machine), held to the same sha256.
 */
async function imageOrKept(store: StoreApi, input: { path: string; sha256: string }): Promise<VouchedImage & { extension?: string }> {
  const v = await vouchedImage(input);
  if ('imageBytes' in v) return { ...v, extension: extname(input.path).slice(1) };
  const kept = /^[0-9a-f]{64}$/.test(input.sha256) ? await store.kept.get(input.sha256) : undefined;
  if (kept && sha256Hex(kept.bytes) === input.sha256) return { imageBytes: kept.bytes, extension: extensionOf(kept.media_type) };
  return v;
}

/** Each original once, read and checked against its sha256. */
async function readOriginals(store: StoreApi, records: readonly ProvenanceRecord[], leftOut: string[]): Promise<Array<BundleOriginal & { path: string; fetched?: FetchedFrom }>> {
  const out = new Map<string, BundleOriginal & { path: string; fetched?: FetchedFrom }>();
  for (const record of records) {
    const o = originalOf(record);
    if (out.has(o.sha256)) continue;
    let bytes: Uint8Array | undefined;
    let extension = extname(o.path).slice(1);
    if (record.video) {
      const read = await readVideo(o.path);
      if (typeof read === 'string') leftOut.push(read);
      else if (sha256Hex(read) === o.sha256) bytes = read;
      else leftOut.push(`${o.path}: not the video these frames came from (its sha256 differs)`);
    } else {
      const v = await imageOrKept(store, o);
      if ('imageBytes' in v) ({ imageBytes: bytes, extension = extension } = v);
      else leftOut.push(`${v.missingImage}${record.fetched ? ' (geo locate --keep-original keeps a fetched photo)' : ''}`);
    }
    if (bytes) out.set(o.sha256, { sha256: o.sha256, bytes, extension, path: o.path, ...(record.fetched ? { fetched: record.fetched } : {}) });
  }
  return [...out.values()];
}

/**
 * Signatures that do not hold, or tokens that do not, refuse the bundle (the log was rewritten, or
 * what it stamps was swapped); entries past the last signature do not: the bundle's own signature
 * covers them. The signer, ready: a case that is signed gets a signed bundle or none.
 */
async function trustOrRefuse(ctx: Pick<Ctx, 'storeApi' | 'now' | 'version' | 'config' | 'vault'>, c: CaseRow, entries: CustodyEntry[], say: Say): Promise<CaseSigner | undefined> {
  const sigs = checkSignatures(entries);
  const bad = [...sigs.signatures.filter((x) => !x.ok).map((x) => `entry ${x.entry} (head_signed): ${x.problem}`), ...checkStamps(entries, storedToken(await (await ctx.storeApi()).timestamps.forCase(c.id)), { where: 'the store' }).failures];
  if (bad.length) throw new NotVerifiedError(`case ${c.id} does not verify, so no bundle is written: ${bad[0]}${bad.length > 1 ? ` (and ${bad.length - 1} more)` : ''}`, `geo cases verify ${c.id} lists what fails`);
  const signer = await caseSigner(ctx, say);
  if (!signer.chosen) {
    if (sigs.signed) throw new ConfigError(`case ${c.id} is signed, so its bundle must be too, and no signing key is chosen: no bundle is written`, 'geo keys signing use REF (geo keys signing list shows yours)');
    return undefined;
  }
  try {
    await signer.open();
    return signer;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    if (sigs.signed) throw new KeyringError(`case ${c.id} is signed, so its bundle must be too, and the signing key cannot sign: ${why}`, (err as { hint?: string }).hint ?? 'geo keys signing test says why');
    say(`warning: the bundle is not signed: ${why}`);
    return undefined;
  }
}

export async function runBundle(ctx: Pick<Ctx, 'storeApi' | 'now' | 'version' | 'config' | 'vault'>, ref: string, file: string, opts: { withOriginals?: boolean; mode?: FileMode }, say: Say): Promise<Bundled> {
  const store = await ctx.storeApi();
  const c = await findCase(store, ref);
  if (!/\.zip$/i.test(file)) throw new UsageError(`the bundle is a zip file: ${file} does not end in .zip`, `geo cases bundle ${c.id} case.zip`);
  // Refused before anything is read: a link, a FIFO, a second name, a folder, or a file of the case.
  const paths = (await store.cases.linked(c.id)).map((l) => originalOf(l.stored.record).path);
  checkWritableFile(file, 'the bundle', { inputs: () => paths });
  // What the log vouches for, or nothing at all: a forged value never leaves in a bundle.
  const ev = await vouchedOrRefuse(store, c, 'no bundle is written');
  const signer = await trustOrRefuse(ctx, c, ev.entries.map((x) => x.e), say);
  const token = storedToken(await store.timestamps.forCase(c.id));
  const stamps = ev.entries.flatMap(({ n, e }) => {
    const kept = e.event === 'head_stamped' ? token(n, e.data.stamp as StampedHead) : undefined;
    return kept ? [{ entry: n, reply: kept.reply, caPem: kept.caPem }] : [];
  });
  const vc = ev.vouch.case;
  const records = ev.vouch.results.map((r) => r.record).filter((r) => isResultBody(r.response.body));
  const log = caseLog(store, await caseActor({ version: ctx.version, signing: { config: ctx.config, vault: ctx.vault } }), ctx.now);
  const leftOut: string[] = [];
  const originals = opts.withOriginals ? await readOriginals(store, records, leftOut) : undefined;
  // An original whose hashing the log does not hold yet (a result linked with geo cases link): hashed now, and logged.
  const hashed = new Set(ev.entries.filter(({ e }) => e.event === 'input_hashed').map(({ e }) => (e.data.input as { sha256?: string } | undefined)?.sha256));
  for (const o of originals ?? []) {
    if (hashed.has(o.sha256)) continue;
    const p = await store.perceptual.get(o.sha256);
    const path = isUrlInput(o.path) ? o.path : resolve(o.path);
    await log.append(c.id, { event: 'input_hashed', data: { input: { path, sha256: o.sha256, size: o.bytes.length }, ...(o.fetched ? { fetched: o.fetched } : {}), ...(p ? { pdq: { hash: p.pdq, quality: p.quality } } : {}) } });
  }
  const inv = investigationOf(ev.entries);
  const working = await workingCopiesOf(store, inv);
  const exhibits = await exhibitsOf(store, inv);
  const sources = await Promise.all(records.map(async (record) => {
    const { extension: _e, ...image } = await imageOrKept(store, record.input);
    return { record, ...image };
  }));
  const now = new Date(ctx.now());
  // report.html is the case as a person reads it (cases report); results.html each result's detail.
  const caseReport = await renderCaseReport(store, ev, { now: ctx.now(), version: ctx.version }, 'html');
  const report = await buildHtmlReport(sources, { generatedAt: now.toISOString(), cliVersion: ctx.version, title: `Case ${vc.name}` });
  if (!report.hasMap) say('warning: the leaflet package is not installed, so results.html has no map');
  const kase = caseExport(ev);
  let bundle;
  try {
    bundle = await writeBundle({
      case: { id: vc.id, name: vc.name, ...(vc.description ? { description: vc.description } : {}) }, records,
      reportHtml: caseReport.text, resultsHtml: report.html, geojson: [...streamExport('geojson', records, () => [], kase)].join(''),
      kmz: await renderKMZ(sources, { now: ctx.now(), kase }), ...(originals ? { originals } : {}),
      working: working.files.map((w) => ({ sha256: w.sha256, bytes: w.bytes, media_type: w.media_type, of: w.of.sha256, clues: w.boxes.map((b) => b.clue) })),
      exhibits: exhibits.files.map((x) => ({ sha256: x.sha256, bytes: x.bytes, media_type: x.media_type, name: x.name, source: x.source })),
      stamps,
      seal: async (contents) => {
        const entry = await log.append(c.id, { event: 'bundle_sealed', data: { bundle: contents } });
        // Signed before custody.jsonl is written: the seal, and so every member, is what the key vouches for.
        if (signer) await signer.signExactly(c.id, entry.hash);
        return { entry, lines: await log.lines(c.id) };
      },
    });
  } catch (e) {
    throw new NotVerifiedError(e instanceof Error ? e.message : String(e), `geo cases verify ${c.id} names the broken entry`);
  }
  // The one writer (files/own-file.ts): a new file renamed into place, never through a link or a
  // second name, 0600 unless --file-mode 644.
  await writeOwnFile(file, 'the bundle', bundle.zip, { inputs: () => paths, ...(opts.mode ? { mode: opts.mode } : {}) });
  const sha256 = sha256Hex(bundle.zip);
  const m = bundle.manifest.custody;
  await log.append(c.id, { event: 'bundle_made', data: { bundle: { path: resolve(file), sha256, size: bundle.zip.length, manifest_sha256: bundle.manifestSha256, entries: m.entries, head: m.head, originals: Boolean(originals) } } });
  // The store's log goes on past the bundle's: bundle_made is signed too, so the case still verifies here.
  if (signer) await signer.auto(c.id);
  const signatures = bundle.signatures;
  return {
    file, case: { id: c.id, name: vc.name }, sha256, size: bundle.zip.length, manifest_sha256: bundle.manifestSha256, results: records.length,
    originals: originals?.length ?? 0, left_out: leftOut, working: working.files.length, exhibits: exhibits.files.length, copies_left_out: [...working.missing, ...exhibits.missing], custody: { entries: m.entries, head: m.head }, signatures, timestamps: stamps.length,
  };
}

/** "2 working copies, 1 exhibit, " when the case has any: older cases' line stays as it was. */
const copies = (r: Bundled) => [r.working ? `${r.working} working cop${r.working === 1 ? 'y' : 'ies'}, ` : '', r.exhibits ? `${r.exhibits} exhibit${r.exhibits === 1 ? '' : 's'}, ` : ''].join('');

export const bundle: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx, ['table', 'json']);
  const say: Say = (line) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(`${sanitizeInline(line)}\n`);
  };
  const mode = fileMode(opts.fileMode);
  const res = await runBundle(ctx, args[0] as string, args[1] as string, { withOriginals: Boolean(opts.withOriginals), ...(mode ? { mode } : {}) }, say);
  for (const l of res.left_out) say(`original left out: ${l}`);
  for (const l of res.copies_left_out) say(`left out: ${l}`);
  const human = () => [
    `wrote ${sanitizeInline(res.file)}: case ${sanitizeInline(res.case.id)} (${sanitizeInline(res.case.name)}), ${res.results} result${res.results === 1 ? '' : 's'}, ${res.originals} original${res.originals === 1 ? '' : 's'}, ${copies(res)}custody ${res.custody.entries} entries`,
    `  sha256    ${res.sha256}  (${res.size} bytes; logged as bundle_made)`,
    `  manifest  ${res.manifest_sha256}  (send it apart from the bundle: the recipient compares it)`,
    `  head      ${res.custody.head}`,
    `  signed    ${res.signatures.length ? [...new Set(res.signatures.map((x) => `${sanitizeInline(x.principal ?? '?')} (${x.fingerprint})`))].join(', ') : 'no (geo keys signing use, then bundle again)'}`,
    `  stamped   ${res.timestamps ? `${res.timestamps} trusted timestamp${res.timestamps === 1 ? '' : 's'}` : 'no (geo cases stamp)'}`,
    `  check it  geo cases verify ${sanitizeInline(res.file)}   (or without geo: VERIFY.md inside)`,
  ].join('\n');
  await render(ctx, { data: res, human }, ['table', 'json']);
};
