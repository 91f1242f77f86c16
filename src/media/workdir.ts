/**
 * The private temporary folder of one clip's work: frames are written there, ffmpeg and
 * ffprobe run in it, and it is removed when the clip is done, however it ends. Its name carries the
 * pid of the geo that made it (geo-frames-<pid>-XXXXXX), and the pids of the tools it ran are
 * written in it: a geo killed with SIGKILL cannot clean up, so the next one that opens a folder
 * removes every folder whose geo is gone, after killing the group of any tool of that run still
 * running in it (where the OS shows a process's working folder, /proc: so a reused pid is never
 * taken for the tool).
 */
import { appendFileSync } from 'node:fs';
import { lstat, mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { ChildHost } from './run-tool.js';

const PREFIX = 'geo-frames-';
const NAME = /^geo-frames-(\d+)-[A-Za-z0-9]{6}$/;
/** The pids of the tools run in the folder, one per line. */
const TOOLS_FILE = 'tools.pid';

export interface Workdir {
  path: string;
  /** Writes a tool's pid down (RunToolOptions.onSpawn). */
  ran(pid: number): void;
  remove(): Promise<void>;
}

/** Folders of earlier runs whose geo is gone are removed first (sweep below). */
export async function openWorkdir(host: ChildHost): Promise<Workdir> {
  await sweepLeftovers(host);
  const path = await mkdtemp(join(tmpdir(), `${PREFIX}${host.pid}-`));
  return {
    path,
    ran: (pid) => appendFileSync(join(path, TOOLS_FILE), `${pid}\n`),
    remove: () => rm(path, { recursive: true, force: true }),
  };
}

function myUid(): number | undefined {
  try {
    const uid = userInfo().uid;
    return uid >= 0 ? uid : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the frame folders of geo processes that are gone; returns the paths removed. */
export async function sweepLeftovers(host: ChildHost): Promise<string[]> {
  const base = tmpdir();
  const names = await readdir(base).catch(() => [] as string[]);
  const uid = myUid();
  const removed: string[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m) continue;
    const owner = Number(m[1]);
    if (owner === host.pid || host.alive(owner)) continue;
    const path = join(base, name);
    // Only a real folder of this user's (never a link planted in a shared /tmp).
    const st = await lstat(path).catch(() => undefined);
    if (!st?.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
    await killToolsIn(path, host);
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}

/** A tool of that run still working in the folder (an ffmpeg orphaned by the SIGKILL) is killed with its group. */
async function killToolsIn(path: string, host: ChildHost): Promise<void> {
  const pids = (await readFile(join(path, TOOLS_FILE), 'utf8').catch(() => '')).split('\n').filter((l) => /^\d+$/.test(l)).map(Number);
  for (const pid of pids) {
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
    if (cwd === path || cwd === `${path} (deleted)`) host.killGroup(pid);
  }
}
