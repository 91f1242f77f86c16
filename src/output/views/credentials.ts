/**
 * A C2PA manifest in words, as `geo inspect` and `geo cases work` say it: who signed it, with
 * what, when, and whether it holds. The strings are the file's own: the caller escapes them
 * (sanitizeInline) before they reach a terminal.
 */
import type { C2paManifest, C2paRecord } from '../../image/embedded.js';

/** "valid (signer on no trust list: signingCredential.untrusted)", "invalid (assertion.dataHash.mismatch)". */
function validationText(m: C2paManifest): string {
  const v = m.validation;
  const codes = v.failures.map((f) => f.code).join(', ');
  if (v.state === 'trusted') return 'valid, signer trusted';
  if (v.state === 'valid') return codes ? `valid (signer on no trust list: ${codes})` : 'valid';
  if (v.state === 'invalid') return `invalid (${v.failures.filter((f) => f.code !== 'signingCredential.untrusted').map((f) => f.code).join(', ') || codes || 'no reason given'})`;
  return `not checked (${v.reason ?? 'unknown reason'})`;
}

/** The one sentence: who signed, with what, when, and whether it holds. */
export function credentialsText(m: C2paManifest): string {
  const who = m.signer ? `signed by ${m.signer.name}` : 'signed by an unnamed signer';
  const what = m.claim_generator ? ` with ${m.claim_generator}` : '';
  const when = m.signed_at ? ` at ${m.signed_at}` : ' (no trusted time-stamp)';
  return m.validation.state === 'unchecked' ? `present in ${m.container}, ${validationText(m)}` : `${who}${what}${when}, ${validationText(m)}`;
}

/** What a file's credentials say, or that it has none. */
export const c2paLine = (c: C2paRecord): string => (c.present ? `Content credentials: ${credentialsText(c)}` : 'none (no content credentials in the file)');
