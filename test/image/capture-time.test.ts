/** The capture instant from EXIF: its own offset first, else the zone at the point (offline), said which. */
import { describe, expect, it } from 'vitest';
import { captureTime, offsetMinutes, wallClockMs, zoneAt } from '../../src/image/capture-time.js';
import { describeSun, sunWitness } from '../../src/evidence/sun-witness.js';

const PARIS = { lat: 48.85837, lng: 2.294481 };

describe('captureTime', () => {
  it('uses OffsetTimeOriginal when the file has it, and says so', () => {
    const r = captureTime({ dateTimeOriginal: '2024:05:14 18:32:07', offsetTime: '+02:00', offsetTimeTag: 'OffsetTimeOriginal' }, PARIS, 'the estimate');
    expect(r).toEqual({ ok: true, time: { utc: '2024-05-14T16:32:07.000Z', local: '2024-05-14 18:32:07', offset: '+02:00', basis: 'exif', source: 'EXIF OffsetTimeOriginal' } });
  });

  it('names OffsetTime (of the modify date) when only that one is written', () => {
    const r = captureTime({ dateTimeOriginal: '2024:05:14 18:32:07', offsetTime: '-0330', offsetTimeTag: 'OffsetTime' }, PARIS, 'the estimate');
    expect(r.ok && r.time).toMatchObject({ utc: '2024-05-14T22:02:07.000Z', offset: '-03:30', source: 'EXIF OffsetTime' });
  });

  it('without an offset: the zone at the point, with its DST offset of that day, and says it was looked up', () => {
    const summer = captureTime({ dateTimeOriginal: '2024:05:14 18:32:07' }, PARIS, 'the estimate');
    expect(summer.ok && summer.time).toEqual({
      utc: '2024-05-14T16:32:07.000Z', local: '2024-05-14 18:32:07', offset: '+02:00', basis: 'zone', zone: 'Europe/Paris',
      source: 'time zone Europe/Paris at the estimate, looked up offline: no offset in EXIF',
    });
    const winter = captureTime({ dateTimeOriginal: '2024:01:14 18:32:07' }, PARIS, 'the estimate');
    expect(winter.ok && winter.time.utc).toBe('2024-01-14T17:32:07.000Z');
    const sydney = captureTime({ dateTimeOriginal: '2024:01:26 20:05:10', offsetTime: 'garbage' }, { lat: -33.856784, lng: 151.215297 }, "the photo's GPS");
    expect(sydney.ok && sydney.time).toMatchObject({ offset: '+11:00', zone: 'Australia/Sydney', source: expect.stringContaining('EXIF offset "garbage" unreadable') });
  });

  it('DST edges: a skipped time takes the offset before the change, a repeated one the offset after it', () => {
    const gap = captureTime({ dateTimeOriginal: '2024:03:31 02:30:00' }, PARIS, 'the estimate');
    expect(gap.ok && gap.time.utc).toBe('2024-03-31T01:30:00.000Z');
    const repeat = captureTime({ dateTimeOriginal: '2024:10:27 02:30:00' }, PARIS, 'the estimate');
    expect(repeat.ok && repeat.time.utc).toBe('2024-10-27T01:30:00.000Z');
  });

  it('at sea: the nautical zone', () => {
    expect(zoneAt(0, -30)).toBe('Etc/GMT+2');
  });

  it.each([
    [{}, 'no capture time in EXIF (DateTimeOriginal)'],
    [{ dateTimeOriginal: '0000:00:00 00:00:00' }, 'EXIF DateTimeOriginal is not a date (0000:00:00 00:00:00)'],
    [{ dateTimeOriginal: '2024:02:31 10:00:00' }, 'EXIF DateTimeOriginal is not a date (2024:02:31 10:00:00)'],
  ])('no instant from %j: says why', (exif, reason) => {
    expect(captureTime(exif, PARIS, 'the estimate')).toEqual({ ok: false, reason });
  });

  it('parses the EXIF forms and refuses impossible values', () => {
    expect(wallClockMs('2024-05-14T18:32:07')).toBe(Date.UTC(2024, 4, 14, 18, 32, 7));
    expect(wallClockMs('2024:05:14 24:00:00')).toBeUndefined();
    expect([offsetMinutes('+05:45'), offsetMinutes('-10:00'), offsetMinutes('+15:00'), offsetMinutes('+02:60')]).toEqual([345, -600, undefined, undefined]);
  });
});

describe('describeSun', () => {
  it('a day: azimuth, elevation, local time and its basis, shadow direction and length', () => {
    const s = sunWitness({ dateTimeOriginal: '2024:05:14 18:32:07', offsetTime: '+02:00', offsetTimeTag: 'OffsetTimeOriginal' }, PARIS, 'estimate');
    expect(describeSun(s)).toBe('269° az, 26° elev at the estimate, 2024-05-14 18:32 there and on the photo\'s clock (UTC+02:00, EXIF OffsetTimeOriginal): shadows point E (89°), about 2.0× the height of what casts them');
    expect(s).toMatchObject({ point: 'estimate', azimuthDeg: 268.9, elevationDeg: 26.4, phase: 'day', shadow: { directionDeg: 88.9, compass: 'E', lengthRatio: 2.02 } });
  });

  it('night and twilight are said plainly; no shadow is given', () => {
    const night = sunWitness({ dateTimeOriginal: '2024:01:26 23:05:10', offsetTime: '+11:00' }, { lat: -33.856784, lng: 151.215297 }, 'photo GPS');
    expect(describeSun(night)).toMatch(/^below the horizon \(29\.\d° below, 21\d° az\) at the photo's GPS, 2024-01-26 23:05 there and on the photo's clock \(UTC\+11:00, EXIF OffsetTimeOriginal\): night, no sunlight$/);
    expect(night).not.toHaveProperty('shadow');
    const dusk = sunWitness({ dateTimeOriginal: '2024:07:03 20:50:00' }, { lat: 40.689247, lng: -74.044502 }, 'photo GPS');
    expect(describeSun(dusk)).toMatch(/^below the horizon \(\d\.\d° below, 30\d° az\) at the photo's GPS, 2024-07-03 20:50 there and on the photo's clock \(UTC-04:00, time zone America\/New_York at the photo's GPS, looked up offline: no offset in EXIF\): civil twilight, no direct sunlight, no shadows$/);
  });

  it('a camera set to another clock than the estimate\'s: where it was worked out, by name, and both clocks', () => {
    // 09:15 on a camera set to UTC+09:00 is 00:15 UTC: 18:15 the evening before in Mexico City.
    const s = sunWitness({ dateTimeOriginal: '2023:11:02 09:15:44', offsetTime: '+09:00', offsetTimeTag: 'OffsetTimeOriginal' }, { lat: 19.429, lng: -99.17 }, 'estimate', 'Roma Norte, Mexico City, Mexico');
    expect(s).toMatchObject({ place: 'Roma Norte, Mexico City, Mexico', there: { local: '2023-11-01 18:15:44', offset: '-06:00', zone: 'America/Mexico_City' } });
    expect(describeSun(s)).toMatch(/^below the horizon \(\d\.\d° below, 25\d° az\) at the estimate \(Roma Norte, Mexico City, Mexico\), 2023-11-01 18:15 there \(UTC-06:00, America\/Mexico_City\); 2023-11-02 09:15 on the photo's clock \(UTC\+09:00, EXIF OffsetTimeOriginal\): civil twilight/);
    // Same day: the photo's clock without its date. A record kept before `there` gets it worked out.
    const tokyo = sunWitness({ dateTimeOriginal: '2024:01:10 09:15:00', offsetTime: '+00:00' }, { lat: 35.6586, lng: 139.7454 }, 'estimate', 'Tokyo, Japan');
    const { there: _t, ...old } = tokyo as Exclude<typeof tokyo, { unavailable: string }>;
    for (const w of [tokyo, old]) expect(describeSun(w)).toMatch(/ at the estimate \(Tokyo, Japan\), 2024-01-10 18:15 there \(UTC\+09:00, Asia\/Tokyo\); 09:15 on the photo's clock \(UTC\+00:00, EXIF OffsetTimeOriginal\): /);
  });

  it('no capture time: says why', () => {
    expect(describeSun(sunWitness({}, PARIS, 'estimate'))).toBe('not computed: no capture time in EXIF (DateTimeOriginal)');
  });
});
