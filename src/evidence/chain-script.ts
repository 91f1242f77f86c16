/**
 * verify_chain.py, the script every bundle carries: the custody chain
 * recomputed with Python's standard library alone, so a recipient needs neither geo nor trust in
 * it. Canonical JSON as canonical-json.ts writes it: json.dumps(sort_keys=True,
 * separators=(',', ':'), ensure_ascii=False); numbers with a fraction or an exponent are kept as
 * the log wrote them (JavaScript's spelling: 1e-7, where Python would write 1e-07), through a
 * marker around their text that is taken out again after dumps. It also checks what ties the
 * chain to the rest of the bundle: the files the last bundle_sealed entry lists, each signed
 * message file (a head's, a review's), the head each head_signed, head_stamped and review_made
 * entry names, that no entry but a signature comes after the last signature, and that each line
 * is, byte for byte, the canonical JSON its hash was made from. Sealed in the bundle like any
 * member, and short, so it can be read before it is run.
 */
export const CHAIN_SCRIPT = `#!/usr/bin/env python3
"""Checks this bundle's custody log (geo.custody/1) with Python's standard library alone.
Run it in the folder the bundle was extracted into: python3 verify_chain.py"""
import hashlib, json, sys

MARK = '\\ufdd0'  # numbers are hashed as the log wrote them (as JavaScript writes numbers)
def canonical(value):
    text = json.dumps(value, sort_keys=True, separators=(',', ':'), ensure_ascii=False)
    return text.replace('"' + MARK, '').replace(MARK + '"', '').encode('utf-8', 'surrogatepass')
def sha256(data): return hashlib.sha256(data).hexdigest()
def fail(why): sys.exit('FAILED: ' + why)

with open('custody.jsonl', encoding='utf-8', newline='') as f:
    lines = f.read().split('\\n')  # as geo splits it: a \\r is part of its line, not an end
if lines[-1] == '': lines.pop()
log = [json.loads(line, parse_float=lambda s: MARK + s + MARK) for line in lines]
prev, signed = '0' * 64, 0
for n, e in enumerate(log, 1):
    what, d = f"entry {n} ({e['event']})", e['data']
    if e['seq'] != n or e['prev'] != prev or sha256(canonical({k: v for k, v in e.items() if k != 'hash'})) != e['hash']:
        fail(f'{what}: its seq, its link to the entry before or its hash does not hold')
    # A line that parses to the hashed entry but is not its canonical JSON (a key twice, other
    # spacing) reads as another entry to a reader that keeps the first of two keys.
    if canonical(e) != lines[n - 1].encode('utf-8', 'surrogatepass'):
        fail(f'{what}: its line is not the canonical JSON its hash was made from (a key twice, other spacing or key order)')
    prev = e['hash']
    if e['event'] in ('head_signed', 'head_stamped'):
        x = d['signature'] if e['event'] == 'head_signed' else d['stamp']
        if not 0 < x['seq'] < n or log[x['seq'] - 1]['hash'] != x['head']:
            fail(f"{what}: {x['head']} is not the hash of entry {x['seq']}")
    if e['event'] == 'head_signed':
        with open(f'signatures/entry-{n}.msg', encoding='utf-8') as f:
            if f.read() != f"geo-custody/1 case={e['case']} seq={x['seq']} head={x['head']}\\n":
                fail(f'signatures/entry-{n}.msg is not the message {what} signs')
        signed = max(signed, x['seq'])
    if e['event'] == 'review_made':
        x = d['review']
        if not 0 < x['seq'] < n or log[x['seq'] - 1]['hash'] != x['head']:
            fail(f"{what}: {x['head']} is not the hash of entry {x['seq']}")
        words = sha256(x['because'].encode('utf-8', 'surrogatepass'))
        with open(f'signatures/review-{n}.msg', encoding='utf-8') as f:
            if f.read() != f"geo-custody-review/1 case={e['case']} seq={x['seq']} head={x['head']} verdict={x['verdict']} because={words}\\n":
                fail(f'signatures/review-{n}.msg is not the message {what} signs')
seal = [e for e in log if e['event'] == 'bundle_sealed'][-1]['data']['bundle']
for m in seal['members']:
    with open(m['path'], 'rb') as f:
        if sha256(f.read()) != m['sha256']:
            fail(f"{m['path']}: not the file the bundle_sealed entry lists")
late = [e for e in log[signed:] if e['event'] != 'head_signed']
if signed and late:
    fail(f"entry {late[0]['seq']} ({late[0]['event']}) is past the last signature, which covers entries 1 to {signed}")
print(f"OK: {len(log)} entries, head {prev}; the {len(seal['members'])} files the seal lists match; "
      + (f'signed over entries 1 to {signed}: check each signature with ssh-keygen (VERIFY.md)' if signed else 'NOT SIGNED'))
`;
