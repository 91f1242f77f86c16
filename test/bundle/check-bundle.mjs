// An independent check of an unpacked case bundle, as README "Verifying a bundle without geo"
// describes it: node:fs and node:crypto only, none of geo's code. Usage: node check-bundle.mjs DIR
// Prints one line per problem and "ok N files, N entries, head H"; exits 1 on any problem.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
// RFC 8785 for geo's values: keys sorted, no whitespace, JSON.stringify for strings and numbers.
const canonical = (v) =>
  Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v);

const problems = [];
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
// 1. The chain: each entry's hash over its canonical JSON, each prev the hash before it.
const lines = readFileSync(join(dir, manifest.custody.path), 'utf8').split('\n').filter((l) => l !== '');
let prev = '0'.repeat(64);
lines.forEach((line, i) => {
  const { hash, ...entry } = JSON.parse(line);
  if (entry.seq !== i + 1) problems.push(`entry ${i + 1}: seq ${entry.seq}`);
  if (entry.prev !== prev) problems.push(`entry ${i + 1}: prev does not match`);
  if (sha256(canonical(entry)) !== hash) problems.push(`entry ${i + 1}: hash does not match`);
  prev = hash;
});
if (lines.length !== manifest.custody.entries || prev !== manifest.custody.head) problems.push('custody: count or head differs from the manifest');
// 2. The seal (the last bundle_sealed entry; only signatures may follow it) lists every other member
// but those made from the log afterwards (signatures/, allowed_signers, VERIFY.md, SHA256SUMS):
// each file against it, and the manifest's list equal to it.
const entries = lines.map((l) => JSON.parse(l));
const sealAt = entries.map((e) => e.event).lastIndexOf('bundle_sealed');
const seal = entries[sealAt];
if (sealAt < 0 || entries.slice(sealAt + 1).some((e) => e.event !== 'head_signed')) problems.push('custody: the log does not end with bundle_sealed and the signatures over it');
const sealed = seal?.data.bundle.members ?? [];
for (const f of sealed) {
  const bytes = readFileSync(join(dir, f.path));
  if (sha256(bytes) !== f.sha256 || bytes.length !== f.size) problems.push(`${f.path}: not the member the seal lists`);
}
const derived = (p) => p.startsWith('signatures/') || ['allowed_signers', 'VERIFY.md', 'SHA256SUMS'].includes(p);
const listed = manifest.files.filter((f) => f.path !== manifest.custody.path && !derived(f.path)).map(({ path, sha256, size }) => ({ path, sha256, size }));
if (canonical(listed) !== canonical(sealed)) problems.push('manifest.json: its files are not the sealed members');
if (canonical(manifest.results) !== canonical(seal?.data.bundle.results)) problems.push('manifest.json: its results are not the sealed results');
// 3. Each result: its answer file, its record's raw text and its own result_linked entry agree.
const linked = entries.filter((e) => e.event === 'result_linked').map((e) => e.data.result);
for (const r of manifest.results) {
  const record = JSON.parse(readFileSync(join(dir, r.record), 'utf8'));
  if (sha256(readFileSync(join(dir, r.answer))) !== r.answer_sha256) problems.push(`${r.answer}: sha256 differs`);
  if (sha256(Buffer.from(record.response.raw, 'utf8')) !== r.answer_sha256) problems.push(`${r.record}: raw answer differs`);
  if (!linked.some((l) => l.answer_sha256 === r.answer_sha256 && l.input_sha256 === r.input_sha256)) problems.push(`${r.answer}: no result_linked entry binds it to its input`);
}
for (const p of problems) console.log(p);
console.log(problems.length ? `FAILED ${problems.length}` : `ok ${manifest.files.length} files, ${lines.length} entries, head ${prev}`);
process.exitCode = problems.length ? 1 : 0;
