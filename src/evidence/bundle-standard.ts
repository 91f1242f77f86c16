/**
 * What lets anyone check a bundle with standard tools alone: the files made
 * from its custody log once it is sealed and signed, each a pure function of the log (and, for
 * SHA256SUMS, of the other members), so the writer (output/export/bundle.ts) and the verifier
 * (bundle-verify.ts) make the same bytes, and a verifier compares instead of trusting them:
 *   signatures/entry-<n>.msg   the line head_signed entry n signs (custody-sign.ts)
 *   signatures/entry-<n>.sig   its armored SSH signature, as the entry holds it
 *   signatures/review-<n>.msg, .sig   the line review_made entry n signs (review-sign.ts), and its signature
 *   allowed_signers            one line per key that signed or reviewed, under the principal its signer gave
 *   VERIFY.md                  the exact commands: sha256sum -c, python3 verify_chain.py,
 *                              ssh-keygen -Y verify per signature and review, openssl ts -verify per token
 *   SHA256SUMS                 `sha256  path` for every member but itself and manifest.json
 * Nothing a log carries reaches a command line unchecked: principals that are not plain
 * (letters, digits, . _ @ + = : -) are replaced by signer-<n>, heads must be 64 hex digits.
 */
import { PLAIN, signerIdentity } from './allowed-signers.js';
import { ALLOWED_SIGNERS_NAME, CHAIN_SCRIPT_NAME, LABELS, type MemberLabel, SIGNATURES_DIR, SUMS_NAME, TIMESTAMPS_DIR, VERIFY_NAME, unsafeMemberName } from './bundle-format.js';
import type { CustodyEntry } from './custody.js';
import { type SignedHead, custodyMessage } from './custody-sign.js';
import { type ReviewData, VERDICTS, type Verdict, reviewMessage } from './review-sign.js';
import type { StampedHead } from './custody-stamps.js';
import { isSandboxTsaUrl } from './tsa-sandbox.js';
import { CUSTODY_NAMESPACE } from './sshsig.js';
import { parsePublicKeyLine, publicKeyLine } from './ssh-key.js';
import { SshFormatError } from './ssh-wire.js';


const HEX64 = /^[0-9a-f]{64}$/;

interface Signed {
  n: number;
  /** The line its signature is over (custody-sign.ts's for a head, review-sign.ts's for a review). */
  message: Buffer;
  sshsig: string;
  principal: string;
  keyLine: string;
}

/**
 * The entries of `event` geo can name in files: well formed (an earlier seq, a head, a signature;
 * a review's verdict and words), their key an Ed25519 line.
 */
function signedEntries(entries: readonly CustodyEntry[], event: 'head_signed' | 'review_made' = 'head_signed'): Signed[] {
  const out: Signed[] = [];
  const caseId = entries[0]?.case ?? '';
  entries.forEach((e, i) => {
    if (e.event !== event) return;
    const d = (event === 'head_signed' ? e.data.signature : e.data.review) as (SignedHead & Partial<ReviewData>) | undefined;
    if (!d || !Number.isInteger(d.seq) || typeof d.head !== 'string' || !HEX64.test(d.head) || typeof d.sshsig !== 'string' || typeof d.public_key !== 'string') return;
    if (event === 'review_made' && (!VERDICTS.includes(d.verdict as Verdict) || typeof d.because !== 'string')) return;
    let keyLine: string;
    try {
      keyLine = publicKeyLine({ key: parsePublicKeyLine(d.public_key).key });
    } catch (err) {
      if (err instanceof SshFormatError) return;
      throw err;
    }
    const n = i + 1;
    const message = event === 'head_signed' ? custodyMessage(caseId, d.seq, d.head) : reviewMessage(caseId, d.seq, d.head, d.verdict!, d.because!);
    out.push({ n, message, sshsig: d.sshsig, keyLine, principal: signerIdentity(d.principal, n) });
  });
  return out;
}

export const signatureFile = (n: number, ext: 'msg' | 'sig') => `${SIGNATURES_DIR}entry-${n}.${ext}`;
/** A review's line and signature (review_made entry n), beside the head signatures. */
export const reviewFile = (n: number, ext: 'msg' | 'sig') => `${SIGNATURES_DIR}review-${n}.${ext}`;
export const stampFile = (n: number, ext: 'tsr' | 'pem') => `${TIMESTAMPS_DIR}entry-${n}.${ext}`;

/** The stamps a bundle can carry a token for: head_stamped entries naming a head. */
export function stampedEntries(entries: readonly CustodyEntry[]): Array<{ n: number; d: StampedHead }> {
  return entries.flatMap((e, i) => {
    const d = e.data.stamp as StampedHead | undefined;
    return e.event === 'head_stamped' && d && Number.isInteger(d.seq) && typeof d.head === 'string' && HEX64.test(d.head) ? [{ n: i + 1, d }] : [];
  });
}

/** Every member made from the log (but SHA256SUMS, which needs the others: sha256Sums). */
export function derivedMembers(entries: readonly CustodyEntry[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const signed = signedEntries(entries);
  const reviews = signedEntries(entries, 'review_made');
  const armored = (sig: string) => Buffer.from(sig.endsWith('\n') ? sig : `${sig}\n`, 'utf8');
  for (const s of signed) {
    out.set(signatureFile(s.n, 'msg'), s.message);
    out.set(signatureFile(s.n, 'sig'), armored(s.sshsig));
  }
  for (const r of reviews) {
    out.set(reviewFile(r.n, 'msg'), r.message);
    out.set(reviewFile(r.n, 'sig'), armored(r.sshsig));
  }
  if (signed.length || reviews.length) {
    const lines = [...new Set([...signed, ...reviews].map((s) => `${s.principal} namespaces="${CUSTODY_NAMESPACE}" ${s.keyLine}`))];
    out.set(ALLOWED_SIGNERS_NAME, Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
  }
  out.set(VERIFY_NAME, Buffer.from(verifyMd(entries, signed, 'current', reviews), 'utf8'));
  return out;
}

/**
 * The VERIFY.md an earlier geo wrote for the same log: its bundles are not tampered with for
 * carrying it, so a verifier accepts it beside the current one (bundle-derived.ts).
 */
export const earlierVerifyMd = (entries: readonly CustodyEntry[]): Buffer => Buffer.from(verifyMd(entries, signedEntries(entries), 'first'), 'utf8');

/** sha256sum's format (two spaces: text mode), sorted by path. */
export function sha256Sums(members: ReadonlyArray<{ path: string; sha256: string }>): Buffer {
  const rows = members.filter((m) => m.path !== SUMS_NAME).map((m) => `${m.sha256}  ${m.path}\n`).sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1));
  return Buffer.from(rows.join(''), 'utf8');
}

/**
 * What each image in the bundle is, as its seal labels them (absent for a bundle without labels:
 * its VERIFY.md is the one an earlier geo wrote). Paths and hashes are checked plain; an exhibit's
 * name and source are the analyst's words, quoted as JSON strings so none can break a line.
 */
function imagesSection(entries: readonly CustodyEntry[]): string[] {
  const seal = entries.findLast((e) => e.event === 'bundle_sealed')?.data.bundle as { labels?: MemberLabel[] } | undefined;
  const labels = (Array.isArray(seal?.labels) ? seal.labels : []).filter((l) => typeof l.path === 'string' && !unsafeMemberName(l.path) && /^[\w./-]+$/.test(l.path) && HEX64.test(String(l.sha256)));
  if (labels.length === 0) return [];
  const line = (l: MemberLabel) => {
    if (l.label === LABELS.working) return `- ${l.path}: ${LABELS.working}, made from the original with sha256 ${HEX64.test(String(l.of)) ? l.of : '(not given)'}; boxes of ${(l.clues ?? []).map((c) => JSON.stringify(c)).join(', ') || 'no clue'}`;
    if (l.label === LABELS.exhibit) return `- ${l.path}: ${LABELS.exhibit}, ${JSON.stringify(l.name ?? '')} from ${JSON.stringify(l.source ?? '')}`;
    return `- ${l.path}: ${LABELS.original}`;
  };
  return [
    '',
    '## 5. What the images are',
    '',
    `An ${LABELS.original} is a file as it was located, unchanged; a ${LABELS.working} is a copy geo made from`,
    'one, with the boxes of the clues named drawn on it, and is never evidence of what the photo shows; an',
    `${LABELS.exhibit} is a file an analyst kept with a note. Each copy's working_copy_made entry in custody.jsonl`,
    'names the original it was made from and how; `sha256sum -c SHA256SUMS` (step 1) checks every file.',
    '',
    ...labels.map(line),
  ];
}

const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * The fingerprint line: allowed_signers' fields are principal, namespaces="…", key type, key (all
 * plain: signedEntries), and ssh-keygen -l reads only a key line, so awk hands it the key with the
 * principal as its comment. `-f -` (stdin) writes no file into the extracted bundle.
 */
const FINGERPRINTS = `awk '{print $3, $4, $1}' ${ALLOWED_SIGNERS_NAME} | ssh-keygen -lf -`;

const sshVerify = (s: Signed, file: typeof signatureFile) => `ssh-keygen -Y verify -f ${ALLOWED_SIGNERS_NAME} -I ${s.principal} -n ${CUSTODY_NAMESPACE} -s ${file(s.n, 'sig')} < ${file(s.n, 'msg')}`;

function verifyMd(entries: readonly CustodyEntry[], signed: Signed[], form: 'current' | 'first' = 'current', reviews: Signed[] = []): string {
  const last = entries.at(-1);
  const caseId = entries[0]?.case ?? '';
  const plainCase = PLAIN.test(caseId) ? caseId : '(see custody.jsonl)';
  const stamps = stampedEntries(entries).filter((s) => Number.isFinite(epoch(s.d.gen_time)));
  const sh = (lines: string[]) => ['```sh', ...lines, '```'].join('\n');
  const parts = [
    '# Verifying this bundle with standard tools',
    '',
    `Case ${plainCase}: its custody log is custody.jsonl, ${entries.length} entries, head ${last && HEX64.test(last.hash) ? last.hash : '(none)'}.`,
    ...(form === 'first' ? [
      'Nothing here needs geo: sha256sum (GNU coreutils), Python 3 (its standard library), ssh-keygen',
      '(OpenSSH 8.2 or later) and openssl (1.1 or later). Extract the zip into an empty folder and run',
      'each command there, in order: each must exit 0. This file, SHA256SUMS, allowed_signers and',
      'signatures/ are made from custody.jsonl; `geo cases verify` makes them again and compares.',
    ] : [
      'Nothing here needs geo: unzip (or Python 3), sha256sum (GNU coreutils), Python 3 (its standard',
      'library), ssh-keygen (OpenSSH 8.2 or later) and openssl (1.1 or later). Extract the zip into an',
      'empty folder, with `unzip BUNDLE.zip -d FOLDER` or, where there is no unzip,',
      '`python3 -m zipfile -e BUNDLE.zip FOLDER`; then run each command below in that folder, in order,',
      'in sh or bash: each must exit 0. This file, SHA256SUMS, allowed_signers and signatures/ are made',
      'from custody.jsonl; `geo cases verify` makes them again and compares.',
    ]),
    '',
    '## 1. Every file is the one listed',
    '',
    sh(['sha256sum -c SHA256SUMS']),
    '',
    '## 2. The custody chain, recomputed',
    '',
    sh([`python3 ${CHAIN_SCRIPT_NAME}`]),
    '',
    `${CHAIN_SCRIPT_NAME} is short: read it first. It recomputes each entry's hash from its canonical JSON and`,
    'its link to the entry before, checks every file the bundle_sealed entry lists, that each signed or',
    'stamped head is the hash of the entry it names, and that no entry but a signature comes after the',
    'last signature. It prints the head: compare it with the one the sender gave you apart from the bundle.',
    '',
    '## 3. The signatures',
    '',
  ];
  if (signed.length === 0) {
    parts.push('The custody log is not signed: nothing in this bundle says who vouches for it.');
  } else {
    parts.push(
      'Each signature is over one line, signatures/entry-<n>.msg: `geo-custody/1 case=<id> seq=<k> head=<hash of',
      'entry k>`. allowed_signers lists each key that signed under the name its signer gave: it says who',
      ...(form === 'first' ? [
        'claims to have signed, not whom to trust. Compare the fingerprints (ssh-keygen -lf allowed_signers)',
        'with keys you know, or give your own allowed_signers file to -f instead.',
      ] : [
        'claims to have signed, not whom to trust. Print each key\'s fingerprint (SHA256:…, then the name)',
        'and compare it with the one the signer gave you apart from the bundle (`geo keys signing show`',
        'prints it on their side), or give your own allowed_signers file to -f instead:',
        '',
        sh([FINGERPRINTS]),
        '',
        'Then check each signature:',
      ]),
      '',
      sh(signed.map((s) => sshVerify(s, signatureFile))),
    );
  }
  if (reviews.length) {
    parts.push(
      '',
      'Each review (a colleague\'s approval of the conclusion, or request for changes) is signed over a line of',
      'its own, signatures/review-<n>.msg: `geo-custody-review/1 case=<id> seq=<k> head=<hash of entry k>',
      'verdict=<approve|request_changes> because=<sha256 of its words>`; verify_chain.py checks that line',
      'against review_made entry n. A later entry that changes the case makes a review stale (geo cases verify',
      'says which). Check each review\'s signature:',
      '',
      sh(reviews.map((r) => sshVerify(r, reviewFile))),
    );
  }
  parts.push('', '## 4. The timestamps', '');
  if (stamps.length === 0) {
    parts.push('No trusted timestamp (RFC 3161) is in this bundle.');
  } else {
    parts.push(
      'Each token says a time-stamp authority saw a head (the hash of an entry) by the token\'s time. It is',
      'checked at that time (-attime) against the CA certificate pinned when it was stamped, kept beside it:',
      'to trust the TSA, give your own copy of its CA certificate to -CAfile instead.',
      '',
      sh(stamps.map((s) => `openssl ts -verify -digest ${s.d.head} -in ${stampFile(s.n, 'tsr')} -CAfile ${stampFile(s.n, 'pem')} -attime ${epoch(s.d.gen_time)}`)),
    );
    // The log keeps the authority's URL, not its token's policy: geo sandbox's serves at this path.
    const sandbox = stamps.filter((s) => isSandboxTsaUrl(s.d.tsa)).map((s) => stampFile(s.n, 'tsr'));
    if (sandbox.length > 0) parts.push('', `Sandbox time, not evidence: ${sandbox.join(', ')} came from geo sandbox's test authority.`);
  }
  parts.push(...imagesSection(entries));
  parts.push(
    '',
    'What this proves: a signature, that its key vouched for the log up to that head; a timestamp, that',
    'the head existed by then. Neither says the location an answer gives is right.',
    '',
  );
  return parts.join('\n');
}
