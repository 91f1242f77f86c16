/**
 * What the build gives for `node:child_process` (package.json's build script aliases it here):
 * commander requires it when it loads, for executable subcommands geo does not have, and on Node 20
 * that pulls in net, dgram and the child-process machinery on every run: ~3 ms of `geo --help`
 * (issue 7's start-up budget; bench/startup.mjs). geo itself spawns only to open a browser
 * (`geo docs --open`). spawn() loads the real module on its first call.
 */
import type * as ChildProcess from 'node:child_process';
import { lazyBuiltin } from './builtin.js';

const load = lazyBuiltin<typeof ChildProcess>('node:child_process');

export const spawn: typeof ChildProcess.spawn = ((...args: Parameters<typeof ChildProcess.spawn>) => load().spawn(...args)) as typeof ChildProcess.spawn;
