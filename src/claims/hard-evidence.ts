/**
 * What the service saw against a claim when it overrode the claim as its scope (api-spec.md rule 3:
 * "wrong script on signage, foreign plate format, wrong driving side, impossible terrain"), named
 * from its own words: the first sentence of its reasoning, or of the forensic contradictions,
 * that speaks of such a cue; else the first contradiction; else the reasoning's first sentence.
 * Server text: the views and exports sanitize it like every other server string.
 */

/** Words of the cues rule 3 lists, and their near kin. */
const CUE = /\b(script|alphabet|cyrillic|latin|arabic|hangul|kanji|signage|signs?|lettering|language|plates?|licen[cs]e|number plate|drive|driving|drives|left-hand|right-hand|traffic|terrain|vegetation|climate|architecture|flag)\b/i;

/** Sentences of a text: split after . ! ? or ; and line ends. */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?;])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
}

const MAX = 200;
const short = (s: string) => (s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s);

/** The hard evidence an overriding answer names, or null when it says nothing at all. */
export function hardEvidenceOf(body: { reasoning?: unknown; forensic?: { contradictions?: unknown } | null }): string | null {
  const reasoning = typeof body.reasoning === 'string' ? sentences(body.reasoning) : [];
  const contradictions = Array.isArray(body.forensic?.contradictions) ? body.forensic.contradictions.filter((c): c is string => typeof c === 'string' && c.trim() !== '') : [];
  const cue = [...reasoning, ...contradictions].find((s) => CUE.test(s));
  const found = cue ?? contradictions[0] ?? reasoning[0];
  return found === undefined ? null : short(found.replace(/\s+/g, ' '));
}
