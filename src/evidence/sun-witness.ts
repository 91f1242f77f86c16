/**
 * The sun as a witness: where the sun stood at a point (the estimate, or the photo's own
 * GPS) when the photo was taken (its EXIF capture time), and the shadows that follows. Like the
 * EXIF check it is local and informational: the analyst compares it with the shadows in the
 * photo; it never changes the confidence. Stored in the corroboration block as `sun`.
 */
import { type CaptureTime, captureTime, formatOffset, localText, zoneAt, zoneOffsetAt } from '../image/capture-time.js';
import type { ExifSummary } from '../image/exif.js';
import { type SunPhase, shadowOf, sunPosition } from './sun.js';

export type SunPoint = 'estimate' | 'photo GPS';

/** The clock at the point at the capture instant: not the photo's clock when the camera was set elsewhere. */
export interface ClockThere {
  /** "2023-11-01 18:15:44". */
  local: string;
  offset: string;
  zone: string;
}

export interface SunWitness {
  point: SunPoint;
  /** The point's name: the estimate's place as the answer gives it, or the photo GPS's offline place. */
  place?: string;
  lat: number;
  lng: number;
  /** The photo's clock (EXIF), and the instant it gives. */
  time: CaptureTime;
  there?: ClockThere;
  /** Degrees clockwise from true north, one decimal. */
  azimuthDeg: number;
  /** Apparent degrees above the horizon (true depression below it), one decimal. */
  elevationDeg: number;
  phase: SunPhase;
  /** Only while the sun is up: direction (degrees from north, one decimal), its compass name, length / height (two decimals). */
  shadow?: { directionDeg: number; compass: string; lengthRatio: number };
}

/** Why there is no witness: no capture time, an unreadable one, no zone. */
export interface SunUnavailable {
  unavailable: string;
}

export type SunCheck = SunWitness | SunUnavailable;

const POINT_NAME: Record<SunPoint, string> = { estimate: 'the estimate', 'photo GPS': "the photo's GPS" };
const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

const MINUTE = 60_000;

/** The wall clock at a point at an instant, from the zone there (looked up offline); undefined when none is found. */
export function clockAt(lat: number, lng: number, utc: string): ClockThere | undefined {
  const zone = zoneAt(lat, lng);
  const ms = Date.parse(utc);
  if (!zone || Number.isNaN(ms)) return undefined;
  const offset = zoneOffsetAt(zone, ms);
  return { local: localText(ms + offset * MINUTE), offset: formatOffset(offset), zone };
}

/** `place` names the point (the caller's text, shown sanitized; cut to a line's worth here). */
export function sunWitness(exif: Pick<ExifSummary, 'dateTimeOriginal' | 'offsetTime' | 'offsetTimeTag'>, at: { lat: number; lng: number }, point: SunPoint, place?: string): SunCheck {
  const t = captureTime(exif, at, POINT_NAME[point]);
  if (!t.ok) return { unavailable: t.reason };
  const sun = sunPosition(new Date(t.time.utc), at.lat, at.lng);
  const shadow = shadowOf(sun);
  const there = clockAt(at.lat, at.lng, t.time.utc);
  return {
    point,
    ...(place?.trim() ? { place: place.trim().slice(0, 120) } : {}),
    lat: at.lat,
    lng: at.lng,
    time: t.time,
    ...(there ? { there } : {}),
    azimuthDeg: round(sun.azimuthDeg, 1),
    elevationDeg: round(sun.elevationDeg, 1),
    phase: sun.phase,
    ...(shadow ? { shadow: { directionDeg: round(shadow.directionDeg, 1), compass: shadow.compass, lengthRatio: round(shadow.lengthRatio, 2) } } : {}),
  };
}

/** Records are files anyone can edit: a witness has its numbers and its time. */
export function isSunWitness(v: unknown): v is SunWitness {
  const s = v as SunWitness | undefined;
  return typeof s === 'object' && s !== null && Number.isFinite(s.azimuthDeg) && Number.isFinite(s.elevationDeg) && typeof s.time?.local === 'string';
}

function lengthText(ratio: number): string {
  if (ratio > 50) return 'over 50× the height of what casts them (the sun is at the horizon)';
  return `about ${ratio < 10 ? ratio.toFixed(1) : Math.round(ratio)}× the height of what casts them`;
}

const deg = (n: number) => `${Math.round(n)}°`;

/**
 * Where the sun was worked out and when, on both clocks: the sun is computed at the point, but the
 * photo's clock is wherever the camera was set, so "09:15" alone reads as a morning at a point
 * where it was 18:15. "at the estimate (Mexico City, Mexico), 2023-11-01 18:15 there (UTC-06:00,
 * America/Mexico_City); 2023-11-02 09:15 on the photo's clock (UTC+09:00, EXIF OffsetTimeOriginal)";
 * one clock when they agree. Records from before `there` was kept get it worked out here.
 */
function whereAndWhen(s: SunWitness): string {
  const where = `at ${POINT_NAME[s.point] ?? 'the point'}${typeof s.place === 'string' && s.place ? ` (${s.place})` : ''}`;
  const photo = s.time.local.slice(0, 16);
  const there = s.there ?? clockAt(s.lat, s.lng, s.time.utc);
  const photoClock = `on the photo's clock (UTC${s.time.offset}, ${s.time.source})`;
  if (!there) return `${where}, ${photo} ${photoClock}; the time there unknown (no time zone found at the point)`;
  const here = there.local.slice(0, 16);
  if (here === photo) return `${where}, ${photo} there and ${photoClock}`;
  // The date once when both clocks share it.
  const photoText = photo.slice(0, 10) === here.slice(0, 10) ? photo.slice(11) : photo;
  return `${where}, ${here} there (UTC${there.offset}, ${there.zone}); ${photoText} ${photoClock}`;
}

/**
 * One plain line, for a row or sentence that starts with "sun": "213° az, 41° elev at the estimate
 * (Paris, France), 2024-05-14 13:59 there and on the photo's clock (UTC+02:00, EXIF
 * OffsetTimeOriginal): shadows point NNE (33°), about 0.9× …".
 */
export function describeSun(s: SunCheck): string {
  if (!isSunWitness(s)) return `not computed: ${(s as SunUnavailable).unavailable ?? 'no capture time'}`;
  const when = whereAndWhen(s);
  if (s.shadow) {
    const sh = s.shadow;
    return `${deg(s.azimuthDeg)} az, ${deg(s.elevationDeg)} elev ${when}: shadows point ${sh.compass} (${deg(sh.directionDeg)}), ${lengthText(sh.lengthRatio)}`;
  }
  if (s.phase === 'horizon') return `on the horizon at ${deg(s.azimuthDeg)} az ${when}: rising or setting, no usable shadows`;
  const below = `below the horizon (${Math.abs(s.elevationDeg).toFixed(1)}° below, ${deg(s.azimuthDeg)} az) ${when}`;
  return s.phase === 'night' ? `${below}: night, no sunlight` : `${below}: ${s.phase}, no direct sunlight, no shadows`;
}
