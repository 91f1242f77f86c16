/** `geo cases report`: a local case as a report a person reads (HTML that prints to PDF, Markdown, JSON). */
import type { Command } from 'commander';
import { type Act, OFFLINE } from '../types.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { declareJson } from '../../output/json-fields.js';

export function registerReport(cases: Command, act: Act): void {
  declareJson('cases report', { names: ['report', 'case', 'simulated', 'sources', 'method', 'notes', 'working_copies', 'clues', 'ruled_out', 'conclusion', 'superseded', 'reviews', 'custody'] });

  cases
    .command('report')
    .summary('the case as a report a person reads')
    .description('a local case as a report a person reads: question, sources, method, observations, clues judged, places ruled out, the conclusion on a map, reviews, custody')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .option('--out <file>', 'write it to this file (.html or .md picks the format); - or none: stdout')
    .option('--file-mode <mode>', `--out: ${FILE_MODE_HELP}`)
    .addHelpText(
      'after',
      `
Formats (--format, else the extension of --out; Markdown on stdout when neither says): html,
one self-contained page (images embedded, the map drawn as SVG: nothing loads, no script, it
prints to PDF with a page per section); md, the same sections as Markdown; json (--json), the data
both are drawn from. Sections: the question, the sources (each input's path, sha256, size and what
its metadata and C2PA said, each answer's sha256, service and time), the method (depths, service,
the local EXIF, sun and C2PA checks), observations and hypotheses (with their exhibits, and each
working copy beside its original: "original (evidence)", "working copy (annotated)"), the clues
accepted and rejected, the places ruled out, the conclusion (place, radius, confidence, grounds,
what it superseded) on a map with its uncertainty circle and the areas ruled out hatched, the
reviews (current or stale), and the custody log with the commands that verify it.

Read from the custody log and the raw answers it hashes, as geo cases show reads them: a case
that does not verify gets no report (exit 1; geo cases verify says why). The file is logged in the
case's custody (file_written, kind report, its sha256), and signed when a signing key is chosen.
A case on a sandbox's answers says "simulated (sandbox): not evidence" in every section.

Examples (the sandbox's answers are simulated; yours report the same way):
  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:paris --depth 3 --case Demo > /dev/null
  $ geo cases report Demo --out demo.html           # open it, or print it to PDF
  $ geo cases report Demo                           # Markdown on stdout
  $ geo cases report Demo --out demo.md
  $ geo cases report Demo --json --jq .conclusion
  $ geo cases report Nobody --out x.html            # exit 2: no such case, nothing written`,
    )
    .action(act(async () => (await import('./report.js')).report, OFFLINE));
}
