/**
 * The one time format for people (cases showed 2026-11-26T21:59:03.120Z, history
 * 2026-11-26 21:59:03, inspect 2024:05:14 18:32:07): an instant as "2026-11-26 21:59 UTC", a photo's
 * capture time (EXIF wall-clock time and its offset) as "2024-05-14 18:32 local (UTC+02:00),
 * 2024-05-14 16:32 UTC". JSON keeps ISO 8601 as stored; these are for tables and key/value views only.
 */

/** "2026-11-26 21:59 UTC" for an ISO 8601 instant; text that is not one is returned as it is. */
export function peopleTime(iso: string): string {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso)) return iso;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * EXIF DateTimeOriginal ("2024:05:14 18:32:07") and OffsetTimeOriginal ("+02:00"): the wall-clock
 * time where the photo was taken, and the instant in UTC when the offset says it; without an
 * offset the zone is unknown and no UTC time is made up. Unreadable text is returned as it is.
 */
export function takenTime(exif: string, offset?: string): string {
  const m = /^(\d{4})[:-](\d\d)[:-](\d\d)[ T](\d\d):(\d\d)/.exec(exif);
  if (!m) return offset ? `${exif} ${offset}` : `${exif} (time zone not recorded)`;
  const local = `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}`;
  const o = offset ? /^([+-])(\d\d):?(\d\d)$/.exec(offset) : null;
  if (!o) return `${local} local (time zone not recorded)`;
  const shift = (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3]));
  const utc = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!) - shift * 60_000).toISOString();
  return `${local} local (UTC${offset}), ${utc.slice(0, 16).replace('T', ' ')} UTC`;
}
