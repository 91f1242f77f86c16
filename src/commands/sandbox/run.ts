/**
 * `geo sandbox`: start the reference server, print its base URL and the seeded keys on stdout, and
 * serve until Ctrl-C (ctx.signal). The URL is the first stdout line on its own, so scripts can read it.
 */
import { basename, resolve } from 'node:path';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { width, wrap } from '../../output/fit.js';
import { isLoopbackHost } from '../../api/schemas.js';
import { parseFaultList } from '../../sandbox/faults.js';
import { type RateAlgorithm, RATE_ALGORITHMS } from '../../sandbox/ratelimit.js';
import { startSandbox } from '../../sandbox/server.js';
import { SEED_KEYS, TIER_RATE } from '../../sandbox/state.js';
import { TSA_CA_PATH, TSA_PATH } from '../../evidence/tsa-sandbox.js';

function int(name: string, v: unknown, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v);
  const n = Number(s);
  if (!/^\d+$/.test(s) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${s}"`, 'see `geo sandbox --help`');
  return n;
}

/** Below this the notes do not read as a column: each goes on its own lines under its key. */
const NARROWEST_NOTES = 20;

/**
 * The keys, fitted to `columns` (a file or pipe is read on a terminal later, so it gets 80): the
 * last column's words wrap under itself, a key is never cut. Every key line starts with the key.
 */
function table(rows: string[][], columns: number): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => width(r[i]!))));
  const lead = (r: string[]) => r.slice(0, -1).map((c, i) => c.padEnd(widths[i]!)).join('  ') + '  ';
  const notesAt = width(lead(rows[0]!));
  return rows
    .flatMap((r) => (columns - notesAt >= NARROWEST_NOTES ? wrap(r.at(-1)!, columns, ' '.repeat(notesAt), lead(r)) : [lead(r).trimEnd(), ...wrap(r.at(-1)!, columns, '    ')]))
    .join('\n');
}

/** --truth FILE: its images read now and keyed by their pixels; a missing image is a usage error. */
async function knownModelFrom(file: string, cwd: string, errorKm: number | undefined, seed: number | undefined) {
  const { readTruthFile } = await import('../../eval/truth.js');
  const { loadKnownModel } = await import('../../sandbox/known.js');
  const truth = await readTruthFile(file, cwd);
  try {
    return await loadKnownModel(truth.entries.map((e) => ({ path: e.path, name: basename(e.path), lat: e.lat, lng: e.lng })), { ...(errorKm !== undefined ? { errorKm } : {}), ...(seed !== undefined ? { seed } : {}) });
  } catch (e) {
    throw new UsageError(`--truth ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? `an image it names is missing (${(e as NodeJS.ErrnoException).path ?? ''})` : (e as Error).message}`, 'paths in the truth file are relative to its folder');
  }
}

export async function runSandbox(ctx: Ctx, _args: unknown[], opts: Record<string, unknown>): Promise<number> {
  const host = String(opts.host ?? '127.0.0.1');
  const port = int('port', opts.port, 0, 65535);
  const latencyMs = int('latency', opts.latency, 0, 600_000);
  const rateLimit = int('rate-limit', opts.rateLimit, 1, 1_000_000);
  const rateWindowS = int('rate-window', opts.rateWindow, 1, 86_400);
  const seed = int('seed', opts.seed, 0, 2 ** 32 - 1);
  const rateAlgorithm = String(opts.rateAlgorithm ?? 'fixed') as RateAlgorithm;
  if (!RATE_ALGORITHMS.includes(rateAlgorithm)) throw new UsageError(`--rate-algorithm must be one of ${RATE_ALGORITHMS.join(', ')}, got "${rateAlgorithm}"`, 'see `geo sandbox --help`');
  const faults = opts.faults === undefined ? undefined : String(opts.faults);
  if (faults) {
    try {
      parseFaultList(faults);
    } catch (e) {
      throw new UsageError(`--faults: ${(e as Error).message}`, 'for example --faults 500:0.1,reset-after:0.05');
    }
  }
  const errorKm = opts.truthError === undefined ? undefined : Number(opts.truthError);
  if (errorKm !== undefined && !(errorKm > 0 && errorKm <= 20_000)) throw new UsageError(`--truth-error must be a distance in km above 0 and at most 20000, got "${String(opts.truthError)}"`, 'for example --truth-error 25');
  const known = opts.truth === undefined ? undefined : await knownModelFrom(String(opts.truth), resolve('.'), errorKm, seed);
  const started = performance.now();
  const sb = await startSandbox({ host, port, latencyMs, rateLimit, rateWindowS, rateAlgorithm, faults, seed, now: ctx.now, ...(known ? { known } : {}) }).catch((err: unknown) => {
    // A port already taken is the user's choice to change, not a failure of geo.
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${host} is already in use`, 'pick another with --port N, or --port 0 for a free one (its URL is printed first)');
    throw err;
  });
  const ms = performance.now() - started;
  const out = ctx.io.stdout;
  out.write(`${sb.url}\n\n`);
  const rows = [['KEY', 'TIER', 'API CREDITS', 'NOTES'], ...SEED_KEYS.map((k) => [k.key, k.tier, String(k.apiBalance), k.note])];
  const columns = ctx.io.stdoutIsTTY ? ctx.io.columns : 80;
  out.write(`${table(rows, columns)}\n\n`);
  const limits = `Rate limits (${rateAlgorithm}) per ${rateWindowS ?? 60} s: ${rateLimit !== undefined ? `${rateLimit} for every key` : Object.entries(TIER_RATE).map(([t, n]) => `${t} ${n}`).join(', ')}.`;
  out.write(`${['batch_sandbox is bound to orca_sandbox_enterprise.', limits].flatMap((l) => wrap(l, columns)).join('\n')}\n`);
  // One link a line, each whole: the screen's width never splits one.
  out.write(`Docs     ${sb.url}/api/v1/docs\nOpenAPI  ${sb.url}/__sandbox/openapi.json\nLedger   ${sb.url}/__sandbox/ledger\n`);
  out.write(`Test time-stamp authority (sandbox time, not evidence):\nTSA      ${sb.url}${TSA_PATH}\nTSA CA   ${sb.url}${TSA_CA_PATH}\n`);
  const err = ctx.io.stderr;
  if (!isLoopbackHost(host)) err.write(`warning: listening on ${host}: the sandbox keys are public; the ledger answers loopback callers only\n`);
  if (faults) err.write(`faults: ${faults} (seed ${seed ?? 1})\n`);
  if (known) err.write(`truth: ${known.images.size} image(s) of ${String(opts.truth)} answered by a model of known skill (error scale ${known.errorKm} km at depth 3, seed ${known.seed})\n`);
  err.write(`sandbox ready in ${ms.toFixed(0)} ms; Ctrl-C to stop\n`);
  // Load the offline geocoder now, while nobody waits, so the first EXIF-placed answer is not slow.
  setTimeout(() => void import('../../places/geocode.js').then((g) => g.reverseGeocode(0, 0)).catch(() => undefined), 50).unref();

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sb.close();
  err.write('sandbox stopped\n');
  return 0;
}
