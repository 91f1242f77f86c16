/**
 * What `geo cases note | rule-out | conclude | clues accept|reject` share: the case found and read
 * as the log vouches for it (batch/case-results.ts), the analyst's words and the results they name
 * checked before anything is kept, and the one entry appended with the actor and the automatic
 * signature `geo cases link` uses (batch/case-sign.ts). `geo cases work` and the MCP server call
 * the same run functions, so an entry made from a prompt is the entry the flags make.
 */
import { type CaseEvidence, readCaseEvidence } from '../../batch/case-results.js';
import { caseLog } from '../../batch/case-custody.js';
import { type HeadSignature, type SignerCtx, caseSigner } from '../../batch/case-sign.js';
import { AtProblem, type SettledAt, settleAt } from '../../claims/at.js';
import { MAX_WITHIN_KM, parseWithin } from '../../claims/resolve.js';
import { UsageError } from '../../errors.js';
import { type CustodyEntry, type CustodyEvent, parseEntry } from '../../evidence/custody.js';
import { CustodyMovedError } from '../../evidence/custody-log.js';
import { findResult } from '../../evidence/clue-ids.js';
import type { ResultRef } from '../../evidence/investigation-events.js';
import { findCase } from '../../store/find.js';
import { sanitizeInline } from '../../output/sanitize.js';
import type { CaseRow, StoreApi } from '../../store/index.js';

/** What the run functions need of a Ctx (a Ctx has all of it; the MCP server's too). */
export type InvestigationCtx = SignerCtx;

/** Lines said on stderr along the way (an automatic signature that could not be made). */
export type Say = (line: string) => void;

export interface OpenedCase {
  store: StoreApi;
  row: CaseRow;
  ev: CaseEvidence;
}

/** The case named as every cases command takes it (its id, the service's, or its name), read through its log. */
export async function openCase(ctx: Pick<InvestigationCtx, 'storeApi'>, ref: string): Promise<OpenedCase> {
  const store = await ctx.storeApi();
  const row = await findCase(store, ref);
  return { store, row, ev: await readCaseEvidence(store, row) };
}

/** The analyst's words for a flag, trimmed: empty (or only spaces) is a usage error. */
export function words(flag: string, value: string | undefined, example: string): string {
  const text = (value ?? '').trim();
  if (text === '') throw new UsageError(`${flag} needs words: ${value === undefined ? 'it is missing' : 'it is empty'}`, `for example ${flag} ${JSON.stringify(example)}`);
  return text;
}

/**
 * A place as claims take it (claims/at.ts): LAT,LNG, or a name the offline index settles, with its
 * default tolerance (a point 1 km, a place its extent). One it cannot settle is a usage error.
 */
export function placeAt(flag: string, text: string | undefined): SettledAt {
  if (text === undefined || text.trim() === '') throw new UsageError(`${flag} needs a place: a name or LAT,LNG`, `e.g. ${flag} "Kharkiv, UA" or ${flag} 49.99,36.23`);
  try {
    return settleAt(text);
  } catch (err) {
    if (err instanceof AtProblem) throw new UsageError(`${flag} ${err.message}`, err.hint);
    throw err;
  }
}

/** --within as a positive number of `unit` (km, or metres up to the same half circumference). */
export function positiveWithin(value: string | number | undefined, unit: 'km' | 'metres'): number | undefined {
  if (value === undefined) return undefined;
  const max = unit === 'km' ? MAX_WITHIN_KM : MAX_WITHIN_KM * 1000;
  const n = parseWithin(String(value), max);
  if (n === undefined) throw new UsageError(`--within must be a number of ${unit} above 0 (at most ${max.toLocaleString('en-US')}), got ${JSON.stringify(String(value))}`, unit === 'km' ? 'e.g. --within 5' : 'e.g. --within 250 (metres)');
  return n;
}

/** Each result named (r2, an analysis id, a sha256 prefix), resolved among the case's results; an unknown one is a usage error. */
export function namedResults(o: OpenedCase, ids: readonly string[] | undefined): ResultRef[] {
  const out: ResultRef[] = [];
  for (const id of ids ?? []) {
    const ref = findResult(o.ev.vouch.results, id.trim());
    if (!ref) {
      const n = o.ev.vouch.results.length;
      throw new UsageError(`--result ${JSON.stringify(id)} names no result of case ${o.row.id}${n ? '' : ' (it has none linked)'}`, `name one as r1…r${Math.max(n, 1)}, by its analysis id or a sha256 prefix: geo cases show ${o.row.id} lists them`);
    }
    if (!out.some((r) => r.ref === ref.ref)) out.push(ref);
  }
  return out;
}

export interface Appended {
  case: { id: string; name: string };
  /** The entry's position in the log and its hash. */
  entry: number;
  hash: string;
  at: string;
  /** The head signed after it, when a signing key is chosen and could sign. */
  signed?: HeadSignature;
}

/** The line said when a command signed the head after appending (geo cases link, annotate and the investigation's commands). */
export const signedLines = (signed: HeadSignature | undefined): string[] => (signed ? [`signed the head (entry ${signed.seq}) as ${sanitizeInline(signed.principal)}, key ${signed.fingerprint}`] : []);

/** The line said after an entry is appended, and the signature after it (shared by the investigation's commands). */
export function appendedLines(a: Appended, what: string): string[] {
  return [`${what}: entry ${a.entry} of case ${sanitizeInline(a.case.id)} (${sanitizeInline(a.case.name)})`, ...signedLines(a.signed)];
}

function parsed(line: string): CustodyEntry | undefined {
  try {
    return parseEntry(line);
  } catch {
    return undefined; // named by geo cases verify
  }
}

/**
 * Appends the entry `make` builds from the case's log as it is at that moment, then signs the head
 * when a key is chosen. `make` runs again if another process appended in between (a conclusion
 * names the one it supersedes, which must still be the latest).
 */
export async function appendInvestigation(ctx: InvestigationCtx, o: OpenedCase, make: (entries: readonly CustodyEntry[]) => CustodyEvent, say: Say): Promise<Appended> {
  const signer = await caseSigner(ctx, say);
  const log = caseLog(o.store, await signer.actor(), ctx.now);
  for (let attempt = 0; ; attempt++) {
    const lines = await o.store.cases.lines(o.row.id);
    const entries = lines.flatMap((l) => parsed(l) ?? []);
    // A damaged last line: no `after`, and the log itself refuses to append after it, saying so.
    const last = lines.length ? parsed(lines.at(-1)!) : undefined;
    try {
      const e = await log.append(o.row.id, make(entries), last ? { after: last.hash } : {});
      const signed = await signer.auto(o.row.id);
      return { case: { id: o.row.id, name: o.ev.vouch.case.name || o.row.name }, entry: e.seq, hash: e.hash, at: e.at, ...(signed ? { signed } : {}) };
    } catch (err) {
      if (!(err instanceof CustodyMovedError) || attempt >= 4) throw err;
    }
  }
}
