/**
 * `geo cases verify <case.zip>`: offline, no key, no config, no network (evidence/bundle-verify.ts).
 * Exit 0 when the bundle verifies; 1 when anything in it fails (each failure listed), or when it
 * holds simulated answers (a sandbox's) and --allow-sandbox was not given; 2 when the argument is
 * not a bundle at all (absent, a folder, a FIFO, not a zip).
 *
 * `geo cases verify <case>` (an argument that names no file and does not end in .zip): the local
 * case's custody log, its results and the files written for it (check.ts); exit 0 or 1 as above,
 * and 2 for a case that does not exist or a name several cases share.
 */
import { stat } from 'node:fs/promises';
import type { Ctx } from '../../context.js';
import { NotVerifiedError, UsageError } from '../../errors.js';
import { type BundleReport, verifyBundle } from '../../evidence/bundle-verify.js';
import { SANDBOX_HINT, type SimulatedSection } from '../../evidence/verify-report.js';
import { ZipFormatError } from '../../evidence/zip-read.js';
import { NotRegularFileError } from '../../files/read.js';
import { type ViewOpts, formatOutput, resolveFormat, viewOpts } from '../../output/render.js';
import type { Handler } from '../types.js';
import { findCase } from '../../store/find.js';
import { verifyCase } from './check.js';

const HINT = 'geo cases verify takes a bundle written by geo cases bundle, e.g. geo cases verify case.zip';

export async function runVerify(_ctx: Pick<Ctx, 'io'>, target: string, opts: { allowSandbox?: boolean } = {}): Promise<BundleReport> {
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

/** The one error line: the first integrity failure, else the simulated answers (exit 1 either way). */
function notVerified(what: string, failures: string[], integrityOk: boolean, sim: SimulatedSection, hint: string): NotVerifiedError {
  if (integrityOk) return new NotVerifiedError(`${what} holds ${failures[0]}`, SANDBOX_HINT);
  const more = failures.length > 1 ? ` (${failures.length - 1} more on stdout)` : '';
  return new NotVerifiedError(`${what} does not verify: ${failures[0]}${more}`, sim.ok ? hint : `${hint}; it also holds simulated answers (sandbox)`);
}

export const verify: Handler = async (ctx, args, opts) => {
  const format = resolveFormat(ctx, ['table', 'json']);
  const target = args[0] as string;
  const allowSandbox = Boolean(opts.allowSandbox);
  if (!(await namesBundle(target))) return verifyLocal(ctx, target, format, allowSandbox);
  const report = await runVerify(ctx, target, { allowSandbox });
  const out = { data: report, human: async (view: ViewOpts) => (await import('../../output/views/bundle-verify.js')).bundleVerifyView(report, view) };
  ctx.io.stdout.write(await formatOutput(out, format, await viewOpts(ctx, format === 'table' && ctx.io.colorOut)));
  if (!report.ok) throw notVerified(report.file, report.failures, report.integrity.ok, report.simulated, 'do not rely on this bundle; ask its sender for the manifest sha256 and a fresh copy');
};

async function verifyLocal(ctx: Ctx, ref: string, format: string, allowSandbox: boolean): Promise<void> {
  const store = ctx.store();
  const report = await verifyCase(store, findCase(store, ref), { allowSandbox });
  const human = async (view: ViewOpts) => (await import('../../output/views/case-show.js')).caseVerifyView(report, view);
  ctx.io.stdout.write(await formatOutput({ data: report, human }, format, await viewOpts(ctx, format === 'table' && ctx.io.colorOut)));
  if (!report.ok) throw notVerified(`case ${report.case.id}`, report.failures, report.integrity.ok, report.simulated, 'the custody log, the store or a file written for the case was changed after the fact; do not rely on what fails');
}
