/**
 * What `geo cases verify` holds a copy_linked entry to (copy-events.ts), from the log alone: its
 * hashes are hashes, its distance is the one between the two perceptual hashes it names (so it
 * cannot claim a copy that is not one), and it comes after what it speaks of. A reused answer must
 * be in the case before it (the earlier result's result_linked, with that answer's sha256 and the
 * earlier image's); a paid copy's own result must be linked before it. An input_hashed entry of
 * the copy that carries a perceptual hash must carry the same one.
 */
import { HEX64 } from './bundle-format.js';
import type { CopyLinked } from './copy-events.js';
import type { CustodyEntry } from './custody.js';
import { hamming } from '../image/pdq.js';


type Linked = { input_sha256?: string; answer_sha256?: string };

/** Why this copy_linked entry's data is not a well-formed one, or undefined. */
function shapeProblem(c: Partial<CopyLinked['copy']> | undefined): string | undefined {
  if (typeof c !== 'object' || c === null) return 'it holds no copy';
  const hexes: Array<[string, unknown]> = [
    ['the copy\'s sha256', c.input?.sha256], ['the copy\'s perceptual hash', c.input?.pdq], ['the earlier image\'s sha256', c.of?.sha256],
    ['the earlier image\'s perceptual hash', c.of?.pdq], ['the earlier answer\'s sha256', c.of?.answer_sha256],
  ];
  for (const [what, v] of hexes) if (typeof v !== 'string' || !HEX64.test(v)) return `${what} is not 64 hex digits`;
  if (c.answer !== 'reused' && c.answer !== 'paid') return `its answer is ${JSON.stringify(c.answer ?? null)}, not reused or paid`;
  if (!Number.isInteger(c.distance)) return 'its distance is not a whole number';
  return undefined;
}

/** One line per copy_linked entry that does not hold, naming the entry. */
export function copyLinkFailures(entries: ReadonlyArray<{ n: number; e: CustodyEntry }>): string[] {
  const failures: string[] = [];
  for (const { n, e } of entries) {
    if (e.event !== 'copy_linked') continue;
    const at = `entry ${n} (copy_linked)`;
    const c = (e.data as Partial<CopyLinked>).copy;
    const bad = shapeProblem(c);
    if (bad || !c) {
      failures.push(`${at}: ${bad}`);
      continue;
    }
    const apart = hamming(c.input.pdq, c.of.pdq);
    if (apart !== c.distance) failures.push(`${at}: says the images are ${c.distance} bits apart, but their perceptual hashes are ${apart} apart`);
    const before = entries.filter((x) => x.n < n);
    const links = before.filter((x) => x.e.event === 'result_linked').map((x) => (x.e.data.result ?? {}) as Linked);
    if (c.answer === 'reused' && !links.some((l) => l.answer_sha256 === c.of.answer_sha256 && l.input_sha256 === c.of.sha256)) {
      failures.push(`${at}: the answer it says was reused (sha256 ${c.of.answer_sha256.slice(0, 16)}…) is linked to the case by no result_linked entry before it`);
    }
    if (c.answer === 'paid' && !links.some((l) => l.input_sha256 === c.input.sha256)) {
      failures.push(`${at}: the copy it says was paid for (sha256 ${c.input.sha256.slice(0, 16)}…) has no result linked to the case before it`);
    }
    const hashed = before.filter((x) => x.e.event === 'input_hashed' && (x.e.data.input as { sha256?: string } | undefined)?.sha256 === c.input.sha256);
    const other = hashed.find((x) => typeof (x.e.data.pdq as { hash?: unknown } | undefined)?.hash === 'string' && (x.e.data.pdq as { hash: string }).hash !== c.input.pdq);
    if (other) failures.push(`${at}: the copy's perceptual hash is not the one entry ${other.n} (input_hashed) logged for it`);
  }
  return failures;
}
