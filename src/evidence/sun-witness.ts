/**
 * The sun as a witness: where the sun stood at a point (the estimate, or the photo's own
 * GPS) when the photo was taken (its EXIF capture time), and the shadows that follows. Like the
 * EXIF check it is local and informational: the analyst compares it with the shadows in the
 * photo; it never changes the confidence. Stored in the corroboration block as `sun`.
 */
import { type CaptureTime, captureTime } from '../image/capture-time.js';
import type { ExifSummary } from '../image/exif.js';
import { type SunPhase, shadowOf, sunPosition } from './sun.js';

export type SunPoint = 'estimate' | 'photo GPS';

export interface SunWitness {
  point: SunPoint;
  lat: number;
  lng: number;
  time: CaptureTime;
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

export function sunWitness(exif: Pick<ExifSummary, 'dateTimeOriginal' | 'offsetTime' | 'offsetTimeTag'>, at: { lat: number; lng: number }, point: SunPoint): SunCheck {
  const t = captureTime(exif, at, POINT_NAME[point]);
  if (!t.ok) return { unavailable: t.reason };
  const sun = sunPosition(new Date(t.time.utc), at.lat, at.lng);
  const shadow = shadowOf(sun);
  return {
    point,
    lat: at.lat,
    lng: at.lng,
    time: t.time,
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
 * One plain line, for a row or sentence that starts with "sun": "213° az, 41° elev at 2024-05-14
 * 13:59 local (UTC+02:00, EXIF OffsetTimeOriginal): shadows point NNE (33°), about 0.9× …".
 */
export function describeSun(s: SunCheck): string {
  if (!isSunWitness(s)) return `not computed: ${(s as SunUnavailable).unavailable ?? 'no capture time'}`;
  const when = `at ${s.time.local.slice(0, 16)} local (UTC${s.time.offset}, ${s.time.source})`;
  if (s.shadow) {
    const sh = s.shadow;
    return `${deg(s.azimuthDeg)} az, ${deg(s.elevationDeg)} elev ${when}: shadows point ${sh.compass} (${deg(sh.directionDeg)}), ${lengthText(sh.lengthRatio)}`;
  }
  if (s.phase === 'horizon') return `on the horizon at ${deg(s.azimuthDeg)} az ${when}: rising or setting, no usable shadows`;
  const below = `below the horizon (${Math.abs(s.elevationDeg).toFixed(1)}° below, ${deg(s.azimuthDeg)} az) ${when}`;
  return s.phase === 'night' ? `${below}: night, no sunlight` : `${below}: ${s.phase}, no direct sunlight, no shadows`;
}
