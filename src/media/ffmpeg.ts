/**
 * ffmpeg and ffprobe are found, never downloaded: GEO_FFMPEG / GEO_FFPROBE first, then
 * `ffmpeg` / `ffprobe` on PATH (ffprobe also beside GEO_FFMPEG). geo does not ship them, so the
 * installed package stays its size; a missing or too old ffmpeg is one line saying how to install
 * it, exit 2, before anything is read or sent.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { platform } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { VERSION_TIMEOUT_MS } from './limits.js';
import { type ChildHost, ToolTimeoutError, runTool } from './run-tool.js';

/** select's scene score, prev_selected_t and the metadata filter are all older than this. */
export const MIN_VERSION: readonly [number, number] = [4, 4];

export interface Tools {
  ffmpeg: string;
  ffprobe: string;
  /** "5.1.9-0+deb12u1"; "N-…" for a build from git (taken as new). */
  version: string;
  /** ffmpeg 5.1 renamed -vsync to -fps_mode; older ones know only -vsync. */
  passthrough: string[];
}

export const INSTALL_HINT = 'install ffmpeg (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg; Windows: winget install ffmpeg), or set GEO_FFMPEG and GEO_FFPROBE to their paths';

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(() => true, () => false);
}

/** The first `name` on PATH, as a shell would find it. */
async function onPath(name: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  const exts = platform() === 'win32' ? ['.exe', ''] : [''];
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const ext of exts) if (await executable(join(dir, name + ext))) return join(dir, name + ext);
  }
  return undefined;
}

/** [major, minor] of `ffmpeg -version`'s first line; undefined for a git build (N-12345-g…). */
export function parseVersion(firstLine: string): { version: string; numbers?: [number, number] } | undefined {
  const m = /version\s+(\S+)/.exec(firstLine);
  if (!m) return undefined;
  const n = /^n?(\d+)\.(\d+)/.exec(m[1]!);
  return { version: m[1]!, ...(n ? { numbers: [Number(n[1]), Number(n[2])] as [number, number] } : {}) };
}

const older = (a: readonly [number, number], b: readonly [number, number]) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

export async function findTools(env: Record<string, string | undefined>, why: string, host?: ChildHost): Promise<Tools> {
  const given = env.GEO_FFMPEG;
  if (given !== undefined && !(await executable(given))) throw new UsageError(`GEO_FFMPEG=${given}: not an executable file; ${why} needs ffmpeg; nothing was sent`, INSTALL_HINT);
  const ffmpeg = given ?? (await onPath('ffmpeg', env));
  if (ffmpeg === undefined) throw new UsageError(`${why} needs ffmpeg, and none was found (GEO_FFMPEG, then PATH); nothing was sent`, INSTALL_HINT);
  const probeGiven = env.GEO_FFPROBE;
  if (probeGiven !== undefined && !(await executable(probeGiven))) throw new UsageError(`GEO_FFPROBE=${probeGiven}: not an executable file; nothing was sent`, INSTALL_HINT);
  const beside = given !== undefined ? join(dirname(given), platform() === 'win32' ? 'ffprobe.exe' : 'ffprobe') : undefined;
  const ffprobe = probeGiven ?? (beside && (await executable(beside)) ? beside : await onPath('ffprobe', env));
  if (ffprobe === undefined) throw new UsageError(`${why} needs ffprobe (it comes with ffmpeg), and none was found (GEO_FFPROBE, beside ffmpeg, then PATH); nothing was sent`, INSTALL_HINT);
  // Bounded like every run: a GEO_FFMPEG that hangs is stopped, with its group.
  const out = await runTool(ffmpeg, ['-hide_banner', '-version'], { timeoutMs: VERSION_TIMEOUT_MS, ...(host ? { host } : {}) }).catch((err: Error) => {
    if (err instanceof ToolTimeoutError) throw new UsageError(`${ffmpeg} did not answer -version within ${VERSION_TIMEOUT_MS / 1000} s, so geo stopped it; nothing was sent`, INSTALL_HINT);
    throw new UsageError(`${ffmpeg} could not be run (${err.message}); nothing was sent`, INSTALL_HINT);
  });
  const v = parseVersion(out.stdout.toString('utf8').split('\n')[0] ?? '');
  if (out.code !== 0 || !v) throw new UsageError(`${ffmpeg} does not answer -version like ffmpeg; nothing was sent`, INSTALL_HINT);
  if (v.numbers && older(v.numbers, MIN_VERSION)) {
    throw new UsageError(`ffmpeg ${v.version} is too old: geo needs ${MIN_VERSION.join('.')} or newer (${ffmpeg}); nothing was sent`, INSTALL_HINT);
  }
  const passthrough = v.numbers && older(v.numbers, [5, 1]) ? ['-vsync', 'passthrough'] : ['-fps_mode', 'passthrough'];
  return { ffmpeg, ffprobe, version: v.version, passthrough };
}
