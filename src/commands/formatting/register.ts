/**
 * `geo help formatting`: one page on output for scripts (gh's `gh help formatting`): --json,
 * --json FIELDS, --jq, --format, NDJSON and what stays on stderr. `geo formatting` shows it too.
 */
import type { Register } from '../types.js';

const PAGE = `
Data goes to stdout, everything else (plan, progress, notes, warnings, errors) to stderr, so
\`geo … > file\` and \`geo … | next\` get data only. On a terminal you get tables and colour;
into a pipe, plain stable text; nothing of a spinner or a progress line ever reaches a pipe.

--json
  Every command that prints data prints JSON instead: the API body exactly as received (locate,
  credits, usage, analyses, cases, api, history show), or geo's own records (history, inspect,
  eval, keys, config). Many locate results are NDJSON: one line per input as it finishes. Same
  as --format json; \`geo config set format json\` makes it the default.

--json FIELDS
  Only these fields, separated by commas (gh's form): a list gives a list of objects, one
  record an object, a missing field null. The fields of a list body are its items' (analyses and
  cases: the items of data; credits and usage: the fields of data). An unknown field exits 2 and
  names the available ones; for geo locate, before anything is sent. The word after --json is
  taken as fields only when it looks like a list of names and is no file or folder (so
  \`geo locate --json photo.jpg\` still locates photo.jpg); \`--json=FIELDS\` is always fields.

--jq EXPR
  Filters the JSON with jq's language, in-process: no jq program needed (jq 1.7, built in). It
  implies --json, runs after --json FIELDS, and applies to each JSON document (each NDJSON
  line of a batch, as it arrives). Strings print raw (as jq -r), other values as JSON: indented
  on a terminal, one line each into a pipe. An expression jq cannot compile exits 2 with jq's
  message before anything is sent; one that fails on the data exits 2 after it. Each run is
  bounded: --jq-timeout SECONDS (default 5) per document, and about 512 MB of memory; past
  either it is stopped with one line, exit 2 (before anything is sent when it loops on null
  already). Ctrl-C stops it at once (exit 130).

--format table|json|ndjson (and csv, geojson, kml, kmz, html for locate and export)
  table is the human view; ndjson one record per line.

Exit codes are the same with every format (geo --help lists them).

Examples (--sandbox: an in-process sandbox with its pro key, no account needed):
  $ geo --sandbox credits --json balance,total_available      # two fields of data
  $ geo --sandbox credits --jq .data.total_available          # one number, no jq installed
  $ geo --sandbox analyses --json id,city                     # an array of {id, city}
  $ geo --sandbox locate sample:all --jq '.result.location.city'   # one city per input, as each finishes
  $ geo --sandbox api analyses --paginate --jq '.data | length'    # the API has no pages: one request, limit=200
  $ geo --sandbox credits --json nope                         # exit 2: names the available fields`;

export const register: Register = (program) => {
  const topic = program.command('formatting').description('help topic: --json, --json FIELDS, --jq and formats for scripts (geo help formatting)');
  topic.addHelpText('after', PAGE).action(() => topic.help());
};
