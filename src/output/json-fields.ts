/**
 * gh's `--json field1,field2`: each command that prints JSON declares, in its register
 * file, the fields a person may choose; the one filter on stdout (json-filter.ts) selects them from
 * whatever the command prints. Without a declaration a command prints no JSON, and `--json FIELDS`
 * or `--jq` on it is a usage error.
 */
import { UsageError } from '../errors.js';

export interface JsonFields {
  /** The fields a person may choose, known before anything runs (checked before a request is sent). */
  names: readonly string[];
  /**
   * The records' fields are not all known in advance (api-spec.md: "fields not shown" for usage,
   * analyses items, geo api's bodies): any field a record carries may be chosen too, and an unknown
   * one is refused once the answer is there, naming the fields it had.
   */
  open?: boolean;
  /** The records sit under this key of the printed document (`data` of `{success, data}`). */
  at?: string;
  /** A field of one record (default: its own key); for aliases and fields read from inside. */
  get?: (record: Record<string, unknown>, name: string) => unknown;
}

/** Command path ("cases list") -> what it declared. Register files declare; cli/run-command.ts reads. */
const declared = new Map<string, JsonFields>();

/** `geo <path>` prints JSON; `fields` are what `--json FIELDS` may choose. */
export function declareJson(path: string, fields: JsonFields): void {
  declared.set(path, fields);
}

export function jsonFieldsOf(path: string): JsonFields | undefined {
  return declared.get(path);
}

/** api-spec.md "Geolocation response": what locate and history show print for one result. */
export const RESULT_FIELDS = [
  'success', 'analysis_id', 'location', 'confidence', 'reasoning', 'thinking', 'visual_clues', 'model', 'depth', 'effort', 'batch_id', 'scope_consistent', 'timing_ms', 'forensic', 'calibration',
] as const;

/**
 * media/scene.ts's object: what locate prints for a video or photos --together, and
 * history show for a stored one.
 */
export const SCENE_FIELDS = ['kind', 'input', 'sha256', 'duration_s', 'frame_choice', 'depth', 'agree_km', 'answered', 'failed', 'consensus', 'tied', 'clusters', 'frames', 'dropped'] as const;

/** Several commands' lists as one, each name once. */
export const fieldUnion = (...lists: ReadonlyArray<readonly string[]>): string[] => [...new Set(lists.flat())];

/** Fields of a record, or of the API result inside it (locate's NDJSON line `{input, …, result}`). */
export function ownOrResult(record: Record<string, unknown>, name: string): unknown {
  if (name in record) return record[name];
  const result = record.result;
  return typeof result === 'object' && result !== null ? (result as Record<string, unknown>)[name] : undefined;
}

/** "a,b , c" -> ['a','b','c']; an empty or malformed list is a usage error. */
export function parseFieldList(v: string): string[] {
  const names = v.split(',').map((s) => s.trim());
  if (names.some((n) => !/^[A-Za-z_][\w.-]*$/.test(n))) throw new UsageError(`--json takes field names separated by commas, got "${v}"`, 'for example --json id,city (geo help formatting)');
  return names;
}

function unknownFields(chosen: readonly string[], known: readonly string[], what: string): UsageError {
  const bad = chosen.filter((n) => !known.includes(n));
  return new UsageError(`unknown JSON field${bad.length > 1 ? 's' : ''} ${bad.map((b) => `"${b}"`).join(', ')} for ${what}`, `available fields: ${known.join(', ')}`);
}

/** Before the command runs: a closed list refuses an unknown field now, so nothing is sent. */
export function checkFields(chosen: readonly string[], f: JsonFields, what: string): void {
  if (!f.open && chosen.some((n) => !f.names.includes(n))) throw unknownFields(chosen, f.names, what);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The chosen fields of a printed document: a list of records gives a list (gh), one record an
 * object; a field a record lacks is null. An open list refuses a field that neither the
 * declaration nor any record names, listing what there was.
 */
export function selectFields(doc: unknown, chosen: readonly string[], f: JsonFields, what: string): unknown {
  const inner = f.at !== undefined && isRecord(doc) && f.at in doc ? doc[f.at] : doc;
  const records = Array.isArray(inner) ? inner : [inner];
  if (f.open) {
    const known = [...new Set([...f.names, ...records.flatMap((r) => (isRecord(r) ? Object.keys(r) : []))])];
    if (chosen.some((n) => !known.includes(n) && !records.some((r) => isRecord(r) && f.get?.(r, n) !== undefined))) throw unknownFields(chosen, known, what);
  }
  const pick = (r: unknown) => Object.fromEntries(chosen.map((n) => [n, isRecord(r) ? ((f.get ? f.get(r, n) : r[n]) ?? null) : null]));
  return Array.isArray(inner) ? inner.map(pick) : pick(inner);
}
