/**
 * The reuse look-up (issue 11, "paid once, across commands"): a result geo already holds for the
 * same image bytes, the same request fields, the same service and the same account, whatever
 * command stored it. One directory listing per image (<dataDir>/results/<sha256>/, names sort by
 * time), read newest first until one matches: a folder of hundreds costs hundreds of small reads.
 *
 * Never reused: --async (the answer is a 202, not a result), records without an account (written
 * before fingerprints: whose credits paid them is unknown), records rebuilt from NDJSON, and
 * anything that is not a usable 200 body.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from './canonical-json.js';
import { type ProvenanceRecord, RECORD_SCHEMA, SHA, isResultBody, resultsDir } from './store.js';

export interface ReuseQuery {
  sha256: string;
  /** The request fields besides the image (depth, effort, scope, batch_id, model, async). */
  request: Record<string, unknown>;
  /** The normalized base URL the request would go to (records keep it as cli.base_url). */
  baseUrl: string;
  /** accountFingerprint of the key that would pay. */
  account: string;
}

export interface Reusable {
  record: ProvenanceRecord;
  file: string;
}

/** Fields that name the image, not the request: the sha256 already says which image it is. */
const IMAGE_FIELDS = new Set(['image_b64', 'image_b64_chars', 'image_url']);

/** Canonical JSON of the request without the image fields, so field order never decides a match. */
function canonical(request: unknown): string {
  // A hand-edited record may hold anything here: only a plain object has image fields to drop.
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return canonicalJson(request);
  return canonicalJson(Object.fromEntries(Object.entries(request).filter(([k]) => !IMAGE_FIELDS.has(k))));
}

function matches(rec: ProvenanceRecord, q: ReuseQuery, want: string): boolean {
  // 200 is the geolocation response (api-spec.md); a 202 is an --async acceptance, not a result.
  return (
    rec.schema === RECORD_SCHEMA && rec.origin === 'store' && rec.account === q.account && rec.cli?.base_url === q.baseUrl &&
    rec.response?.status === 200 && isResultBody(rec.response.body) && canonical(rec.request ?? {}) === want
  );
}

/** The newest stored result for this query, or undefined. Unreadable files are skipped. */
export async function findReusable(dataDirPath: string, q: ReuseQuery): Promise<Reusable | undefined> {
  if (q.request.async === true || !SHA.test(q.sha256)) return undefined;
  const folder = join(resultsDir(dataDirPath), q.sha256);
  let names: string[];
  try {
    names = (await readdir(folder)).filter((n) => n.endsWith('.json')).sort().reverse();
  } catch {
    return undefined;
  }
  const want = canonical(q.request);
  for (const name of names) {
    const file = join(folder, name);
    try {
      const rec = JSON.parse(await readFile(file, 'utf8')) as ProvenanceRecord;
      if (matches(rec, q, want)) return { record: rec, file };
    } catch {
      // A damaged or foreign file is not a result to reuse; `geo history` reports such files.
    }
  }
  return undefined;
}
