/**
 * Runs the real command (src/cli.ts main, in-process) against the fake API with a fresh state
 * folder (journals) and data folder (provenance records), and reads back what geo kept on disk.
 */
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fastClock } from '../reliability/helpers.js';
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

function filesUnder(dir: string, ext: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out = out.concat(filesUnder(p, ext));
    else if (p.endsWith(ext)) out.push(p);
  }
  return out;
}

export interface DoneLine {
  t: 'done';
  ok: boolean;
  raw?: string;
  status?: number;
  credits?: number;
  deviations?: string[];
  error?: { code: string; final: boolean; message: string };
  result?: unknown;
}

/** Every "done" line of every journal in the state folder, with the journal's path. */
export function doneLines(dirs: Dirs): Array<DoneLine & { file: string }> {
  return filesUnder(dirs.state, '.ndjson').flatMap((file) =>
    readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => ({ ...(JSON.parse(l) as DoneLine), file })).filter((l) => l.t === 'done'),
  );
}

export interface Record {
  response: { status?: number; raw?: string; body: unknown; deviations?: string[] };
  unusable?: string;
}

/** Every provenance record in the data folder. */
export function records(dirs: Dirs): Record[] {
  return filesUnder(join(dirs.data, 'results'), '.json').map((f) => JSON.parse(readFileSync(f, 'utf8')) as Record);
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
