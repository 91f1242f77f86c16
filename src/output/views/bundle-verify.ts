/**
 * The human view of `geo cases verify case.zip`: what was checked, section by section (integrity,
 * signatures, timestamps, then simulated answers), and, when something fails, every failure by name. Names come from the
 * bundle (anyone's file): renderKv and sanitizeInline escape them.
 */
import type { BundleReport } from '../../evidence/bundle-verify.js';
import { wrapFor } from '../fit.js';
import { type KvInput, renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';
import { simulatedRow } from './case-show.js';
import { signatureRows, timestampRows, reviewRows } from './trust-rows.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function bundleVerifyView(r: BundleReport, view: ViewOpts): string {
  const s = view.style;
  const i = r.integrity;
  const title = `${sanitizeInline(r.file)}: ${r.ok ? s.green('verified') : s.red(s.bold(`FAILED (${plural(r.failures.length, 'problem')})`))}`;
  const rows: KvInput[] = [];
  if (r.case) rows.push(['case', `${r.case.id}  ${r.case.name}`]);
  rows.push(['integrity', i.ok ? i.caveat : { drawn: s.red(`FAILED: ${plural(i.failures.length, 'problem')} (below)`) }]);
  rows.push(['files', `${plural(i.files, 'member')} match their sha256 in the manifest`]);
  rows.push(['custody', i.custody ? `${plural(i.custody.entries, 'entry', 'entries')}, chain intact; head ${i.custody.head}` : 'not verified (see below)']);
  const seal = r.signatures.signed ? 'the log ends with bundle_sealed and the signatures over it' : 'the log ends with bundle_sealed';
  rows.push(['sealed', i.sealed ? `${seal}: every other member is the one it sealed, or made from the log` : 'no (see below)']);
  rows.push(['answers', `${i.answers} raw ${i.answers === 1 ? 'answer is' : 'answers are'} bound to ${i.answers === 1 ? 'its' : 'their'} record and own custody entries`]);
  rows.push(['originals', i.originals ? `${i.originals} match their input_hashed entries` : 'none in the bundle (their hashes are in the custody log)']);
  if (i.working) rows.push(['working', `${plural(i.working, 'working copy', 'working copies')} (annotated) made by ${i.working === 1 ? 'its' : 'their'} working_copy_made entries, from the originals they name`]);
  if (i.exhibits) rows.push(['exhibits', `${plural(i.exhibits, 'exhibit')} kept by note_made entries`]);
  rows.push(...signatureRows(r.signatures, view), ...timestampRows(r.timestamps, view), ...reviewRows(r.reviews, view));
  rows.push(simulatedRow(r.simulated, view));
  if (r.manifest_sha256) rows.push(['manifest', `sha256 ${r.manifest_sha256}`]);
  const lines = [title, renderKv(rows, view, '  ')];
  // Wrapped to the terminal like the rows above, each flag or command whole (fit.ts).
  if (r.failures.length) lines.push('', ...r.failures.flatMap((f) => wrapFor(view, sanitizeInline(f), '    ', '  ✗ ').map((l, n) => (n === 0 ? l.replace('✗', s.red('✗')) : l))));
  const hint = (text: string) => lines.push('', ...wrapFor(view, text, '  ', '  ').map((l) => s.dim(l)));
  if (i.ok && !r.signatures.signed) hint('Compare the custody head or the manifest sha256 with the one you were sent apart from the bundle: a bundle rewritten whole verifies too.');
  if (i.ok && r.signatures.signed && r.signatures.counting !== 'allowed-signers') {
    hint("Check whose keys signed: `--allowed-signers FILE`, a file of the keys you know, one allowed_signers line each (a signer's own `geo keys signing show` prints theirs); the bundle's own allowed_signers is the signers' word.");
  }
  return lines.join('\n');
}
