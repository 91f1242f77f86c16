/**
 * The copy links of stored results as history shows them (store/copy-links.ts): a row that is a
 * copy of an earlier result names it (its input and sha256, the distance, whether its answer was
 * that result's, reused); `geo history show` says a result's link and its copies. One query for
 * the links of a page, one for the inputs they name.
 */
import type { CopyLink, StoreApi } from '../../store/index.js';
import type { CopyMark } from '../../output/views/history.js';

/** The results these links name, by id: their inputs and sha256s. */
async function inputsOf(store: StoreApi, ids: readonly number[]): Promise<Map<number, { input: string; sha256: string }>> {
  const rows = await store.resultsByIds([...new Set(ids)]);
  return new Map(rows.map((s) => [s.id, { input: s.record.input.path, sha256: s.record.input.sha256 }]));
}

const markOf = (l: CopyLink, named: { input: string; sha256: string } | undefined, result: number): CopyMark =>
  ({ result, input: named?.input ?? '', sha256: named?.sha256 ?? '', distance: l.distance, reused: l.reused });

/** Result id -> what it is a copy of, for the results among `ids` that are copies. */
export async function copyMarks(store: StoreApi, ids: readonly number[]): Promise<Map<number, CopyMark>> {
  const links = await store.copies.of(ids);
  if (links.size === 0) return new Map();
  const named = await inputsOf(store, [...links.values()].map((l) => l.of_result));
  return new Map([...links].map(([id, l]) => [id, markOf(l, named.get(l.of_result), l.of_result)]));
}

/** A result's own link (what it is a copy of) and its copies (each as a mark naming the copy). */
export async function copiesAround(store: StoreApi, id: number): Promise<{ of?: CopyMark; copies: CopyMark[] }> {
  const of = (await copyMarks(store, [id])).get(id);
  const links = await store.copies.copiesOf(id);
  const named = await inputsOf(store, links.map((l) => l.result));
  return { ...(of ? { of } : {}), copies: links.map((l) => markOf(l, named.get(l.result), l.result)) };
}
