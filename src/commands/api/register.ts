/** `geo api <path>`: a raw request to the configured service, modelled on `gh api`. */
import { Option } from 'commander';
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

const collect = (v: string, acc: string[] = []) => [...acc, v];

/**
 * --input is stored as `inputFile`: the global --no-input is stored as `input`, and a command's
 * options merged with the globals (optsWithGlobals) would lose the file name to it.
 */
function inputOption(): Option {
  const o = new Option('--input <file>', 'the request body, raw: a file, or - for stdin (fields then go to the query string)');
  o.attributeName = () => 'inputFile';
  return o;
}

export const register: Register = (program, act) => {
  // Any body: its top-level fields (or each element's, for an array).
  declareJson('api', { names: [], open: true });
  program
    .command('api')
    .description('a raw request to the configured service (like gh api)')
    .argument('<path>', '/api/v1/credits, api/v1/credits, or short: credits')
    .option('-X, --method <method>', 'HTTP method (default GET; POST with fields or --input)')
    .option('-f, --raw-field <key=value>', 'a string field; repeatable; keys nest: scope[name]=Paris', collect)
    .option('-F, --field <key=value>', 'a typed field: true, false, null, numbers, @file (its text), @- (stdin); repeatable', collect)
    .option('-H, --header <name: value>', 'a request header; repeatable (the key is always the profile\'s)', collect)
    .addOption(inputOption())
    .option('-i, --include', 'print the status line and response headers before the body')
    .option('--silent', 'print no body')
    .option('--paginate', 'lists: every item (one request, limit=200)')
    .addHelpText(
      'after',
      `
The key, base URL and --timeout are the profile's, as for every command; the key goes only to the
base URL's origin (an absolute URL to another host is refused, exit 2) and -H cannot carry one.
Reads (GET) retry like other commands. A POST to /api/v1/geolocate gets an Idempotency-Key (or
keeps the one given with -H), which every retry reuses, so it is never paid twice; its cost and key
are printed on stderr. Other POSTs are resent only when nothing reached the server, or on 429.
A geolocate POST goes through the same store as geo locate: an image with the same fields already
answered (by any command, or another geo process at the same time) is printed from the store, not
paid again; a new answer is stored (geo history lists it). Its credits are held against the
store's budget first (geo store budget set): with no room, nothing is sent (exit 4).

The body is printed as received: raw into a pipe, escaped on a terminal, never reformatted.
The exit code follows the status: 0 for 2xx, 2 for other 4xx, 3 for 401/403, 4 for 402,
5 for 429, 6 for 5xx; an error body is printed all the same.

Examples (--sandbox: the sandbox's pro key, no account needed):
  $ geo --sandbox api /api/v1/credits
  $ geo --sandbox api credits --silent                        # exit code only
  $ geo --sandbox api -i api/v1/usage                         # status line and headers first
  $ geo --sandbox api cases -f name="Harbour fire" -f description="Port footage"
  $ geo --sandbox api analyses -X GET -F limit=5              # fields become the query string
  $ geo --sandbox api /api/v1/credits | jq .data.total_available
  $ geo --sandbox api /api/v1/nope                            # a 404: its body, then exit 2
  $ geo --sandbox api https://example.com/api/v1/credits      # refused, nothing sent: exit 2`,
    )
    .action(act(async () => (await import('./handler.js')).api));
};
