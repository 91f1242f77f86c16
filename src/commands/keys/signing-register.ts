/** `geo keys signing …`: flags only; the work is in signing.ts, on config/signing-*.ts and evidence/sshsig.ts. */
import type { Command } from 'commander';
import { type Act, OFFLINE } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

const VIEW_FIELDS = ['ref', 'source', 'fingerprint', 'publicKey', 'principal', 'signsIn', 'path', 'allowedSigners', 'active'];

const MODEL = `
geo signs a case's custody head with an Ed25519 key in the SSH signature format (SSHSIG,
namespace "geo-custody"), so anyone can check it with ssh-keygen alone, no geo needed:
  ssh-keygen -Y verify -f allowed_signers -I PRINCIPAL -n geo-custody -s head.sig < head
A signature proves that this key vouched for these bytes; it says nothing about whether the
location is right.

The key is one geo makes, or yours:
  geo keys signing create                 # a new key; private key in the OS keyring (else a 0600 file)
  geo keys signing use ~/.ssh/id_ed25519  # your OpenSSH key; with a passphrase, ssh-agent signs (ssh-add it)
  geo keys signing use agent:SHA256:…     # a key held by ssh-agent (ssh-add -l lists them)
The private key never appears in arguments, output, logs or the config file (which keeps the
public key and where the private key is), and is never sent anywhere.

The principal (the name in allowed_signers lines) is one per config: --principal on create or
use sets it; the default is USER@host.`;

const REF = 'NAME of a key geo made, PATH of an OpenSSH key file (or its .pub, the key in ssh-agent), or agent:SHA256:…';

export function registerSigning(keys: Command, act: Act): void {
  for (const verb of ['create', 'show', 'use', 'test']) declareJson(`keys signing ${verb}`, { names: verb === 'test' ? ['ok', 'ref', 'fingerprint', 'signsIn', 'principal'] : verb === 'create' ? [...VIEW_FIELDS, 'name', 'storedAt', 'notices'] : verb === 'use' ? [...VIEW_FIELDS, 'warning'] : VIEW_FIELDS });
  declareJson('keys signing list', { names: ['ref', 'fingerprint', 'source', 'active'] });
  const signing = keys
    .command('signing')
    .description('the Ed25519 key that signs case heads (SSH signatures that ssh-keygen -Y verify checks)')
    .addHelpText('after', `${MODEL}\n\nExamples:\n  $ geo keys signing create --insecure-storage   # --insecure-storage: the 0600 file, no keyring needed\n  $ geo keys signing show\n  $ geo keys signing show --json --jq .allowedSigners >> allowed_signers\n  $ geo keys signing test\n\nWith your own key:\n  geo keys signing use ~/.ssh/id_ed25519`);

  signing
    .command('create')
    .description('make a new Ed25519 signing key; the private key goes into the OS keyring, or the 0600 file where none answers')
    .option('--name <name>', 'its name (default "default"); a name in use is refused, never replaced')
    .option('--principal <who>', 'who signs, as allowed_signers names them (default USER@host), e.g. an email address')
    .option('--insecure-storage', 'keep the private key in a 0600 file in the config folder, not the OS keyring')
    .addHelpText(
      'after',
      `
The first key made becomes the default. The private key is an OpenSSH key (ssh-keygen reads it);
where it is kept follows the rules of API keys (geo keys --help): GEO_KEYRING=required refuses
the file (exit 3), and with CI set geo never touches the keyring.

Examples:
  $ geo keys signing create --insecure-storage --principal analyst@example.org

On your machine:
  geo keys signing create --principal you@example.org`,
    )
    .action(act(async () => (await import('./signing-handlers.js')).create, OFFLINE));

  signing
    .command('show [ref]')
    .description('the public key, its fingerprint (as ssh-keygen -lf prints it) and the allowed_signers line of the default key, or of REF')
    .addHelpText('after', `\nREF: ${REF}.\n\nExamples:\n  $ geo keys signing create --insecure-storage\n  $ geo keys signing show\n  $ geo keys signing show --json fingerprint,allowedSigners`)
    .action(act(async () => (await import('./signing-handlers.js')).show, OFFLINE));

  signing
    .command('use <ref>')
    .description('choose the key that signs by default (checked first: readable, Ed25519; a warning when only ssh-agent can sign with it and the agent does not hold it)')
    .option('--principal <who>', 'who signs, as allowed_signers names them (default USER@host)')
    .addHelpText('after', `\nREF: ${REF}.\nThe config keeps the reference, never the private key.\n\nExamples:\n  $ geo keys signing create --insecure-storage --name desk\n  $ geo keys signing use desk --principal analyst@example.org\n\nWith your own key:\n  geo keys signing use ~/.ssh/id_ed25519\n  geo keys signing use agent:SHA256:…    # a key that ssh-agent holds`)
    .action(act(async () => (await import('./signing-handlers.js')).use, OFFLINE));

  signing
    .command('list')
    .alias('ls')
    .description('the keys geo made (and yours when it is the default): fingerprint, where each is kept, the default (*)')
    .addHelpText('after', '\nExamples:\n  $ geo keys signing list\n  $ geo keys signing ls --json')
    .action(act(async () => (await import('./signing-handlers.js')).list, OFFLINE));

  signing
    .command('test [ref]')
    .description('sign a throwaway message with the default key (or REF) and check the signature: does signing work here?')
    .addHelpText('after', `\nREF: ${REF}.\n\nExamples:\n  $ geo keys signing create --insecure-storage\n  $ geo keys signing test`)
    .action(act(async () => (await import('./signing-handlers.js')).test, OFFLINE));
}
