/**
 * What the build gives for `node:child_process` (package.json's build script aliases it here):
 * commander requires it when it loads, for executable subcommands geo does not have, and on Node 20
 * that pulls in net, dgram and the child-process machinery on every run: ~3 ms of `geo --help`
 * (start-up budget; bench/startup.mjs). geo itself spawns only to open a browser
 * (`geo docs --open`). spawn() loads the real module on its first call. dist/libsql.cjs gets this
 * file too: detect-libc requires child_process when it loads, and runs a command only when the
 * ELF interpreter and /usr/bin/ldd do not tell glibc from musl (exec, execSync).
 */
import type * as ChildProcess from 'node:child_process';
import { lazyBuiltin } from './builtin.js';

const load = lazyBuiltin<typeof ChildProcess>('node:child_process');

export const spawn: typeof ChildProcess.spawn = ((...args: Parameters<typeof ChildProcess.spawn>) => load().spawn(...args)) as typeof ChildProcess.spawn;
export const exec: typeof ChildProcess.exec = ((...args: Parameters<typeof ChildProcess.exec>) => load().exec(...args)) as typeof ChildProcess.exec;
export const execSync: typeof ChildProcess.execSync = ((...args: Parameters<typeof ChildProcess.execSync>) => load().execSync(...args)) as typeof ChildProcess.execSync;
