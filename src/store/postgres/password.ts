/**
 * Where a team store's password comes from when the server asks for one, as libpq finds it: the
 * URL's, else PGPASSWORD (node-postgres reads both itself), else the password file (PGPASSFILE,
 * else ~/.pgpass), read here. node-postgres can read that file too, but then prints its own
 * deprecation warning on stderr (pg 8.x, lib/client.js: "pgpass support is deprecated"), which
 * is the driver's business, not the user's; reading it here is what that warning asks for. With no
 * password anywhere the login fails with a line that says so in words (NoPasswordError, driver.ts
 * pgError), not the driver's "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string".
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../../config/env.js';

/** Where geo looked for a password, in words (driver.ts pgError makes it one line naming the store). */
export class NoPasswordError extends Error {
  readonly code = 'no_password';
}

/** What node-postgres hands a password function: the login's parameters. */
export interface LoginParams {
  host?: string;
  port?: number | string;
  database?: string;
  user?: string;
}

/** A field of a password file line: `\:` and `\\` are a colon and a backslash. */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '\\' && i + 1 < line.length) cur += line[++i];
    else if (ch === ':' && out.length < 4) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * The password of the first line of `text` (hostname:port:database:username:password, `*` for any)
 * that matches the login. A Unix socket connection is matched as host `localhost`, as libpq does.
 */
export function passwordFromFile(text: string, p: LoginParams): string | undefined {
  const host = !p.host || p.host.startsWith('/') ? 'localhost' : p.host;
  const want = [host, String(p.port ?? 5432), p.database ?? '', p.user ?? ''];
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    const f = fields(raw);
    if (f.length !== 5) continue;
    if (want.every((w, i) => f[i] === '*' || f[i] === w)) return f[4];
  }
  return undefined;
}

/**
 * The password function a team store's connections use when their URL and PGPASSWORD have none:
 * the password file's, or NoPasswordError naming where geo looked.
 */
export function passwordFileSource(env: Readonly<Env>): (p: LoginParams) => string {
  return (p) => {
    const file = env.PGPASSFILE || join(env.HOME || homedir(), '.pgpass');
    let why = `${file} does not exist`;
    try {
      const st = statSync(file);
      // libpq ignores a password file others can read (and says so); so does geo.
      if (!st.isFile()) why = `${file} is not a file`;
      else if ((st.mode & 0o077) !== 0) why = `${file} is ignored: others can read it (chmod 600 ${file})`;
      else {
        const found = passwordFromFile(readFileSync(file, 'utf8'), p);
        if (found !== undefined) return found;
        why = `${file} has no line for ${p.user ?? '?'} on ${p.host?.startsWith('/') ? 'localhost' : (p.host ?? '?')}:${String(p.port ?? 5432)}/${p.database ?? '?'}`;
      }
    } catch {
      /* no file: said below */
    }
    throw new NoPasswordError(`the URL has none, PGPASSWORD is not set, and ${why}`);
  };
}
