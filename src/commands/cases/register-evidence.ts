/** `geo cases verify | bundle`: a case's evidence checked (a bundle, or a local case) and packed into one file. */
import type { Command } from 'commander';
import type { Act } from '../types.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { declareJson } from '../../output/json-fields.js';

export function registerEvidence(cases: Command, act: Act): void {
  declareJson('cases verify', { names: ['ok', 'file', 'case', 'custody', 'files', 'answers', 'originals', 'failures', 'notes', 'manifest_sha256'] });
  declareJson('cases bundle', { names: ['file', 'case', 'sha256', 'size', 'manifest_sha256', 'results', 'originals', 'left_out', 'custody'] });

  cases
    .command('verify')
    .description('check a case bundle offline (every file\'s sha256, the custody chain, each raw answer), or a local case (its log, answers and files written)')
    .argument('<case.zip|case>', 'a bundle written by geo cases bundle, or a local case (its id or name)')
    .addHelpText(
      'after',
      `
A bundle (a file, or a name ending in .zip) needs no key, no config and no network: only the
file. Nothing is extracted or written. Checked, in order: member names (a ../ or absolute path
refuses the bundle), manifest.json, every member's sha256 and size against the manifest
(altered, removed or added members are named), the custody log's hash chain against the
manifest's entry count and head (the first broken entry is named), each raw answer against its
provenance record and an answer_received entry, each original against an input_hashed entry.

A local case: its custody log's chain, pinned to the count and head the store kept at the last
append (an entry altered, removed, swapped or cut off the end is named), each linked result's
raw answer against the log's answer_received and result_linked entries, and each report, export
or bundle the log says was written, against the sha256 it logged, when the file is still there
(a file gone is said, not failed).

Exit 0: it verifies. Exit 1: something fails (every failure listed). Exit 2: the argument is
not a bundle (absent, a folder, not a zip) or names no local case. The README's "Cases as
evidence" section documents the manifest, so a bundle can be checked without geo.

Examples:
  $ geo cases verify missing.zip    # exit 2: no such file
  $ geo cases create --name Demo --local
  $ geo cases verify Demo
  $ geo cases verify Demo --json | jq .custody
  geo cases verify case.zip
  geo cases verify case.zip --json | jq .failures`,
    )
    .action(act(async () => (await import('./verify.js')).verify));

  cases
    .command('bundle')
    .description('write a local case into one zip anyone can verify: manifest, custody log, raw answers, records, report, GeoJSON, KMZ')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .argument('<case.zip>', 'the file to write, 0600 (a link, a second name of a file, a FIFO or a folder is refused)')
    .option('--with-originals', 'add the original files as evidentiary copies (each checked against its sha256); without, only their hashes are in the log')
    .option('--file-mode <mode>', `the bundle: ${FILE_MODE_HELP}`)
    .addHelpText(
      'after',
      `
manifest.json lists every member with its sha256 and size, and the custody log's entry count
and head; custody.jsonl is the log; answers/ the raw answers byte for byte; records/ the
provenance records; report.html, results.geojson and results.kmz the case's results. After the
zip is written, a bundle_made entry (its sha256, the manifest's) is appended to the log here.
Pass the manifest sha256 it prints on apart from the bundle: the recipient compares it.

Examples:
  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:paris sample:tokyo --case Demo > /dev/null
  $ geo cases bundle Demo demo.zip
  $ geo cases bundle Demo demo-full.zip --with-originals
  $ geo cases verify demo-full.zip`,
    )
    .action(act(async () => (await import('./bundle.js')).bundle));
}
