/**
 * Opening a URL in the browser is best effort: a missing opener (a server, a container) is
 * reported and the URL printed, never a failure. BROWSER wins, as in most CLIs.
 */
import { spawn } from 'node:child_process';
import { platform } from 'node:os';
import type { Env } from '../../output/io.js';

export function openerFor(env: Env, os = platform()): { cmd: string; args: string[] } {
  if (env.BROWSER) return { cmd: env.BROWSER, args: [] };
  if (os === 'darwin') return { cmd: 'open', args: [] };
  if (os === 'win32') return { cmd: 'cmd', args: ['/c', 'start', '""'] };
  return { cmd: 'xdg-open', args: [] };
}

/** Resolves to the opener's name when it started, or undefined when there is none. */
export function openUrl(url: string, env: Env): Promise<string | undefined> {
  const { cmd, args } = openerFor(env);
  return new Promise((resolve) => {
    try {
      // Detached and unreferenced: the browser outlives geo and geo does not wait for it.
      const child = spawn(cmd, [...args, url], { detached: true, stdio: 'ignore', env: { ...env } });
      child.once('error', () => resolve(undefined));
      child.once('spawn', () => {
        child.unref();
        resolve(cmd);
      });
    } catch {
      resolve(undefined);
    }
  });
}
