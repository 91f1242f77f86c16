/**
 * `geo sandbox`: flags only (DESIGN.md "Sandbox surface"); the work is in run.ts, loaded on use.
 */
import type { Register } from '../types.js';

const EXAMPLES = `
Examples (in bash, as written: a sandbox on a free port in the background, then requests):
  $ geo sandbox --port 0 --latency 200 > sandbox.txt &      # 0.2 s per analysis
  $ sleep 2; url=$(head -1 sandbox.txt); echo "$url"        # its base URL; the keys follow
  $ curl -s "$url/api/v1/credits" -H 'x-api-key: orca_sandbox_pro'
  $ curl -si "$url/api/v1/credits" -H 'x-api-key: orca_sandbox_pro' -H 'Sandbox-Fault: 503'
  $ GEO_API_KEY=orca_sandbox_pro geo --base-url "$url" locate sample:paris --depth 2
  $ curl -s "$url/__sandbox/ledger"                         # debits, refunds, idempotency keys
  $ kill %1

A model of known skill (for checking geo eval by hand): with --truth FILE, an image of the file,
recognised by its pixels (its bytes without metadata, so removal before upload does not matter),
is answered from its true position moved by a seeded error. For seed S and the image's pixel key K,
u1 and u2 are the first two 32-bit words of sha256("S:K") over 2^32; at depth d:
  error_km = E x (4, 2, 1 at depth 1, 2, 3) x -ln(1 - u1)     E = --truth-error, default 25
  bearing = 360 x u2 degrees; confidence = exp(-error_km / (2 E)), within 0.05-0.95, 2 decimals
Other images: EXIF GPS when it is sent (geo removes it unless --keep-metadata), else synthetic.

Also: geo sandbox (serves on http://127.0.0.1:4010 until Ctrl-C);
      geo sandbox --faults 503:0.2,reset-after:0.05 --seed 7 (a reproducibly flaky service);
      geo sandbox --rate-limit 20 --rate-window 3 --rate-algorithm bucket (a token bucket).

Faults (Sandbox-Fault header, or --faults kind:rate,... for geolocate requests):
  429, 500, 502, 503, 504, reset-before, reset-after, truncate, stall:<ms>
Docs: /api/v1/docs (HTML) · OpenAPI 3.1: /__sandbox/openapi.json · Ledger: /__sandbox/ledger (loopback only)`;

export const register: Register = (program, act) => {
  program
    .command('sandbox')
    .description('run the local reference server: the whole API, seeded keys, no account, no credits spent')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '4010')
    .option('--latency <ms>', 'delay of every analysis in milliseconds', '0')
    .option('--rate-limit <n>', 'requests per window for every key (default per tier: free 5, starter 15, pro 30, enterprise 120)')
    .option('--rate-window <s>', 'rate-limit window in seconds', '60')
    .option('--rate-algorithm <name>', 'how the quota is counted: fixed (windows), sliding (a log of the last window), bucket (tokens refilled at limit/window per second)', 'fixed')
    .option('--faults <list>', 'faults injected into geolocate requests, e.g. 500:0.1,reset-after:0.05')
    .option('--seed <n>', 'seed of the fault draws and of --truth errors (same seed, same answers)', '1')
    .option('--truth <file>', 'play a model of known skill: images of this truth file (CSV file,lat,lng or GeoJSON points with a file property), recognised by their pixels, are answered from their true position with a seeded error')
    .option('--truth-error <km>', 'error scale of --truth answers in km (depth 3; depth 2 twice it, depth 1 four times)', '25')
    .addHelpText('after', EXAMPLES)
    .action(act(async () => (await import('./run.js')).runSandbox));
};
