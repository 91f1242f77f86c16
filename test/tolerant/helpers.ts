/**
 * Runs the real command (src/cli.ts main, in-process) against the fake API with a fresh state
 * folder and data folder (the store), and reads back what geo kept on disk.
 */
import { mkdtempSync } from 'node:fs';
import { dbRows } from '../helpers/store.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fastClock } from '../reliability/helpers.js';
import { bodyText, rawB64 } from '../../src/api/decode.js';
import { type CliRun, runCli } from '../helpers/run-cli.js';
import type { FakeApi } from './fake-server.js';

export const FIXTURES = new URL('../../fixtures/images/', import.meta.url).pathname;
export const PARIS = join(FIXTURES, 'paris.jpg');
export const TOKYO = join(FIXTURES, 'tokyo.jpg');
export const KEY = 'orca_test_tolerant_0123456789';

export interface Dirs {
  state: string;
  data: string;
}

export const freshDirs = (): Dirs => ({ state: mkdtempSync(join(tmpdir(), 'geo-tol-state-')), data: mkdtempSync(join(tmpdir(), 'geo-tol-data-')) });

/** One run of geo with the fake API's URL, a test key, the given folders and an instant clock. */
export async function geo(api: FakeApi, argv: string[], dirs: Dirs = freshDirs()): Promise<CliRun> {
  const clock = fastClock();
  return runCli(argv, {
    env: { GEO_API_KEY: KEY, GEO_BASE_URL: api.url, GEO_STATE_DIR: dirs.state, GEO_DATA_DIR: dirs.data },
    now: clock.now,
    sleep: clock.sleep,
  });
}

export interface DoneLine {
  ok: boolean;
  raw?: string;
  /** The bytes as base64 when the text does not give them back (issue 21). */
  raw_b64?: string;
  status?: number;
  credits?: number;
  deviations?: string[];
  error?: { code: string; final: boolean; message: string };
  key: string;
}

interface ClaimRow {
  key: string;
  state: string;
  credits: number | null;
  error: string | null;
  status: number | null;
  raw: Buffer | null;
  record: string | null;
  usable: number | null;
}

/**
 * What the store says of each request (a claim, with its answer when one came): the outcome the
 * journal's "done" lines held before the store. Open claims (sent, no final outcome) are left out.
 */
export function doneLines(dirs: Dirs): DoneLine[] {
  const rows = dbRows<ClaimRow>(dirs.data, 'SELECT c.key, c.state, c.credits, c.error, r.status, r.raw, r.record, r.usable FROM claims c LEFT JOIN results r ON r.id = c.result_id WHERE c.state <> \'open\' ORDER BY c.created_at');
  return rows.map((c) => {
    const rec = c.record ? (JSON.parse(c.record) as { unusable?: string; request?: { async?: boolean }; response: { deviations?: string[] } }) : undefined;
    const ok = c.state === 'answered' && (c.usable === 1 || (rec?.request?.async === true && c.status === 202));
    const error = c.state === 'failed' ? (JSON.parse(c.error!) as DoneLine['error']) : !ok && rec?.unusable ? { code: 'unusable_answer', final: true, message: rec.unusable } : undefined;
    return {
      key: c.key, ok, ...rawOf(c.raw), ...(c.status !== null ? { status: c.status } : {}), ...(c.credits !== null ? { credits: c.credits } : {}),
      ...(rec?.response.deviations ? { deviations: rec.response.deviations } : {}), ...(error ? { error } : {}),
    };
  });
}

/** The stored BLOB as a record shows it: the text (\udcXX for bytes that are not UTF-8) and raw_b64 when needed. */
function rawOf(blob: Buffer | null): { raw?: string; raw_b64?: string } {
  if (!blob) return {};
  const bytes = Buffer.from(blob);
  const raw = bodyText(bytes);
  const b64 = rawB64(raw, bytes);
  return { raw, ...(b64 ? { raw_b64: b64 } : {}) };
}

export interface Record {
  response: { status?: number; raw?: string; raw_b64?: string; body: unknown; deviations?: string[] };
  unusable?: string;
}

/** Every result in the store (usable or not), oldest first, with its raw body. */
export function records(dirs: Dirs): Record[] {
  return dbRows<{ record: string; raw: Buffer | null }>(dirs.data, 'SELECT record, raw FROM results ORDER BY id').map((r) => {
    const rec = JSON.parse(r.record) as Record;
    return { ...rec, response: { ...rec.response, ...rawOf(r.raw) } };
  });
}

/** stderr lines that are deviation warnings. */
export const warnings = (stderr: string): string[] => stderr.split('\n').filter((l) => l.includes('the answer is off the contract'));
export const errorLine = (stderr: string): string | undefined => stderr.split('\n').find((l) => l.startsWith('error:'));

// ---- Bodies ------------------------------------------------------------------------------------

const LOC = { latitude: 48.8584, longitude: 2.2945, country: 'France', city: 'Paris', neighborhood: 'Gros-Caillou', address: 'Champ de Mars' };
export const D1 = { success: true, analysis_id: 'an_tol_1', location: LOC, confidence: 0.82, reasoning: 'Iron lattice tower.', model: 'orca-1.5', depth: 1, timing_ms: 1234 };
export const D2 = { ...D1, depth: 2, thinking: 'Steps.', visual_clues: [{ label: 'tower', detail: '' }] };
export const D3 = {
  ...D2, depth: 3, calibration: { abstain_below: 0.3 },
  forensic: { precision_tier: 'site_level', verification_status: 'partially_verified', supports: ['lattice'], contradictions: [], candidates: [{ lat: 48.85, lng: 2.29, label: 'Paris', confidence: 80, supports: ['a'], contradictions: [] }] },
};

/** A copy with `path` (dot separated) set to `value`, or removed when value is undefined. */
export function withField<T extends object>(body: T, path: string, value: unknown): T {
  const copy = structuredClone(body) as { [k: string]: unknown };
  const keys = path.split('.');
  let o = copy as { [k: string]: unknown };
  for (const k of keys.slice(0, -1)) o = o[k] as { [k: string]: unknown };
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete o[last];
  else o[last] = value;
  return copy as T;
}
