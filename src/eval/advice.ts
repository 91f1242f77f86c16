/**
 * How the depth-3 `calibration` advice fared. The spec gives calibration as a "publish
 * policy for the run, including when to abstain" and shows none of its fields, so the advice is
 * read tolerantly, first match wins:
 *   `abstain: boolean` (the sandbox's field) -> abstain when true;
 *   `publish: boolean` -> abstain when false; `publish: "abstain…"` (a word) -> abstain;
 *   `abstain_below: number` (0-1) -> abstain when the confidence is below it.
 * Anything else is advice geo cannot read: that answer is left out of the summary.
 */

export type Advice = 'publish' | 'abstain';

export function adviceOf(calibration: unknown, confidence: number): Advice | undefined {
  if (typeof calibration !== 'object' || calibration === null) return undefined;
  const c = calibration as Record<string, unknown>;
  if (typeof c.abstain === 'boolean') return c.abstain ? 'abstain' : 'publish';
  if (typeof c.publish === 'boolean') return c.publish ? 'publish' : 'abstain';
  if (typeof c.publish === 'string') return /abstain|withhold|^no$/i.test(c.publish) ? 'abstain' : 'publish';
  if (typeof c.abstain_below === 'number' && c.abstain_below >= 0 && c.abstain_below <= 1) return confidence < c.abstain_below ? 'abstain' : 'publish';
  return undefined;
}

export interface AdviceGroup {
  n: number;
  /** Share of these answers that were correct; null when n is 0. */
  accuracy: number | null;
}

export interface AdviceSummary {
  publish: AdviceGroup;
  abstain: AdviceGroup;
  /** Share of the advice that was right: publish on a correct answer, abstain on a wrong one. */
  right: number;
}

export function summarizeAdvice(answers: ReadonlyArray<{ advice?: Advice; errorKm: number }>, correctWithinKm: number): AdviceSummary {
  const group = (which: Advice): AdviceGroup => {
    const g = answers.filter((a) => a.advice === which);
    return { n: g.length, accuracy: g.length === 0 ? null : g.filter((a) => a.errorKm <= correctWithinKm).length / g.length };
  };
  const advised = answers.filter((a) => a.advice !== undefined);
  const right = advised.filter((a) => (a.advice === 'publish') === a.errorKm <= correctWithinKm).length;
  return { publish: group('publish'), abstain: group('abstain'), right: advised.length === 0 ? 0 : right / advised.length };
}
