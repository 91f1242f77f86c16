/**
 * The commander program before any command is registered: geo's global flags, where its output
 * goes, and the root help's examples. src/cli.ts registers the commands on it.
 */
import { Option } from 'commander';
import type { Runtime } from '../context.js';
import { UsageError } from '../errors.js';
import { GeoCommand, PIPED_HELP_WIDTH } from '../help/command.js';
import { JQ_DEFAULT_TIMEOUT_S } from '../output/jq-limits.js';
import { stderrColumns } from '../output/io.js';

function parseSeconds(v: string, flag: string, example: string): number {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0)) throw new UsageError(`${flag} must be a positive number of seconds, got "${v}"`, `for example ${example}`);
  return n;
}

const parseTimeout = (v: string) => parseSeconds(v, '--timeout', '--timeout 180');

/** The program with its global flags and help, before any command is registered. */
export function newProgram(rt: Pick<Runtime, 'io' | 'version'>): GeoCommand {
  const program = new GeoCommand('geo')
    .description('geo: from a photo to an evidence-backed location (Visual Geolocation API)')
    .version(rt.version, '-V, --version', 'print the version')
    .option('--json [fields]', 'JSON output; --json a,b: only those (geo help formatting)')
    .option('--jq <expr>', 'filter the JSON with jq\'s language, no jq needed')
    .addOption(new Option('--jq-timeout <s>', 'seconds --jq may run per document (then exit 2)').default(JQ_DEFAULT_TIMEOUT_S).argParser((v) => parseSeconds(v, '--jq-timeout', '--jq-timeout 30')))
    .option('--format <fmt>', 'table, json, ndjson; files: csv, geojson, kml, kmz, html')
    .option('--profile <name>', 'use this key profile (env GEO_PROFILE)')
    .option('--base-url <url>', 'API base URL (env GEO_BASE_URL; default https://oceanir.ai)')
    .option('--no-color', 'no colour (also NO_COLOR, TERM=dumb)')
    .option('-q, --quiet', 'only data and errors')
    .option('--debug', 'log HTTP to stderr, secrets redacted (env GEO_DEBUG)')
    .addOption(new Option('--timeout <s>', 'per-attempt timeout in seconds').default(180).argParser(parseTimeout))
    .option('--no-input', 'never prompt')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--sandbox', 'a sandbox for this command only, fresh each run (no account)')
    .option('--store <url>', "a team's postgres:// store, or local (env GEO_STORE_URL)")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => rt.io.stdout.write(s),
      writeErr: (s) => rt.io.stderr.write(s),
      outputError: () => {
        /* printed once by main() */
      },
      // Help fits the terminal it is printed on, and 80 columns into a pipe or a file.
      getOutHelpWidth: () => (rt.io.stdoutIsTTY ? rt.io.columns : PIPED_HELP_WIDTH),
      getErrHelpWidth: () => (rt.io.stderrIsTTY ? stderrColumns(rt.io) : PIPED_HELP_WIDTH),
    });
  program.addHelpText(
    'after',
    `
Examples (each runs as written; sample:NAME is a photo shipped with geo):
  $ geo --sandbox locate sample:paris --depth 3   # no account, no credits
  $ geo --sandbox locate sample:tokyo --json | jq .location
  $ geo inspect sample:sydney                     # offline: what the file says
  $ geo --sandbox credits --jq .data.total_available
  $ geo help locate                               # a command's flags, examples
  $ geo doctor                                    # what works, what does not

With your own key and photos:
  geo keys add work                   # store a key in the OS keyring
  geo locate photo.jpg --depth 3      # locate one image, forensic depth

Exit codes: geo help exit-codes. Environment variables: geo help environment.`,
  );
  return program;
}
