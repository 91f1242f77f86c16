/**
 * `geo eval --claims [truth.csv]`: the claim-check rules calibrated on truth.
 * From each image of known position (the truth file's rows, or the images named with their EXIF
 * GPS or --truth), a true claim and false ones at chosen distances (eval/claim-calibration.ts,
 * seeded), checked exactly as `geo claims check` checks them (batch/claim-checks.ts: each image
 * located once per depth, its stored answer reused free, one plan for every depth with consent,
 * --max-credits and --dry-run), then counted per depth and distance (eval/claim-metrics.ts).
 */
import { resolve } from 'node:path';
import { type CheckedClaim, checkClaims } from '../../batch/claim-checks.js';
import { consentDeps, configuredThreshold } from '../../batch/consent.js';
import { Evidence } from '../../batch/evidence.js';
import { clientForPlan } from '../../batch/keyless.js';
import { describeStop, stopExitCode } from '../../batch/outcome.js';
import { PartialFailureError, UsageError } from '../../errors.js';
import { type CalibrationClaim, DEFAULT_CLAIM_DISTANCES_KM, DEFAULT_CLAIM_WITHIN_KM, calibrationClaims } from '../../eval/claim-calibration.js';
import { type ScoredClaim, claimEvalReport } from '../../eval/claim-metrics.js';
import { readTruthFile } from '../../eval/truth.js';
import { wholeNumber } from '../../flags.js';
import { PLAIN } from '../../output/plain-style.js';
import { BASE_FORMATS, formatOutput, resolveFormat, viewOpts } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { planLine, summaryLines } from '../../output/views/batch.js';
import type { Handler } from '../types.js';
import { selectImages } from './images.js';
import { parseDepths } from './options.js';

/** Flags of geo eval that --claims does not take: refused, never silently ignored. */
const NOT_WITH_CLAIMS = ['from', 'fromFile', 'together', 'case', 'report', 'keepMetadata', 'downscale', 'effort', 'correctWithin', 'every', 'scene', 'maxFrames', 'maxDuration', 'agreeKm'] as const;

function kmList(v: unknown): number[] {
  if (v === undefined) return [...DEFAULT_CLAIM_DISTANCES_KM];
  const parts = String(v).split(',').map((p) => p.trim());
  const out = parts.map((p) => (/^(\d+(\.\d*)?|\.\d+)$/.test(p) ? Number(p) : Number.NaN));
  if (out.some((n) => !(n > 0 && n <= 20_000)) || new Set(out).size !== out.length) throw new UsageError(`--claim-distances takes distinct distances in km above 0 (at most 20000), got "${String(v)}"`, 'for example --claim-distances 25,200,750,2500');
  return out;
}

function withinOf(v: unknown): number {
  if (v === undefined) return DEFAULT_CLAIM_WITHIN_KM;
  const s = String(v).trim();
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(s) ? Number(s) : Number.NaN;
  if (!(n > 0 && n <= 20_040)) throw new UsageError(`--within must be a distance in km above 0, got "${String(v)}"`, `the default is ${DEFAULT_CLAIM_WITHIN_KM} (a city)`);
  return n;
}

/** The scored form of a check, for the metrics: what was paid for it and what it said. */
function scoredOf(c: CheckedClaim): ScoredClaim {
  const k = c.claim as CalibrationClaim;
  const scopedKey = c.scoped?.ok ? `${c.scoped.sha256}:${c.claim.at.lat},${c.claim.at.lng},${c.claim.toleranceKm}` : null;
  return { kind: k.kind, offsetKm: k.offsetKm, depth: c.depth, verdict: c.judgement.verdict, image: c.answer.ok ? c.answer.sha256 : null, ...(c.scoped ? { scopedRequest: scopedKey } : {}) };
}

function lineOf(c: CheckedClaim) {
  const k = c.claim as CalibrationClaim;
  const e = c.evidence.estimate;
  return {
    input: c.claim.input, kind: k.kind, distance_km: k.offsetKm, actual_km: Math.round(k.actualKm * 1000) / 1000, claim: { lat: c.claim.at.lat, lng: c.claim.at.lng, place: c.claim.at.place },
    tolerance_km: c.claim.toleranceKm, depth: c.depth, verdict: c.judgement.verdict, rule: c.judgement.rule, reason: c.judgement.reason,
    estimate: e ? { lat: e.lat, lng: e.lng, confidence: e.confidence } : null, estimate_km: e?.distanceKm ?? null,
    nearest_candidate_km: c.evidence.candidates[0]?.distanceKm ?? null, exif_km: c.evidence.exif?.distanceKm ?? null, service_verdict: c.evidence.serviceAdvice,
  };
}

export const evaluateClaims: Handler = async (ctx, args, opts) => {
  const inputs = (args[0] as string[] | undefined) ?? [];
  for (const k of NOT_WITH_CLAIMS) if (opts[k] !== undefined && opts[k] !== false) throw new UsageError(`--claims does not take --${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, 'geo eval --claims truth.csv [--depth 1,3] [--within KM] [--claim-distances LIST] [--scoped]');
  const truthFile = typeof opts.claims === 'string' ? opts.claims : undefined;
  if (truthFile !== undefined && opts.truth !== undefined) throw new UsageError('--claims FILE is the truth file: give it once', 'geo eval --claims truth.csv, or geo eval IMAGES --truth truth.csv --claims');
  const format = resolveFormat(ctx, BASE_FORMATS, 'table');
  const depths = parseDepths(opts.depth as string | undefined, ctx.config.getDefault('depth'));
  const withinKm = withinOf(opts.within);
  const distancesKm = kmList(opts.claimDistances);
  const seed = wholeNumber(opts.seed, '--seed', 0, 2 ** 31, 'any whole number; the same seed makes the same claims') ?? 1;
  const maxCredits = wholeNumber(opts.maxCredits, '--max-credits', 0, Number.MAX_SAFE_INTEGER, 'depth costs: 1, 2 or 10 credits per image');
  const concurrency = wholeNumber(opts.concurrency, '--concurrency', 1, 256, 'by default it follows the rate limit and the observed latency');
  const threshold = configuredThreshold(ctx.config.getDefault('confirm_threshold'));
  const say = (line: string) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(sanitizeInline(line) + '\n');
  };
  const cwd = resolve('.');
  const truthPath = truthFile ?? (opts.truth as string | undefined);
  const truth = truthPath !== undefined ? await readTruthFile(truthPath, cwd) : undefined;
  const named = inputs.length > 0 ? inputs : truth ? truth.entries.map((e) => e.path) : [];
  if (named.length === 0) throw new UsageError('no images given', 'geo eval --claims truth.csv (its rows are the images), or geo eval IMAGES --claims (their EXIF GPS is the truth)');
  const sel = await selectImages(named, { cwd, ...(truth ? { truth } : {}) });
  for (const u of sel.unusable) say(`skipped ${u.input}: ${u.why}; not sent`);
  for (const u of [...sel.untruthed, ...sel.videos.map((v) => ({ input: v.input, why: 'a video: --claims takes photos' }))]) say(`no truth: ${u.input}: ${u.why}; skipped, not sent`);
  if (sel.images.length === 0) throw new UsageError('no image has a known position: no claims to make, nothing sent', 'images need EXIF GPS, or a truth file: geo eval --claims truth.csv');
  const made = calibrationClaims(sel.images, { distancesKm, withinKm, seed });
  for (const m of made.missing) say(`no false claim: ${m}`);
  const client = clientForPlan(() => ctx.client(), () => ctx.resolved().baseUrl.value, Boolean(opts.dryRun));
  const account = await ctx.account();
  const evidence = new Evidence(ctx, { store: opts.store !== false && !opts.dryRun });
  const n = made.claims.length;
  const ran = await checkClaims(made.claims, {
    depths, scoped: Boolean(opts.scoped), ...(opts.dryRun ? { dryRun: true } : {}), ...(opts.fresh ? { fresh: true } : {}), ...(opts.store === false ? { listed: false } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}), ...(maxCredits !== undefined ? { maxCredits } : {}), ...(ctx.globals.yes ? { yes: true } : {}),
    ...(threshold !== undefined ? { confirmThreshold: threshold } : {}), consent: consentDeps(ctx, `${n} claims at depth ${depths.join(', ')}`), evidence, store: await ctx.storeApi(), say,
    what: `${n} claims at depth ${depths.join(', ')}`,
    deps: {
      client, env: ctx.env, now: ctx.now, sleep: ctx.sleep, signal: ctx.signal, cwd, exif: evidence.exif, store: await ctx.storeApi(), version: ctx.version, origin: ctx.serviceId(),
      ...(account !== undefined ? { account } : {}), ...(ctx.frugalMemory ? { frugalMemory: ctx.frugalMemory } : {}),
    },
    onEvent: (e) => e.type === 'notice' && say(e.message),
  });
  if (ran.dryRun) {
    const total = ran.plans.reduce((k, p) => k + p.credits, 0);
    ctx.io.stdout.write(format === 'table' ? [...ran.plans.map((p) => `plan, depth ${p.depth}: ${planLine(p)}`), `${n} claims from ${sel.images.length} images; all: up to ${total} credits`, 'dry run: nothing was sent'].join('\n') + '\n' : JSON.stringify({ plans: ran.plans, claims: n, credits: total, sent: false }, null, 2) + '\n');
    return;
  }
  const report = claimEvalReport(ran.checked.map(scoredOf), { depths, distancesKm, withinKm, seed, images: sel.images.length });
  const view = await viewOpts(ctx, format === 'table' && ctx.io.colorOut);
  const lines = ran.checked.map(lineOf);
  ctx.io.stdout.write(await formatOutput({ data: report, records: () => lines, human: async (v) => (await import('../../output/views/claims-eval.js')).claimsEvalView(report, v) }, format, view));
  if (ran.reused > 0) say(`${ran.reused} answer${ran.reused === 1 ? '' : 's'} from your earlier runs (stored results): not sent, not charged`);
  ran.summaries.forEach((summary, i) => {
    const { stopped, ...counts } = summary;
    summaryLines({ ...counts, ...(stopped ? { stopped: describeStop(stopped) } : {}) }, PLAIN).slice(0, 1).forEach((l) => say(`batch ${i + 1} (depth ${ran.plans[i]?.depth ?? '?'}): ${l}`));
  });
  const stopped = ran.summaries.find((x) => x.stopped)?.stopped;
  const failed = ran.checked.filter((c) => !c.answer.ok).length;
  if (stopped) throw new PartialFailureError(failed, ran.checked.length, stopExitCode(stopped));
  if (failed > 0) throw new PartialFailureError(failed, ran.checked.length);
};

