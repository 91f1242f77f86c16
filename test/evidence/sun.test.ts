/**
 * The sun's position checked against NOAA's solar calculator (the equations of its spreadsheet,
 * NOAA_Solar_Calculations_day.xls, after Meeus), written out here independently of suncalc:
 * both hemispheres, the equator, a polar summer's midnight sun, a low sun where refraction
 * matters, twilight and night. Every value within 0.5° (most agree within 0.02°).
 */
import { describe, expect, it } from 'vitest';
import { compassPoint, shadowOf, sunPhase, sunPosition } from '../../src/evidence/sun.js';

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;
const mod = (a: number, n: number) => ((a % n) + n) % n;

/** NOAA's spreadsheet, column by column, for an instant in UTC (time zone 0). */
function noaa(utc: Date, lat: number, lng: number): { azimuth: number; elevation: number; trueElevation: number } {
  const jd = utc.getTime() / 86_400_000 + 2440587.5;
  const jc = (jd - 2451545) / 36525;
  const l0 = mod(280.46646 + jc * (36000.76983 + jc * 0.0003032), 360);
  const m = 357.52911 + jc * (35999.05029 - 0.0001537 * jc);
  const e = 0.016708634 - jc * (0.000042037 + 0.0000001267 * jc);
  const c = Math.sin(rad(m)) * (1.914602 - jc * (0.004817 + 0.000014 * jc)) + Math.sin(rad(2 * m)) * (0.019993 - 0.000101 * jc) + Math.sin(rad(3 * m)) * 0.000289;
  const appLong = l0 + c - 0.00569 - 0.00478 * Math.sin(rad(125.04 - 1934.136 * jc));
  const meanObliq = 23 + (26 + (21.448 - jc * (46.815 + jc * (0.00059 - jc * 0.001813))) / 60) / 60;
  const obliq = meanObliq + 0.00256 * Math.cos(rad(125.04 - 1934.136 * jc));
  const decl = deg(Math.asin(Math.sin(rad(obliq)) * Math.sin(rad(appLong))));
  const y = Math.tan(rad(obliq / 2)) ** 2;
  const eqTime = 4 * deg(y * Math.sin(2 * rad(l0)) - 2 * e * Math.sin(rad(m)) + 4 * e * y * Math.sin(rad(m)) * Math.cos(2 * rad(l0)) - 0.5 * y * y * Math.sin(4 * rad(l0)) - 1.25 * e * e * Math.sin(2 * rad(m)));
  const minutes = utc.getUTCHours() * 60 + utc.getUTCMinutes() + utc.getUTCSeconds() / 60;
  const trueSolar = mod(minutes + eqTime + 4 * lng, 1440);
  const hourAngle = trueSolar / 4 < 0 ? trueSolar / 4 + 180 : trueSolar / 4 - 180;
  const zenith = deg(Math.acos(Math.sin(rad(lat)) * Math.sin(rad(decl)) + Math.cos(rad(lat)) * Math.cos(rad(decl)) * Math.cos(rad(hourAngle))));
  const h = 90 - zenith;
  const t = Math.tan(rad(h));
  const refractionArcsec = h > 85 ? 0 : h > 5 ? 58.1 / t - 0.07 / t ** 3 + 0.000086 / t ** 5 : h > -0.575 ? 1735 + h * (-518.2 + h * (103.4 + h * (-12.79 + h * 0.711))) : -20.772 / t;
  const acosArg = (Math.sin(rad(lat)) * Math.cos(rad(zenith)) - Math.sin(rad(decl))) / (Math.cos(rad(lat)) * Math.sin(rad(zenith)));
  const a = deg(Math.acos(Math.max(-1, Math.min(1, acosArg))));
  const azimuth = hourAngle > 0 ? mod(a + 180, 360) : mod(540 - a, 360);
  return { azimuth, elevation: h + refractionArcsec / 3600, trueElevation: h };
}

const angleDiff = (a: number, b: number) => Math.abs(mod(a - b + 180, 360) - 180);

const CASES = [
  { name: 'Paris, spring evening (northern hemisphere)', at: '2024-05-14T16:32:07Z', lat: 48.85837, lng: 2.294481, phase: 'day' },
  { name: 'Sydney, summer afternoon (southern hemisphere)', at: '2024-01-26T03:30:00Z', lat: -33.856784, lng: 151.215297, phase: 'day' },
  { name: 'Cape Town, winter morning (southern hemisphere, sun to the north)', at: '2023-07-10T07:45:00Z', lat: -33.9249, lng: 18.4241, phase: 'day' },
  { name: 'Quito, noon on the equator', at: '2024-03-20T17:14:00Z', lat: -0.1807, lng: -78.4678, phase: 'day' },
  { name: 'Longyearbyen, polar summer midnight sun', at: '2024-06-20T22:30:00Z', lat: 78.2232, lng: 15.6267, phase: 'day' },
  { name: 'Tokyo, low sun after sunrise (refraction matters)', at: '2023-11-01T21:30:00Z', lat: 35.658581, lng: 139.745433, phase: 'day' },
  { name: 'New York, civil twilight after sunset', at: '2024-07-04T00:50:00Z', lat: 40.689247, lng: -74.044502, phase: 'civil twilight' },
  { name: 'Sydney, night', at: '2024-01-26T13:05:10Z', lat: -33.856784, lng: 151.215297, phase: 'night' },
  { name: 'Longyearbyen, polar night noon', at: '2023-12-21T11:00:00Z', lat: 78.2232, lng: 15.6267, phase: 'nautical twilight' },
] as const;

describe('sunPosition against NOAA\'s solar calculator equations', () => {
  it.each(CASES)('$name: azimuth and elevation within 0.5°', ({ at, lat, lng, phase }) => {
    const ours = sunPosition(new Date(at), lat, lng);
    const ref = noaa(new Date(at), lat, lng);
    // Below the horizon geo reports the true depression (twilight is defined on it); NOAA's apparent
    // value differs from it by at most a few hundredths of a degree there.
    const want = ref.trueElevation < 0 ? ref.trueElevation : ref.elevation;
    expect(Math.abs(ours.elevationDeg - want)).toBeLessThan(0.5);
    expect(angleDiff(ours.azimuthDeg, ref.azimuth)).toBeLessThan(0.5);
    expect(ours.phase).toBe(phase);
  });

  it('the polar summer sun stays up at midnight, low in the north, and the night case is far below the horizon', () => {
    const midnight = sunPosition(new Date('2024-06-20T22:30:00Z'), 78.2232, 15.6267);
    expect(midnight.elevationDeg).toBeGreaterThan(5);
    expect(angleDiff(midnight.azimuthDeg, 0)).toBeLessThan(20);
    expect(sunPosition(new Date('2024-01-26T13:05:10Z'), -33.856784, 151.215297).elevationDeg).toBeLessThan(-18);
  });

  it('southern-hemisphere noon sun stands in the north, northern in the south', () => {
    expect(angleDiff(sunPosition(new Date('2023-07-10T10:50:00Z'), -33.9249, 18.4241).azimuthDeg, 0)).toBeLessThan(15);
    expect(angleDiff(sunPosition(new Date('2024-05-14T11:45:00Z'), 48.85837, 2.294481).azimuthDeg, 180)).toBeLessThan(15);
  });
});

describe('shadows', () => {
  it('point away from the sun; length is 1 / tan(elevation): 1 at 45°, about 1.73 at 30°', () => {
    expect(shadowOf({ azimuthDeg: 213, elevationDeg: 45 })).toEqual({ directionDeg: 33, compass: 'NNE', lengthRatio: expect.closeTo(1, 9) });
    expect(shadowOf({ azimuthDeg: 90, elevationDeg: 30 })?.lengthRatio).toBeCloseTo(Math.sqrt(3), 9);
    expect(shadowOf({ azimuthDeg: 350, elevationDeg: 10 })?.directionDeg).toBe(170);
  });

  it('none when the sun is on or below the horizon', () => {
    expect(shadowOf({ azimuthDeg: 200, elevationDeg: 0 })).toBeUndefined();
    expect(shadowOf({ azimuthDeg: 200, elevationDeg: -12 })).toBeUndefined();
  });

  it('16 compass points, each centred on its bearing', () => {
    expect([0, 11.2, 11.3, 33, 90, 180, 202.5, 348.7, 348.8, 359.9].map(compassPoint)).toEqual(['N', 'N', 'NNE', 'NNE', 'E', 'S', 'SSW', 'NNW', 'N', 'N']);
  });

  it('phases: day above the horizon, horizon to -0.833°, then civil, nautical, astronomical twilight, night', () => {
    expect([10, 0.1, -0.5, -3, -8, -15, -30].map(sunPhase)).toEqual(['day', 'day', 'horizon', 'civil twilight', 'nautical twilight', 'astronomical twilight', 'night']);
  });
});
