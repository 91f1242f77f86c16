/**
 * `geo cases link <case> <result...>`: results already paid for, linked to a local case, each with
 * its answer_received and result_linked entries. Every reference is resolved first (as `geo
 * history show` takes them: an image file, a sha256 prefix, an analysis id): one that names no
 * stored result is a usage error, and nothing is written.
 */
import { signedLines } from './investigation-append.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { expandSamples } from '../../files/samples.js';
import { linkStored } from '../../batch/case-custody.js';
import { type HeadSignature, caseSigner } from '../../batch/case-sign.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { findCase, findStored } from '../../store/find.js';
import type { StoredResult } from '../../store/index.js';
import type { Handler } from '../types.js';

export interface Linked {
  case: { id: string; name: string };
  /** Results linked now, and those the case held already. */
  linked: Array<{ id: number; input: string; ref: string }>;
  already: Array<{ id: number; input: string; ref: string }>;
  /** The head signed after linking, when a signing key is chosen and could sign. */
  signed?: HeadSignature;
}

export async function runLink(ctx: Pick<Ctx, 'storeApi' | 'now' | 'version' | 'config' | 'vault'>, ref: string, refs: readonly string[], say: (line: string) => void = () => undefined): Promise<Linked> {
  const store = await ctx.storeApi();
  const c = await findCase(store, ref);
  if (refs.length === 0) throw new UsageError('name the results to link', `geo cases link ${c.id} RESULT… (an image file, a sha256 prefix or an analysis id: what geo history shows)`);
  const found = new Map<number, { s: StoredResult; ref: string }>();
  // sample:NAME names a photo shipped with geo, as in geo locate.
  for (const r of expandSamples(refs)) {
    // The newest usable result of that image (as geo history show takes it), or the one with that analysis id.
    const s = (await findStored(store, r, { files: true })).find((x) => x.record.unusable === undefined);
    if (!s) throw new UsageError(`${JSON.stringify(r)} names a paid answer without coordinates: no result to link`, 'geo history lists the results you can link');
    if (!found.has(s.id)) found.set(s.id, { s, ref: r });
  }
  const out: Linked = { case: { id: c.id, name: c.name }, linked: [], already: [] };
  const signer = await caseSigner(ctx, say);
  const actor = await signer.actor();
  for (const { s, ref: r } of found.values()) {
    const row = { id: s.id, input: s.record.input.path, ref: r };
    if (await store.cases.isLinked(c.id, s.id)) out.already.push(row);
    else {
      await linkStored(store, { version: ctx.version, now: ctx.now, actor }, c.id, s, true);
      out.linked.push(row);
    }
  }
  if (out.linked.length) {
    const signed = await signer.auto(c.id);
    if (signed) out.signed = signed;
  }
  return out;
}

export const link: Handler = async (ctx, args) => {
  resolveFormat(ctx, ['table', 'json']);
  const res = await runLink(ctx, args[0] as string, (args[1] as string[] | undefined) ?? [], (line) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`));
  const human = () => [
    ...res.linked.map((r) => `linked ${sanitizeInline(r.input)} (result ${r.id}) to case ${sanitizeInline(res.case.id)}`),
    ...res.already.map((r) => `already in case ${sanitizeInline(res.case.id)}: ${sanitizeInline(r.input)} (result ${r.id})`),
    ...signedLines(res.signed),
  ].join('\n');
  await render(ctx, { data: res, human }, ['table', 'json']);
};
