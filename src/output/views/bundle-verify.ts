/**
 * The human view of `geo cases verify case.zip`: what was checked and, when something fails, every
 * failure by name. Names come from the bundle (anyone's file): renderKv and sanitizeInline escape them.
 */
import type { BundleReport } from '../../evidence/bundle-verify.js';
import { type KvInput, renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function bundleVerifyView(r: BundleReport, view: ViewOpts): string {
  const s = view.style;
  const title = `${sanitizeInline(r.file)}: ${r.ok ? s.green('verified') : s.red(s.bold(`FAILED (${plural(r.failures.length, 'problem')})`))}`;
  const rows: KvInput[] = [];
  if (r.case) rows.push(['case', `${r.case.id}  ${r.case.name}`]);
  rows.push(['files', `${plural(r.files, 'member')} match their sha256 in the manifest`]);
  rows.push(['custody', r.custody ? `${plural(r.custody.entries, 'entry', 'entries')}, chain intact; head ${r.custody.head}` : 'not verified (see below)']);
  rows.push(['answers', `${r.answers} raw ${r.answers === 1 ? 'answer matches its record' : 'answers match their records'} and the custody log`]);
  rows.push(['originals', r.originals ? `${r.originals} match their input_hashed entries` : 'none in the bundle (their hashes are in the custody log)']);
  if (r.manifest_sha256) rows.push(['manifest', `sha256 ${r.manifest_sha256}`]);
  const lines = [title, renderKv(rows, view, '  ')];
  if (r.failures.length) lines.push('', ...r.failures.map((f) => `  ${s.red('✗')} ${sanitizeInline(f)}`));
  if (r.ok) lines.push('', s.dim('  Compare the manifest sha256 with the one you were sent apart from the bundle: a bundle rewritten whole verifies too.'));
  return lines.join('\n');
}
