/**
 * `geo cases verify <case.zip>`: offline, no key, no config, no network (evidence/bundle-verify.ts).
 * Exit 0 when the bundle verifies; 1 when anything in it fails (each failure listed), or when it
 * holds simulated answers (a sandbox's) and --allow-sandbox was not given; 2 when the argument is
 * not a bundle at all (absent, a folder, a FIFO, not a zip).
 *
 * `geo cases verify <case>` (an argument that names no file and does not end in .zip): the local
 * case's custody log, its results and the files written for it (check.ts); exit 0 or 1 as above,
 * and 2 for a case that does not exist or a name several cases share.
 *
 * Both report signatures and timestamps apart: a signature or token that does not hold,
 * or an entry past the last valid signature, is exit 1; --require-signature / --require-timestamp
 * make their absence exit 1 too. --allowed-signers FILE: only its keys count; --tsa-ca FILE (or
 * the tsa-ca setting): only its CAs are trusted for TSAs. Reviews too (evidence/review-sign.ts): one
 * whose signature does not hold is exit 1; --require-reviews N makes fewer than N current approvals
 * by keys other than the conclusion's author exit 1, each review that does not count named.
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Ctx } from '../../context.js';
import { NotVerifiedError, UsageError } from '../../errors.js';
import { parseAllowedSigners } from '../../evidence/allowed-signers.js';
import { type BundleReport, type BundleTrust, verifyBundle } from '../../evidence/bundle-verify.js';
import { readTsaCa } from '../../evidence/custody-stamps.js';
import { TimestampError } from '../../evidence/tsa-errors.js';
import { type SimulatedSection, sandboxHint } from '../../evidence/verify-report.js';
import { ZipFormatError } from '../../evidence/zip-read.js';
import { NotRegularFileError } from '../../files/read.js';
import { type ViewOpts, formatOutput, resolveFormat, viewOpts } from '../../output/render.js';
import type { Handler } from '../types.js';
import { findCase } from '../../store/find.js';
import { verifyCase } from './check.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { shellQuote } from '../../files/shell.js';
import { wholeNumber } from '../../flags.js';

const HINT = 'geo cases verify takes a bundle written by geo cases bundle, e.g. geo cases verify case.zip';

export interface VerifyOptions extends BundleTrust {
  allowSandbox?: boolean;
}

export async function runVerify(_ctx: Pick<Ctx, 'io'>, target: string, opts: VerifyOptions = {}): Promise<BundleReport> {
  let isFile = false;
  try {
    isFile = (await stat(target)).isFile();
  } catch {
    throw new UsageError(`no such file: ${target}`, HINT);
  }
  if (!isFile) throw new UsageError(`${target} is not a file`, HINT);
  try {
    return await verifyBundle(target, opts);
  } catch (e) {
    if (e instanceof ZipFormatError) throw new UsageError(`${target} is not a case bundle: ${e.message}`, HINT);
    if (e instanceof NotRegularFileError) throw new UsageError(`${target} is ${e.kind}, not a case bundle`, HINT);
    if ((e as NodeJS.ErrnoException).code === 'EACCES') throw new UsageError(`cannot read ${target}: permission denied`, HINT);
    throw e;
  }
}

/** A bundle: a file that exists, or a name ending in .zip (a missing bundle is "no such file", not "no such case"). */
const namesBundle = async (target: string) => /\.zip$/i.test(target) || (await stat(target).then(() => true, () => false));

interface Sections {
  failures: string[];
  integrity: { ok: boolean };
  signatures: { ok: boolean };
  timestamps: { ok: boolean };
  reviews: { ok: boolean; reviews: Array<{ ok: boolean }> };
  simulated: SimulatedSection;
}

/** The one error line: the first failure of integrity, signatures, timestamps or reviews, else the simulated answers (exit 1 either way). */
function notVerified(what: string, target: string, r: Sections, hint: string): NotVerifiedError {
  if (r.integrity.ok && r.signatures.ok && r.timestamps.ok && r.reviews.ok) return new NotVerifiedError(`${what} holds ${r.failures[0]}`, sandboxHint(target));
  const more = r.failures.length > 1 ? ` (${r.failures.length - 1} more on stdout)` : '';
  // Too few approvals is not tampering: say what would count instead.
  const short = r.integrity.ok && r.signatures.ok && r.timestamps.ok && r.reviews.reviews.every((x) => x.ok);
  const why = short ? `an approval counts while only signatures, stamps, files and other reviews follow it, made with a key other than the conclusion's: geo cases review ${target} --approve --because TEXT, by a colleague` : hint;
  return new NotVerifiedError(`${what} does not verify: ${r.failures[0]}${more}`, r.simulated.ok ? why : `${why}; it also holds simulated answers (sandbox)`);
}

/** A file the user names for trust, read whole (small: a key list, a CA certificate or two). */
function readTrustFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8').slice(0, 1024 * 1024);
  } catch (err) {
    throw new UsageError(`cannot read ${flag} ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)})`, `${flag} takes a file: ${flag === '--allowed-signers' ? 'allowed_signers lines (geo keys signing show prints yours)' : "the TSA's CA certificate(s), PEM"}`);
  }
}

/** --allowed-signers, --tsa-ca (else the tsa-ca setting), --require-*: what the verifier trusts and requires. */
export function trustOptions(ctx: Pick<Ctx, 'config'>, opts: Record<string, unknown>): VerifyOptions {
  const out: VerifyOptions = { allowSandbox: Boolean(opts.allowSandbox), requireSignature: Boolean(opts.requireSignature), requireTimestamp: Boolean(opts.requireTimestamp) };
  const reviews = wholeNumber(opts.requireReviews, '--require-reviews', 1, 100, 'the number of current approvals by keys other than the conclusion\'s author, e.g. --require-reviews 1');
  if (reviews !== undefined) out.requireReviews = reviews;
  if (typeof opts.allowedSigners === 'string') {
    const file = parseAllowedSigners(readTrustFile(opts.allowedSigners, '--allowed-signers'));
    if (file.entries.length === 0) throw new UsageError(`--allowed-signers ${opts.allowedSigners} lists no key${file.problems.length ? ` (${file.problems[0]})` : ''}`, 'one line per key: principal namespaces="geo-custody" ssh-ed25519 AAAA… (geo keys signing show prints yours)');
    out.allowedSigners = file;
  }
  const ca = typeof opts.tsaCa === 'string' ? opts.tsaCa : ctx.config.getDefault('tsa_ca');
  if (ca !== undefined && ca !== '') {
    try {
      out.tsaCa = readTsaCa(readTrustFile(ca, '--tsa-ca'), ca);
    } catch (err) {
      if (err instanceof TimestampError) throw new UsageError(err.message, "the TSA's CA certificate, PEM (-----BEGIN CERTIFICATE-----)");
      throw err;
    }
  }
  return out;
}

export const verify: Handler = async (ctx, args, opts) => {
  const format = resolveFormat(ctx, ['table', 'json']);
  const target = args[0] as string;
  const trust = trustOptions(ctx, opts);
  if (!(await namesBundle(target))) return verifyLocal(ctx, target, format, trust);
  const report = await runVerify(ctx, target, trust);
  const out = { data: report, human: async (view: ViewOpts) => (await import('../../output/views/bundle-verify.js')).bundleVerifyView(report, view) };
  ctx.io.stdout.write(await formatOutput(out, format, await viewOpts(ctx, format === 'table' && ctx.io.colorOut)));
  if (!report.ok) throw notVerified(report.file, shellQuote(sanitizeInline(target)), report, 'do not rely on this bundle; ask its sender for the manifest sha256 and a fresh copy');
};

async function verifyLocal(ctx: Ctx, ref: string, format: string, trust: VerifyOptions): Promise<void> {
  const store = await ctx.storeApi();
  const report = await verifyCase(store, await findCase(store, ref), trust);
  const human = async (view: ViewOpts) => (await import('../../output/views/case-show.js')).caseVerifyView(report, view);
  ctx.io.stdout.write(await formatOutput({ data: report, human }, format, await viewOpts(ctx, format === 'table' && ctx.io.colorOut)));
  if (!report.ok) throw notVerified(`case ${report.case.id}`, shellQuote(sanitizeInline(report.case.id)), report, 'the custody log, the store or a file written for the case was changed after the fact; do not rely on what fails');
}
