/** Times within a clip, for people: messages, the terminal view, the report. */

/** 754000 -> "12:34", 3723000 -> "1:02:03", 4250 -> "0:04.250" (milliseconds only when there are some). */
export function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const frac = ms % 1000;
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h > 0 ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return `${h > 0 ? `${h}:` : ''}${mm}:${ss}${frac ? `.${String(frac).padStart(3, '0')}` : ''}`;
}
