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

--truth FILE plays a model of known skill (for checking geo eval by hand): geo help sandbox.

Also:
  geo sandbox                                     # serves on http://127.0.0.1:4010 until Ctrl-C
  geo sandbox --faults 503:0.2,reset-after:0.05 --seed 7    # a reproducibly flaky service
  geo sandbox --rate-limit 20 --rate-window 3 --rate-algorithm bucket    # a token bucket

Faults (Sandbox-Fault header, or --faults kind:rate,... for geolocate requests):
  429, 500, 502, 503, 504, reset-before, reset-after, truncate, stall:<ms>
Docs: /api/v1/docs (HTML) · OpenAPI 3.1: /__sandbox/openapi.json · Ledger: /__sandbox/ledger (loopback only)
Test time-stamp authority (RFC 3161, sandbox time): /__sandbox/tsa · its CA: /__sandbox/tsa/ca.pem`;

export const register: Register = (program, act) => {
  program
    .command('sandbox')
    .description('run the local reference server: the whole API, no account')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '4010')
    .option('--latency <ms>', 'delay of every analysis in milliseconds', '0')
    .option('--rate-limit <n>', 'requests per window for every key (default per tier: free 5, starter 15, pro 30, enterprise 120)')
    .option('--rate-window <s>', 'rate-limit window in seconds', '60')
    .option('--rate-algorithm <name>', 'how the quota is counted: fixed, sliding or bucket', 'fixed')
    .option('--faults <list>', 'faults injected into geolocate requests, e.g. 500:0.1,reset-after:0.05')
    .option('--seed <n>', 'seed of the fault draws and of --truth errors (same seed, same answers)', '1')
    .option('--truth <file>', 'answer the images of this truth file from their true position, with a seeded error')
    .option('--truth-error <km>', 'error scale of --truth answers in km (depth 3; depth 2 twice it, depth 1 four times)', '25')
    .addHelpText('after', EXAMPLES)
    .action(act(async () => (await import('./run.js')).runSandbox));
};
