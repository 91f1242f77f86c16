/**
 * A counting front for the sandbox: every HTTP request that reaches it is counted, then forwarded.
 * The sandbox ledger only sees authenticated geolocate calls; this sees everything (GET /credits,
 * unauthenticated probes, a request the CLI should never have made), so "nothing was sent" is
 * exactly `count() === 0`. One proxy per case, so cases can run concurrently and still be told apart.
 */
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  url: string;
  count(): number;
  close(): Promise<void>;
}

export async function countingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  let n = 0;
  const server: Server = createServer((req, res) => {
    n++;
    const out = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => n,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
