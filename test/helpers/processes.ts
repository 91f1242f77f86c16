/**
 * The process table, read from /proc (Linux): which processes a command started, and which of them
 * outlive it. While the command runs, the table is read every few milliseconds and every process
 * whose parent chain leads to it is noted (a child that detaches keeps its parent until the
 * command exits, when it is handed to init); the command runs as the leader of a session and a
 * process group of its own, so what it starts without a new session is found by those too. After
 * it ended, any noted process or member of its session or group still alive (not a zombie) is left
 * behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { finished, type CliRun } from './run-cli.js';

export interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  state: string;
  /** Its command line, for the failure message. */
  cmd: string;
}

export const HAS_PROC = existsSync('/proc/self/stat');

/** Every process now: /proc/PID/stat's fields after the command name, which may hold spaces and parentheses. */
export function processTable(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      } catch {
        // gone meanwhile
      }
      out.push({ pid: Number(name), state: f[0]!, ppid: Number(f[1]), pgrp: Number(f[2]), session: Number(f[3]), cmd });
    } catch {
      // the process ended between readdir and read
    }
  }
  return out;
}

/** The pids whose parent chain leads to root in this table (root excluded). */
function descendants(table: readonly Proc[], root: number, into: Set<number>): void {
  const children = new Map<number, number[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const stack = [root];
  const visited = new Set<number>();
  while (stack.length) {
    for (const c of children.get(stack.pop()!) ?? []) {
      if (visited.has(c)) continue;
      visited.add(c);
      into.add(c);
      stack.push(c);
    }
  }
}

export interface Watched {
  run: CliRun;
  /** The command's pid (its session and process group). */
  pid: number;
  /** Every process it started that the walks saw. */
  started: Proc[];
  /** Those, and members of its session or group, alive after it ended. */
  leftBehind: Proc[];
}

/**
 * Spawns `argv` (a binary, then its arguments) as a session leader, walks the process table every
 * `everyMs` until it ends, and reports what it left behind. `whileRunning` gets the child (to kill it).
 */
export async function watchProcesses(argv: string[], env: Record<string, string | undefined>, whileRunning?: (child: ChildProcess) => void, everyMs = 5): Promise<Watched> {
  const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const pid = child.pid!;
  const seen = new Set<number>();
  const known = new Map<number, Proc>();
  const walk = () => {
    const table = processTable();
    descendants(table, pid, seen);
    for (const p of table) if (seen.has(p.pid) || ((p.session === pid || p.pgrp === pid) && p.pid !== pid)) known.set(p.pid, p);
  };
  const timer = setInterval(walk, everyMs);
  whileRunning?.(child);
  const run = await finished(child);
  clearInterval(timer);
  walk();
  // Alive now: the same pid and not a zombie (a pid reused by an unrelated process would not share its session or ancestry).
  const now = new Map(processTable().map((p) => [p.pid, p]));
  const leftBehind = [...known.values()].filter((p) => {
    const q = now.get(p.pid);
    return q !== undefined && q.state !== 'Z' && (q.session === p.session || q.cmd === p.cmd);
  });
  for (const p of processTable()) if ((p.session === pid || p.pgrp === pid) && p.state !== 'Z' && !leftBehind.some((l) => l.pid === p.pid)) leftBehind.push(p);
  return { run, pid, started: [...known.values()], leftBehind };
}
