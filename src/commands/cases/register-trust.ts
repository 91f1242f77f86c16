/** `geo cases sign | stamp | review`: a case's head signed with an SSH key, stamped by RFC 3161 authorities, and reviewed (register-review.ts). */
import type { Command } from 'commander';
import { type Act, OFFLINE } from '../types.js';
import { declareJson } from '../../output/json-fields.js';
import { registerReview } from './register-review.js';

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];

export function registerTrust(cases: Command, act: Act): void {
  declareJson('cases sign', { names: ['case', 'signature', 'newly'] });
  declareJson('cases stamp', { names: ['stamps'] });

  cases
    .command('sign')
    .summary('sign a local case\'s head with your SSH key')
    .description('sign a local case\'s custody head with your SSH key (SSHSIG, namespace geo-custody): the signature is appended to its log')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .option('--key <ref>', 'sign with this key instead of the chosen one: a name from geo keys signing list, a key file (~/.ssh/id_ed25519), or agent:SHA256:…')
    .addHelpText(
      'after',
      `
What is signed is one line, never the log: "geo-custody/1 case=<id> seq=<n> head=<hash of
entry n>\\n", with the case's last entry as n, so a signature lifted to another case or another
point of the log fails. The signature is appended as a head_signed entry (the key, its
fingerprint, the principal you sign as: geo keys signing show). ssh-keygen -Y verify checks it
without geo; a bundle carries the line, the signature and an allowed_signers file for that.

A signature proves that this key vouched for this head, and so for every entry before it; not
that the entries are true, nor that any location is right. Once a case is signed, an entry
after the last signature fails geo cases verify until it is signed too: with a key chosen (geo
keys signing use), locate --case, eval --case, cases link, cases stamp, export --case and cases
bundle sign as they append (a key that cannot sign then, an agent gone or a keyring locked, is
said on stderr and never costs the entries: sign them here later). Several analysts may sign one
case, each with their own key. The case must verify first; the entries the signature newly
covers are listed, so you see what you vouch for.

Exit 0: signed (or this key had signed this head already). Exit 1: the case does not verify.
Exit 2: no such case, or no key chosen and no --key. Exit 3: the key cannot sign (ssh-agent does
not hold it, the keyring is locked).

Examples:
  $ geo keys signing create --insecure-storage --principal you@example.org   # or: geo keys signing use ~/.ssh/id_ed25519
  $ geo cases create --name Demo --local
  $ geo cases sign Demo
  $ geo cases sign Demo --json | jq .signature.appended   # false: this key signed this head already
  $ geo keys signing show --json --jq .allowedSigners > allowed_signers
  $ geo cases verify Demo --allowed-signers allowed_signers --require-signature
  geo cases sign Demo --key ~/.ssh/id_ed25519`,
    )
    .action(act(async () => (await import('./sign.js')).sign, OFFLINE));

  cases
    .command('stamp')
    .summary('time-stamp a local case\'s head (RFC 3161)')
    .description('ask RFC 3161 time-stamp authorities for a token over a local case\'s custody head (queued when offline)')
    .argument('[case]', 'the case: its id (geo\'s or the service\'s) or its name (with --pending: only its requests)')
    .option('--tsa <url>', 'a time-stamp authority to ask (repeatable); default: geo config get tsa. None is contacted unless listed or named', collect)
    .option('--tsa-ca <file>', 'the CA certificate(s) (PEM) to trust the TSA under; default: the tsa-ca setting, else the root the TSA sends, pinned')
    .option('--pending', 'send the requests queued while a TSA could not be reached (all cases, or the one named)')
    .addHelpText(
      'after',
      `
The token is over the head as it is now: the SHA-256 that is the case's last entry's hash, as the
token's message imprint (openssl ts -verify -digest <head> checks it). Each request is recorded
before it is sent; a TSA that cannot be reached within 10 s (one try, never a loop) leaves it
queued, and geo cases stamp --pending sends it later. Nothing else in geo ever waits for a TSA.

A reply is kept only if it holds: its imprint is the head, its nonce the request's, its signature
valid, its signer a TSA (critical timeStamping), and its chain reaches the CA you trust for it
(--tsa-ca FILE, or geo config set tsa-ca FILE) with every certificate valid at the token's time;
with no CA of yours, the root the TSA sent is pinned. The token is kept byte for byte with that
CA, and a head_stamped entry (TSA, genTime, the token's sha256, the CA's sha256) is appended, then
signed when a signing key is chosen. A pinned CA proves the token is the one that TSA gave; that
you trust the TSA is yours to say: geo cases verify --tsa-ca FILE.

A timestamp proves the head, and every entry it chains, existed by the token's time, on that
TSA's word; not who wrote the entries, nor that any location is right. geo sends the TSA the
head's hash and a random nonce, nothing else.

Exit 0: stamped, already stamped, or queued (said on stderr). Exit 1: a TSA refused, or its reply
did not hold (each named: token for another head, signed by an untrusted TSA, TSA certificate
expired at genTime, bad signature, nonce mismatch). Exit 2: no such case, or no TSA configured
or named (none is contacted).

Examples:
  $ geo cases create --name Demo --local
  $ geo cases stamp Demo                     # exit 2: no TSA is configured or named
  geo config set tsa https://freetsa.org/tsr
  geo config set tsa-ca freetsa-cacert.pem
  geo cases stamp Demo
  geo cases stamp Demo --tsa https://freetsa.org/tsr --tsa https://timestamp.digicert.com
  geo cases stamp --pending                  # back online: send what was queued`,
    )
    .action(act(async () => (await import('./sign.js')).stamp));

  registerReview(cases, act);
}
