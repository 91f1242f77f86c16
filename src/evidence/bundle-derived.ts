/**
 * A bundle's members that are checked against its log rather than its seal: those made
 * from the log after the seal (signatures/, allowed_signers, VERIFY.md, SHA256SUMS), made again
 * here with bundle-standard.ts and compared byte for byte, and the tokens of its head_stamped
 * entries (timestamps/entry-<n>.tsr, .pem) read for custody-stamps.ts to check.
 */
import { MANIFEST_NAME, SUMS_NAME, VERIFY_NAME, isDerivedMember } from './bundle-format.js';
import { derivedMembers, earlierVerifyMd, sha256Sums, stampFile } from './bundle-standard.js';
import type { CustodyEntry } from './custody.js';
import type { KeptToken } from './custody-stamps.js';
import type { MemberDigest, ZipMember } from './zip-read.js';

/**
 * The members made from the log (bundle-standard.ts) against what the log makes of them, byte for
 * byte: an edited VERIFY.md, a swapped signature file or allowed_signers, an added one, each named.
 */
export async function checkDerived(entries: CustodyEntry[], names: readonly string[], digest: (p: string) => Promise<MemberDigest | undefined>, named: Set<string>, fail: (l: string) => void): Promise<void> {
  const expected = derivedMembers(entries);
  const others: Array<{ path: string; sha256: string }> = [];
  for (const n of names) {
    if (n === MANIFEST_NAME || n === SUMS_NAME || (n.endsWith('/') && !expected.has(n))) continue;
    const d = await digest(n);
    if (d) others.push({ path: n, sha256: d.sha256 });
  }
  expected.set(SUMS_NAME, sha256Sums(others));
  const say = (p: string, why: string) => {
    if (!named.has(p)) fail(`${p}: ${why}`);
    named.add(p);
  };
  for (const [p, bytes] of expected) {
    if (!names.includes(p)) say(p, 'absent: every bundle geo makes has it (one from an earlier geo, or it was removed)');
    else {
      const d = await digest(p);
      if (d && !d.bytes?.equals(bytes) && !(p === VERIFY_NAME && d.bytes?.equals(earlierVerifyMd(entries)))) say(p, `not what the custody log makes of it: edited after the bundle was made${p === SUMS_NAME ? ' (or a member it lists changed)' : ''}`);
    }
  }
  for (const p of names) if (isDerivedMember(p) && !expected.has(p)) say(p, 'not made from the custody log (no head_signed or review_made entry names it): added after the bundle was made');
}

/** Each head_stamped entry's token and pinned CA, as the bundle carries them (timestamps/entry-<n>.tsr, .pem). */
export async function bundledTokens(entries: CustodyEntry[], byName: Map<string, ZipMember>, digest: (p: string) => Promise<MemberDigest | undefined>): Promise<(n: number) => KeptToken | undefined> {
  const kept = new Map<number, KeptToken>();
  for (let n = 1; n <= entries.length; n++) {
    if (entries[n - 1]!.event !== 'head_stamped' || !byName.has(stampFile(n, 'tsr')) || !byName.has(stampFile(n, 'pem'))) continue;
    const tsr = (await digest(stampFile(n, 'tsr')))?.bytes;
    const pem = (await digest(stampFile(n, 'pem')))?.bytes;
    if (tsr && pem) kept.set(n, { reply: tsr, caPem: pem.toString('utf8') });
  }
  return (n) => kept.get(n);
}
