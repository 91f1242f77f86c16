/**
 * A streamed image body reads its file through one FileHandle. When the server answers before
 * reading the body (auth, rate limit), undici stops iterating the body early; the file must still
 * be closed at once, not at some garbage collection with a warning on stderr.
 */
import { readdirSync, readlinkSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { loadImage } from '../../src/image/local-image.js';
import { fakeClock, makeClient } from './helpers.js';

const openFds = (path: string) => readdirSync('/proc/self/fd').filter((fd) => {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === path;
  } catch {
    return false;
  }
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('streamed image body: the file is closed when the attempt ends', () => {
  it.skipIf(process.platform !== 'linux')('a 401 sent before the 4 MB body was read leaves no file descriptor open', async () => {
    const server = createServer((_req, res) => {
      // Answer at once and never read the body, as a server checking the key first does.
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: 'Unauthorized', code: 'unauthorized', message: 'no', docs: 'x', type: 'x', title: 'x', status: 401, detail: 'no' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
    const path = join(mkdtempSync(join(tmpdir(), 'geo-body-')), 'big.jpg');
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4 * 1024 * 1024, 0x41)]));
    const image = await loadImage(path, Readable.from([]));

    const client = makeClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, fakeClock());
    const err = await client.geolocate({ depth: 1 }, { image: image.b64 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);

    // FileHandle.close() is asynchronous: give it a moment, well short of any garbage collection.
    for (let i = 0; i < 50 && openFds(path).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(openFds(path)).toEqual([]);
  });
});
