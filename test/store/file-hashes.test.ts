/**
 * The store's cache of file hashes (src/store/file-hash-cache.ts): a folder located again is not read
 * again to learn which images it holds, but a file rewritten in place is, even with its size and
 * mtime put back (its ctime moved); a file changed in the last two seconds is never remembered.
 */
import { openSync, closeSync, readFileSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeImages } from '../batch/helpers.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';

const sb = withSandbox();

describe('file hashes remembered by the store', () => {
  it('a file rewritten in place (same size, mtime put back) is hashed again and sent as the new image it is', async () => {
    const dir = makeImages(3);
    const data = tempConfigDir();
    const env = { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_DATA_DIR: data, GEO_STATE_DIR: tempConfigDir() };
    // A clock ten seconds ahead: the files, written just now, are old enough to be remembered.
    const later = () => Date.now() + 10_000;
    expect((await runCli(['locate', dir, '--json'], { env })).code).toBe(0);
    expect(dbRows(data, 'SELECT path FROM file_hashes')).toEqual([]); // changed in the last 2 s: not remembered
    expect((await runCli(['locate', dir, '--json'], { env, now: later })).code).toBe(0);
    const remembered = dbRows<{ path: string; sha256: string }>(data, 'SELECT path, sha256 FROM file_hashes ORDER BY path');
    expect(remembered.map((r) => r.path)).toEqual(['000.jpg', '001.jpg', '002.jpg'].map((n) => join(dir, n)));

    // Rewrite 001.jpg in place: same size, one byte of its comment changed, mtime set back.
    const file = join(dir, '001.jpg');
    const before = readFileSync(file);
    const at = before.indexOf(Buffer.from('image 1'));
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.from('X'), 0, 1, at);
    closeSync(fd);
    const { mtime } = await import('node:fs').then((fs) => fs.statSync(join(dir, '000.jpg')));
    utimesSync(file, mtime, mtime);
    const requests = sb.ledger().keys[KEYS.pro]!.requests;
    const again = await runCli(['locate', dir, '--json'], { env, now: later });
    expect(again.code, again.stderr).toBe(0);
    const lines = again.stdout.trim().split('\n').map((l) => JSON.parse(l) as { input: string; sha256: string });
    const changed = lines.find((l) => l.input.endsWith('001.jpg'))!;
    expect(changed.sha256).not.toBe(remembered[1]!.sha256);
    expect(sb.ledger().keys[KEYS.pro]!.requests).toBe(requests + 1); // only the changed image is sent
  });
});
