/**
 * Issue 6 "Must show": `geo inspect --json` against `exiftool -n -j` on every photo of
 * ../shared/photos, every GPS value within 1e-6 degrees. Skipped, saying why, when exiftool
 * (Debian: libimage-exiftool-perl) or the photos folder is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const PHOTOS = new URL('../../../shared/photos/', import.meta.url).pathname;
const files = existsSync(PHOTOS) ? readdirSync(PHOTOS).filter((f) => !f.endsWith('.md')).sort() : [];

function exiftoolVersion(): string | undefined {
  try {
    return execFileSync('exiftool', ['-ver'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}
const version = exiftoolVersion();
const skipReason = files.length === 0 ? '../shared/photos is not present' : !version ? 'exiftool is not installed (apt-get install libimage-exiftool-perl)' : '';

interface ExifTool {
  SourceFile: string;
  GPSLatitude?: number;
  GPSLongitude?: number;
  GPSAltitude?: number;
  GPSImgDirection?: number;
  DateTimeOriginal?: string;
  Make?: string;
  Model?: string;
  ImageWidth?: number;
  ImageHeight?: number;
}

interface Ours {
  input: string;
  ok: boolean;
  width?: number;
  height?: number;
  exif: { gps?: { lat: number; lng: number; altitude?: number; direction?: number }; dateTimeOriginal?: string; make?: string; model?: string };
}

describe(`geo inspect --json vs exiftool -n${skipReason ? ` (skipped: ${skipReason})` : ` ${version}`}`, () => {
  it.skipIf(Boolean(skipReason))(`all ${files.length} photos: GPS within 1e-6, date, camera and size as exiftool reads them`, async () => {
    const args = ['-n', '-j', '-GPSLatitude', '-GPSLongitude', '-GPSAltitude', '-GPSImgDirection', '-DateTimeOriginal', '-Make', '-Model', '-ImageWidth', '-ImageHeight'];
    const tool = JSON.parse(execFileSync('exiftool', [...args, ...files.map((f) => PHOTOS + f)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as ExifTool[];
    const run = await runCli(['inspect', '--json', ...files.map((f) => PHOTOS + f)]);
    expect(run.code, run.stderr).toBe(0);
    const ours = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Ours);
    expect(ours).toHaveLength(files.length);

    let gpsCompared = 0;
    for (const t of tool) {
      const o = ours.find((r) => r.input === t.SourceFile)!;
      const where = t.SourceFile.slice(PHOTOS.length);
      expect(o, where).toBeDefined();
      expect(o.ok, where).toBe(true);
      const gps = o.exif.gps;
      if (t.GPSLatitude === undefined) expect(gps, where).toBeUndefined();
      else {
        expect(Math.abs(gps!.lat - t.GPSLatitude), `${where} latitude`).toBeLessThan(1e-6);
        expect(Math.abs(gps!.lng - t.GPSLongitude!), `${where} longitude`).toBeLessThan(1e-6);
        gpsCompared++;
      }
      if (t.GPSAltitude !== undefined) expect(Math.abs(gps!.altitude! - t.GPSAltitude), `${where} altitude`).toBeLessThan(1e-6);
      // exiftool prints GPSImgDirection to 7 decimals.
      if (t.GPSImgDirection !== undefined) expect(Math.abs(gps!.direction! - t.GPSImgDirection), `${where} direction`).toBeLessThan(1e-6);
      expect(o.exif.dateTimeOriginal, `${where} DateTimeOriginal`).toBe(t.DateTimeOriginal);
      expect(o.exif.make, `${where} Make`).toBe(t.Make);
      expect(o.exif.model, `${where} Model`).toBe(t.Model);
      expect([o.width, o.height], `${where} size`).toEqual([t.ImageWidth, t.ImageHeight]);
    }
    expect(gpsCompared).toBeGreaterThanOrEqual(12);
    // Said in the test output, as the issue's "Must show" asks.
    console.log(`exiftool ${version}: ${tool.length} photos compared, ${gpsCompared} with GPS, all within 1e-6 degrees`);
  });
});
