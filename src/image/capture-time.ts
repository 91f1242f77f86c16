/**
 * The instant a photo was taken, from its EXIF: DateTimeOriginal is a wall-clock time with no
 * zone; OffsetTimeOriginal (EXIF 2.31) says which. Without an offset, the zone is looked up
 * offline at the point the caller names (the estimate, or the photo's own GPS) with
 * @photostructure/tz-lookup (timezone-boundary-builder's borders, coarse near them), and the
 * offset that zone had then comes from the runtime's ICU data (Intl). The result says which was used.
 */
import tzlookup from '@photostructure/tz-lookup';
import type { ExifSummary } from './exif.js';

export interface CaptureTime {
  /** The instant, ISO-8601 UTC. */
  utc: string;
  /** The wall-clock time as written: "2024-05-14 18:32:07". */
  local: string;
  /** The offset applied: "+02:00". */
  offset: string;
  /** exif: the file's own offset tag; zone: the time zone at the point, looked up offline. */
  basis: 'exif' | 'zone';
  /** What exactly: "EXIF OffsetTimeOriginal", or "time zone Europe/Paris at the estimate, looked up offline: no offset in EXIF". */
  source: string;
  /** The IANA zone, when looked up. */
  zone?: string;
}

export type CaptureTimeResult = { ok: true; time: CaptureTime } | { ok: false; reason: string };

const DATE = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;
const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;
const MINUTE = 60_000;

/** Wall-clock fields of "2024:05:14 18:32:07" as if they were UTC (ms), or undefined when not a real date. */
export function wallClockMs(text: string): number | undefined {
  const m = DATE.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // Date.UTC rolls 2024:02:31 over to March; "0000:00:00 00:00:00" (a camera without a clock) is not a date either.
  if (y < 1800 || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  return ms;
}

/** "+02:00" -> 120 minutes; undefined when malformed or beyond ±14:00 (the widest offset in use). */
export function offsetMinutes(text: string): number | undefined {
  const m = OFFSET.exec(text.trim());
  if (!m) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (Number(m[3]) > 59 || minutes > 14 * 60) return undefined;
  return m[1] === '-' ? -minutes : minutes;
}

export function formatOffset(minutes: number): string {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** The offset of an IANA zone at an instant, in minutes, from ICU ("GMT+05:30", "GMT" for zero). */
export function zoneOffsetAt(zone: string, utcMs: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(utcMs)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return offsetMinutes(name.replace(/^GMT/, '') || '+00:00') ?? 0;
}

/**
 * A wall-clock time in a zone -> UTC. Two passes settle the offset of that local time; in the hour
 * repeated when DST ends, the reading after the change is taken, and a time skipped when DST
 * starts is read with the offset from before the change (the source line names the zone, so the
 * analyst can weigh that hour).
 */
function zonedToUtc(wallMs: number, zone: string): { utcMs: number; offset: number } {
  const first = zoneOffsetAt(zone, wallMs);
  const offset = zoneOffsetAt(zone, wallMs - first * MINUTE);
  return { utcMs: wallMs - offset * MINUTE, offset };
}

/** The IANA zone at a point (offline; at sea, the nautical Etc/GMT zone). */
export function zoneAt(lat: number, lng: number): string | undefined {
  try {
    return tzlookup(lat, lng);
  } catch {
    return undefined;
  }
}

/** A wall-clock instant (ms as if UTC) as `YYYY-MM-DD HH:MM:SS`. */
export const localText = (wallMs: number) => new Date(wallMs).toISOString().slice(0, 19).replace('T', ' ');

/** `pointName` says where the zone was looked up ("the estimate", "the photo's GPS"). */
export function captureTime(exif: Pick<ExifSummary, 'dateTimeOriginal' | 'offsetTime' | 'offsetTimeTag'>, point: { lat: number; lng: number }, pointName: string): CaptureTimeResult {
  if (!exif.dateTimeOriginal) return { ok: false, reason: 'no capture time in EXIF (DateTimeOriginal)' };
  const wall = wallClockMs(exif.dateTimeOriginal);
  if (wall === undefined) return { ok: false, reason: `EXIF DateTimeOriginal is not a date (${exif.dateTimeOriginal.slice(0, 40)})` };
  const written = exif.offsetTime !== undefined ? offsetMinutes(exif.offsetTime) : undefined;
  if (written !== undefined) {
    const time = { utc: new Date(wall - written * MINUTE).toISOString(), local: localText(wall), offset: formatOffset(written), basis: 'exif' as const, source: `EXIF ${exif.offsetTimeTag ?? 'OffsetTimeOriginal'}` };
    return { ok: true, time };
  }
  const zone = zoneAt(point.lat, point.lng);
  if (!zone) return { ok: false, reason: 'EXIF has no time-zone offset and no zone was found at the point' };
  const { utcMs, offset } = zonedToUtc(wall, zone);
  const why = exif.offsetTime !== undefined ? `EXIF offset "${exif.offsetTime.slice(0, 20)}" unreadable` : 'no offset in EXIF';
  const source = `time zone ${zone} at ${pointName}, looked up offline: ${why}`;
  return {
    ok: true,
    time: { utc: new Date(utcMs).toISOString(), local: localText(wall), offset: formatOffset(offset), basis: 'zone', source, zone },
  };
}
