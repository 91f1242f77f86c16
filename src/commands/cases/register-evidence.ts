/**
 * `geo cases verify | bundle | sign | stamp`: a case's evidence checked (a bundle, or a local
 * case), packed into one file anyone can check, its head signed (SSH signatures) and stamped
 * (RFC 3161). The help of sign and stamp is in register-trust.ts.
 */
import { type Command, Option } from 'commander';
import type { Act } from '../types.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { declareJson } from '../../output/json-fields.js';
import { registerTrust } from './register-trust.js';

export function registerEvidence(cases: Command, act: Act): void {
  declareJson('cases verify', { names: ['ok', 'file', 'case', 'integrity', 'signatures', 'timestamps', 'simulated', 'failures', 'manifest_sha256'] });
  declareJson('cases bundle', { names: ['file', 'case', 'sha256', 'size', 'manifest_sha256', 'results', 'originals', 'left_out', 'custody', 'signatures', 'timestamps'] });

  cases
    .command('verify')
    .description('check a case bundle offline (every member against the custody log that seals it, each raw answer bound to its own entries), or a local case (its log, every value the store keeps for it, the files written)')
    .argument('<case.zip|case>', 'a bundle written by geo cases bundle, or a local case (its id or name)')
    .option('--allow-sandbox', 'check a case or bundle holding simulated answers (a sandbox\'s) as a test case, instead of failing it: they are never evidence')
    .option('--allowed-signers <file>', 'an allowed_signers file of the keys you trust (ssh-keygen\'s format): only their signatures count, under its principals')
    .option('--tsa-ca <file>', 'the CA certificate(s) (PEM) you trust for time-stamp authorities; default: the tsa-ca setting, else the CA pinned when each token was stamped')
    .addOption(new Option('--require-signature', 'fail (exit 1) unless a valid signature (with --allowed-signers: by one of its keys) covers the whole log'))
    .addOption(new Option('--require-timestamp', 'fail (exit 1) unless at least one trusted timestamp holds'))
    .addHelpText(
      'after',
      `
Reported in sections, in --json too: integrity (what the custody log binds), signatures (each
head_signed entry: valid or not, which key, whose: "in your allowed_signers", "listed in the
bundle's allowed_signers" (the signer's own word), or "valid signature by an unlisted key"),
timestamps (each head_stamped entry's token: which authority, when, under your --tsa-ca or the
CA pinned at stamp time) and simulated answers (a sandbox's).

Once a log carries a signature, every entry after the last valid one fails, named ("entry 9
(result_linked) is past the last valid signature (entry 8, over entry 7): appended by someone
without the key, or the log was rewritten"): so do an entry added without the key, a cut back
past a signature, a rewrite with the head re-pinned, a reordering. A signature that does not
hold is named with why; so is a token for another head, one signed by an untrusted TSA, one
whose TSA certificate had expired at its time, one replaced.

A bundle (a file, or a name ending in .zip) needs no key, no config and no network: only the
file. Nothing is extracted or written. Checked, in order: the archive (bytes no member of the
central directory covers, such as a hidden local header, a local header that disagrees with the
directory, a name twice, a symbolic link or special member, a ../ or absolute path: each refuses
the bundle, naming the member), manifest.json, every member's sha256 and size against it, the
custody log's hash chain against the manifest's entry count and head (the first broken entry is
named), the log's last entry, bundle_sealed, against every other member and the manifest (a
member changed, added, dropped or swapped, or the manifest rewritten, is named), each raw answer
against its record and its own result_linked and answer_received entries (every result the log
linked must be there), each original against an input_hashed entry. A bundle whose log does not
end with bundle_sealed (made by an earlier geo) fails: nothing binds its members.

A local case: its custody log's chain, pinned to the count and head the store kept at the last
append (an entry altered, removed, swapped or cut off the end is named); each linked result
against its own result_linked entry (input sha256 <-> answer sha256) and that answer's
answer_received entry (service, sandbox flag), and everything the store keeps for it (raw answer,
body, city/latitude/... columns, the record's input path and sha256, the sandbox flag) against
them; the case's name and description against case_created; each report, export or bundle the
log says was written, against the sha256 it logged, when the file is still there (a file gone is
said, not failed; a FIFO, device or link put in its place is refused at once, never read).

An intact chain alone is not a signature: unsigned, whoever holds the database (or made the
bundle) could rebuild the log whole and re-pin it, and the report says so (geo cases sign binds
it). Signed, what stays unprovable is that signatures were not stripped with everything after
them: --require-signature (or a head sent apart) catches that.

Exit 0: it verifies. Exit 1: something fails (every failure listed: integrity, a signature or
timestamp that does not hold, an entry past the last signature, --require-* unmet), or it holds
simulated answers ("N simulated answers (sandbox): not evidence") and --allow-sandbox was not given.
Exit 2: the argument is not a bundle (absent, a folder, a FIFO, not a zip) or names no local
case. The README's "Cases as evidence" section documents the layout, so a bundle can be checked
without geo.

Examples:
  $ geo cases verify missing.zip    # exit 2: no such file
  $ geo cases create --name Demo --local
  $ geo cases verify Demo
  $ geo cases verify Demo --json | jq .integrity
  geo cases verify case.zip
  geo cases verify case.zip --json | jq .failures
  geo cases verify case.zip --allowed-signers ~/.config/geo/allowed_signers --require-signature
  geo cases verify case.zip --tsa-ca freetsa-cacert.pem --require-timestamp
  geo cases verify test-case.zip --allow-sandbox    # made against geo sandbox: checked, marked simulated`,
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
The case is bundled as its custody log vouches for it: one that does not verify is refused
(geo cases verify names why) and nothing is written. manifest.json lists every member with its
sha256 and size, and the custody log's entry count and head; custody.jsonl is the log, ending
with a bundle_sealed entry that lists every other member's sha256 (so the head commits to them);
answers/ the raw answers byte for byte; records/ the provenance records; report.html,
results.geojson and results.kmz the case's results; timestamps/ each token with the CA pinned
for it. With a signing key chosen (geo keys signing use), the seal is signed before the log goes
in; a case that is signed already is bundled signed or not at all.

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
    .action(act(async () => (await import('./bundle.js')).bundle));

  registerTrust(cases, act);
}
