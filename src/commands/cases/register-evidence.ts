/**
 * `geo cases verify | bundle | sign | stamp`: a case's evidence checked (a bundle, or a local
 * case), packed into one file anyone can check, its head signed (SSH signatures) and stamped
 * (RFC 3161). The help of sign and stamp is in register-trust.ts.
 */
import { type Command, Option } from 'commander';
import { type Act, OFFLINE } from '../types.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { declareJson } from '../../output/json-fields.js';
import { registerTrust } from './register-trust.js';

export function registerEvidence(cases: Command, act: Act): void {
  declareJson('cases verify', { names: ['ok', 'file', 'case', 'integrity', 'signatures', 'timestamps', 'reviews', 'simulated', 'failures', 'manifest_sha256'] });
  declareJson('cases bundle', { names: ['file', 'case', 'sha256', 'size', 'manifest_sha256', 'results', 'originals', 'left_out', 'working', 'exhibits', 'copies_left_out', 'custody', 'signatures', 'timestamps'] });

  cases
    .command('verify')
    .summary('check a bundle or a local case, offline')
    .description('check a case bundle offline, or a local case: chain, answers, files, signatures')
    .argument('<case.zip|case>', 'a bundle written by geo cases bundle, or a local case (its id or name)')
    .option('--allow-sandbox', 'pass a case with sandbox answers as a test (never evidence)')
    .option('--allowed-signers <file>', 'the keys you trust (ssh-keygen\'s allowed_signers format)')
    .option('--tsa-ca <file>', 'the TSA CA certificate(s) you trust (PEM); default: tsa-ca')
    .addOption(new Option('--require-signature', 'fail (exit 1) unless a valid signature covers the whole log'))
    .addOption(new Option('--require-timestamp', 'fail (exit 1) unless at least one trusted timestamp holds'))
    .option('--require-reviews <n>', 'fail (exit 1) unless N current approvals by keys other than the conclusion\'s author (geo cases review)')
    .addHelpText(
      'after',
      `
Reported in sections (in --json too): integrity, signatures, timestamps, reviews and
simulated answers. A bundle needs only the file: no key, no config, no network; nothing is
extracted. What each check covers and what an intact chain cannot prove: docs/cases.md.

Exit 0: it verifies. Exit 1: something fails (every failure listed: integrity, a signature or
timestamp or review that does not hold, an entry past the last signature, --require-* unmet:
a review stale, by the conclusion's own key or not an approval is named), or it holds
simulated answers ("N simulated answers (sandbox): not evidence") and --allow-sandbox was not given.
Exit 2: the argument is not a bundle (absent, a folder, a FIFO, not a zip) or names no local
case. docs/cases.md documents the layout, so a bundle can be checked without geo.

Examples:
  $ geo cases verify missing.zip    # exit 2: no such file
  $ geo cases create --name Demo --local
  $ geo cases verify Demo
  $ geo cases verify Demo --json | jq .integrity
  geo cases verify case.zip
  geo cases verify case.zip --json | jq .failures
  geo cases verify case.zip --allowed-signers ~/.config/geo/allowed_signers --require-signature
  geo cases verify case.zip --tsa-ca freetsa-cacert.pem --require-timestamp
  geo cases verify Demo --require-reviews 1 --allowed-signers allowed_signers --require-signature
  geo cases verify test-case.zip --allow-sandbox    # made against geo sandbox: checked, marked simulated`,
    )
    .action(act(async () => (await import('./verify.js')).verify, OFFLINE));

  cases
    .command('bundle')
    .summary('one zip of a local case anyone can verify')
    .description('write a local case into one zip anyone can verify: manifest, custody log, raw answers, records, report, GeoJSON, KMZ')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .argument('<case.zip>', 'the file to write, 0600 (a link, a second name of a file, a FIFO or a folder is refused)')
    .option('--with-originals', 'add the original files as evidentiary copies (each checked against its sha256); without, only their hashes are in the log')
    .option('--file-mode <mode>', `the bundle: ${FILE_MODE_HELP}`)
    .addHelpText(
      'after',
      `
The case is bundled as its custody log vouches for it: one that does not verify is refused
(geo cases verify names why) and nothing is written. manifest.json lists every member with its
sha256 and size, and the custody log's entry count and head; custody.jsonl is the log, ending
with a bundle_sealed entry that lists every other member's sha256 (so the head commits to them);
answers/ the raw answers byte for byte; records/ the provenance records; report.html the case
as a person reads it (geo cases report); results.html, results.geojson and results.kmz the
results, the map files with the investigation drawn after them; timestamps/ each token with the
CA pinned for it; working/ the working copies (geo cases annotate) and exhibits/ the files its
notes keep, labelled apart from the originals ("working copy (annotated)", "original
(evidence)"). With a signing key chosen (geo keys signing use), the seal is signed before the
log goes in; a case that is signed already is bundled signed or not at all.

For whoever has no geo: VERIFY.md lists the exact commands (sha256sum -c SHA256SUMS, python3
verify_chain.py, ssh-keygen -Y verify per signature with allowed_signers and signatures/, openssl
ts -verify per token), with the files they need. After the zip is written, a bundle_made entry
(its sha256, the manifest's) is appended to the log here, and signed. Pass the head or the
manifest sha256 it prints on apart from the bundle: the recipient compares it.

Examples:
  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:paris sample:tokyo --case Demo > /dev/null
  $ geo cases bundle Demo demo.zip
  $ geo cases bundle Demo demo-full.zip --with-originals
  $ geo cases verify demo-full.zip --allow-sandbox   # sandbox answers: checked, marked simulated
  unzip demo-full.zip -d demo && cd demo && cat VERIFY.md    # the same checks without geo`,
    )
    .action(act(async () => (await import('./bundle.js')).bundle, OFFLINE));

  registerTrust(cases, act);
}
