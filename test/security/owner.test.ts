/**
 * Issue 30, section 5: a data folder or a geo.db that another user owns is refused with a hint
 * (exit 2, nothing created in it, nothing sent): its owner could swap the store under geo, or read
 * what geo writes there. Tests run as root here, so the other user is made by chown to nobody
 * (uid 65534); a user who is not root meets /tmp (root's) instead.
 */
import { chownSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmp } from '../cases/helpers.js';
import { type CliRun, runCli, spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const ROOT = process.getuid?.() === 0;
const NOBODY = 65534;
const errorLines = (r: CliRun) => r.stderr.split('\n').filter((l) => l.startsWith('error:'));
const requests = () => sb.ledger().keys[KEYS.pro]?.requests ?? 0;
const env = (data: string) => ({ GEO_DATA_DIR: data, GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro });

describe('a data folder or store another user owns', () => {
  it.runIf(ROOT)('a data folder owned by nobody (uid 65534): refused with a hint, nothing created in it, nothing sent', async () => {
    const data = join(tmp(), 'data');
    mkdirSync(data, { mode: 0o700 });
    chownSync(data, NOBODY, NOBODY);
    const sent = requests();
    for (const argv of [['history'], ['locate', FIXTURES + 'paris.jpg']]) {
      const r = await runCli(argv, { env: env(data) });
      expect(r.code, r.stderr).toBe(2);
      expect(errorLines(r)).toEqual([expect.stringMatching(new RegExp(`^error: refusing to use ${data} as the data folder: it belongs to another user \\(uid ${NOBODY}\\).* — hint: use a folder of your own \\(set GEO_DATA_DIR\\), or run geo as the user who owns it$`))]);
    }
    expect(readdirSync(data)).toEqual([]);
    expect(requests()).toBe(sent);
  });

  it.runIf(ROOT)('a geo.db (or its -wal) owned by nobody in a folder of ours: refused, left as it is, nothing sent', async () => {
    for (const name of ['geo.db', 'geo.db-wal']) {
      const data = tmp();
      // A real store first, made by another process, then handed to another user. Not in this
      // process: libsql closes a connection for good only once the garbage collector has freed its
      // cached statements, and that late close deletes the -wal under the test at a random moment.
      expect((await spawnGeo(['history'], { env: env(data) })).code).toBe(0);
      if (!existsSync(join(data, name))) (await import('node:fs')).writeFileSync(join(data, name), '');
      chownSync(join(data, name), NOBODY, NOBODY);
      const sent = requests();
      const r = await runCli(['locate', FIXTURES + 'paris.jpg'], { env: env(data) });
      expect(r.code, r.stderr).toBe(2);
      expect(errorLines(r)).toEqual([expect.stringMatching(new RegExp(`^error: refusing to use ${join(data, name)} as the store: it belongs to another user \\(uid ${NOBODY}\\)`))]);
      expect(statSync(join(data, name)).uid).toBe(NOBODY);
      expect(requests()).toBe(sent);
    }
  });

  it.runIf(!ROOT && statSync('/tmp').uid !== process.getuid?.())('GEO_DATA_DIR=/tmp (root\'s): refused with a hint', async () => {
    const r = await runCli(['history'], { env: env('/tmp') });
    expect(r.code).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/refusing to use \/tmp as the data folder: it belongs to another user/)]);
  });

  it('a data folder of our own still works, and one geo creates is 0700', async () => {
    const data = join(tmp(), 'new', 'data');
    const r = await runCli(['history'], { env: env(data) });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(join(data, 'geo.db')).mode & 0o777).toBe(0o600);
  });
});
