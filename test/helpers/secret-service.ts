/**
 * A real Secret Service for keyring tests: a private D-Bus session (dbus-run-session) with
 * gnome-keyring-daemon unlocked in it, its keyrings in a fresh folder, so nothing touches the
 * user's own keyring. Tests pass `address` to geo as DBUS_SESSION_BUS_ADDRESS. `lookup` reads an
 * entry with secret-tool (libsecret), a client independent of geo's binding.
 *
 * Needs the Debian packages dbus and gnome-keyring (.ci/run installs them when missing);
 * `missingTools()` says which are absent so the test can skip saying why.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;

export function missingTools(): string[] {
  return ['dbus-run-session', 'gnome-keyring-daemon'].filter((t) => !has(t));
}

export const hasSecretTool = () => has('secret-tool');

export interface SecretService {
  address: string;
  /** The secret of service/username, or undefined when there is none (secret-tool lookup). */
  lookup(service: string, username: string): Promise<string | undefined>;
  /** Sets the secret of service/username behind geo's back (secret-tool store, the secret on stdin). */
  store(service: string, username: string, secret: string): Promise<void>;
  close(): Promise<void>;
}

// The session: unlock a fresh login keyring (empty password on stdin), print the bus address, then
// wait until the test closes our stdin; leaving ends the session and, with it, the daemon.
const SCRIPT = `eval "$(printf '\\n' | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)" >/dev/null
echo "$DBUS_SESSION_BUS_ADDRESS"
cat >/dev/null`;

export async function startSecretService(): Promise<SecretService> {
  const data = mkdtempSync(join(tmpdir(), 'geo-keyring-data-'));
  const env = { PATH: process.env.PATH, HOME: data, XDG_DATA_HOME: data, XDG_RUNTIME_DIR: data, LANG: 'C.UTF-8' };
  const child: ChildProcess = spawn('dbus-run-session', ['--', 'sh', '-c', SCRIPT], { env, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the D-Bus session did not start within 10 s')), 10_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.trim());
      }
    });
    child.on('error', reject);
  });
  const lookup = (service: string, username: string) =>
    new Promise<string | undefined>((resolve) => {
      execFile('secret-tool', ['lookup', 'service', service, 'username', username], { env: { ...env, DBUS_SESSION_BUS_ADDRESS: address }, timeout: 5000 }, (err, stdout) => resolve(err ? undefined : stdout));
    });
  const store = (service: string, username: string, secret: string) =>
    new Promise<void>((resolve, reject) => {
      const c = execFile('secret-tool', ['store', '--label', `${service} ${username}`, 'service', service, 'username', username], { env: { ...env, DBUS_SESSION_BUS_ADDRESS: address }, timeout: 5000 }, (err) => (err ? reject(err) : resolve()));
      c.stdin!.end(secret);
    });
  const close = async () => {
    const gone = new Promise((r) => child.once('exit', r));
    child.stdin!.end();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGTERM'); // this session's own process group, nothing else
      } catch {
        // already gone
      }
    }, 3000);
    await gone;
    clearTimeout(timer);
  };
  return { address, lookup, store, close };
}
