/**
 * The fixture clips (issue 23): fixtures/make-fixtures.js makes them with ffmpeg, and what they show
 * is what the manifest says: each second of each clip carries the scene marker of its scene
 * (read back by the sandbox's own reader), the regenerated manifest lists the same scenes. Bytes
 * are not compared: they are only as stable as the ffmpeg that encoded them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMarker } from '../src/sandbox/marker.js';
import { CLIPS, FFMPEG, ffmpegTitle } from './helpers/ffmpeg.js';

interface Manifest {
  clips: Array<{ file: string; seconds: number; scenes: Array<{ from: number; to: number; code: number }> }>;
}
const manifest = JSON.parse(readFileSync(join(CLIPS, 'manifest.json'), 'utf8')) as Manifest;

describe.skipIf(!FFMPEG)(ffmpegTitle('fixtures/clips'), () => {
  const tmp = mkdtempSync(join(tmpdir(), 'geo-clips-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('every second of every clip carries the marker of its scene', async () => {
    for (const c of manifest.clips) {
      const codes: number[] = [];
      for (let s = 0; s < c.seconds; s++) {
        const jpeg = execFileSync('ffmpeg', ['-loglevel', 'error', '-ss', `${s + 0.5}`, '-i', join(CLIPS, c.file), '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', 'pipe:1']);
        codes.push((await readMarker(jpeg))?.code ?? -1);
      }
      const expected = Array.from({ length: c.seconds }, (_, s) => c.scenes.find((x) => s >= x.from && s < x.to)!.code);
      expect(codes, c.file).toEqual(expected);
    }
  });

  it('make-fixtures.js regenerates the same clips, manifest scenes and truth file', () => {
    execFileSync(process.execPath, [new URL('../fixtures/make-fixtures.js', import.meta.url).pathname, join(tmp, 'images'), join(tmp, 'clips')]);
    expect(readdirSync(join(tmp, 'clips')).sort()).toEqual(readdirSync(CLIPS).sort());
    const again = JSON.parse(readFileSync(join(tmp, 'clips', 'manifest.json'), 'utf8')) as Manifest;
    expect(again.clips.map((c) => [c.file, c.seconds, c.scenes])).toEqual(manifest.clips.map((c) => [c.file, c.seconds, c.scenes]));
    expect(readFileSync(join(tmp, 'clips', 'truth.csv'), 'utf8')).toBe(readFileSync(join(CLIPS, 'truth.csv'), 'utf8'));
  });
});
