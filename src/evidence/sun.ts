/**
 * Where the sun stood at a place and instant, and what that means for shadows: pure math
 * (DESIGN.md "sun position (pure)"). The position is suncalc's (Meeus's algorithms, ΔT included;
 * test/evidence/sun.test.ts checks it against NOAA's solar calculator equations within 0.5°).
 *
 * Elevation is the apparent one (refraction included, Meeus 16.4) while the sun's centre is
 * geometrically above the horizon. Below it, suncalc clamps the refraction formula at 0° and adds
 * its horizon value (0.484°) to every altitude, down to the nadir; geo takes it off there, so a
 * sun below the horizon reports its true depression, which is what defines twilight.
 */
import { getPosition } from 'suncalc';

/** suncalc's refraction at altitude 0 (Meeus 16.4 with h = 0): 1.02 / tan(10.26° / 5.10) arcmin. */
const HORIZON_REFRACTION_DEG = 1.02 / Math.tan(((10.26 / 5.1) * Math.PI) / 180) / 60;

/**
 * day: the sun is up; horizon: its disc is on the horizon (centre below it, rim still visible:
 * sunrise and sunset are at -0.833°); then civil (to -6°), nautical (to -12°) and astronomical
 * (to -18°) twilight, and night below.
 */
export type SunPhase = 'day' | 'horizon' | 'civil twilight' | 'nautical twilight' | 'astronomical twilight' | 'night';

export interface SunPosition {
  /** Degrees clockwise from true north (0 N, 90 E, 180 S, 270 W). */
  azimuthDeg: number;
  /** Degrees above the horizon; negative below it (see the file comment). */
  elevationDeg: number;
  phase: SunPhase;
}

export interface Shadow {
  /** Where shadows point: opposite the sun, degrees clockwise from true north. */
  directionDeg: number;
  /** 16-point compass name of directionDeg ("NNE"). */
  compass: string;
  /** Shadow length over the height of a vertical object on level ground: 1 / tan(elevation). */
  lengthRatio: number;
}

const RISE_SET_DEG = -0.833;

export function sunPhase(elevationDeg: number): SunPhase {
  if (elevationDeg > 0) return 'day';
  if (elevationDeg > RISE_SET_DEG) return 'horizon';
  if (elevationDeg > -6) return 'civil twilight';
  if (elevationDeg > -12) return 'nautical twilight';
  if (elevationDeg > -18) return 'astronomical twilight';
  return 'night';
}

export function sunPosition(at: Date, lat: number, lng: number): SunPosition {
  const p = getPosition(at, lat, lng);
  // Below HORIZON_REFRACTION_DEG the geometric altitude was negative: take the clamped refraction off.
  const elevationDeg = p.altitude < HORIZON_REFRACTION_DEG ? p.altitude - HORIZON_REFRACTION_DEG : p.altitude;
  return { azimuthDeg: normalizeDeg(p.azimuth), elevationDeg, phase: sunPhase(elevationDeg) };
}

/** Shadows of a sun above the horizon; none below it (no direct sunlight, no shadow to read). */
export function shadowOf(sun: Pick<SunPosition, 'azimuthDeg' | 'elevationDeg'>): Shadow | undefined {
  if (!(sun.elevationDeg > 0)) return undefined;
  const directionDeg = normalizeDeg(sun.azimuthDeg + 180);
  return { directionDeg, compass: compassPoint(directionDeg), lengthRatio: 1 / Math.tan((sun.elevationDeg * Math.PI) / 180) };
}

const POINTS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'];

/** The 16-point compass name of a bearing (each point covers 22.5°, centred on it). */
export function compassPoint(deg: number): string {
  return POINTS[Math.round(normalizeDeg(deg) / 22.5) % 16]!;
}

function normalizeDeg(deg: number): number {
  const d = deg % 360;
  return d < 0 ? d + 360 : d;
}
