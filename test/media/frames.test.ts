/**
 * Frame choice (issue 23 "Must show"), with the real ffmpeg on the fixture clips and, for the rules
 * themselves, on candidates made by hand. The clips (fixtures/clips/manifest.json): two-places.mp4
 * is Paris 0-3 s, Tokyo 3-6 s, then the Paris shot again 6-9 s; one-place.mp4 one 10 s take; both
 * 10 frames per second, so "within one frame" is 100 ms.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { type Candidate, chooseFrames, differenceHash, hammingDistance } from '../../src/media/choose.js';
import { findTools } from '../../src/media/ffmpeg.js';
import { framesOf } from '../../src/media/frames.js';
import { probeClip } from '../../src/media/probe.js';
import { sniffVideo } from '../../src/media/sniff.js';
import { CLIPS, FFMPEG, ffmpegTitle } from '../helpers/ffmpeg.js';

const manifest = JSON.parse(readFileSync(join(CLIPS, 'manifest.json'), 'utf8')) as { fps: number; clips: Array<{ file: string; scenes: Array<{ from: number; to: number; code: number }> }> };
const FRAME_MS = 1000 / manifest.fps;

async function frames(file: string, everyS: number, maxFrames = 12) {
  const tools = await findTools(process.env, 'test');
  const path = join(CLIPS, file);
  const clip = await probeClip(tools, file, path, 7_200_000);
  return framesOf(tools, file, path, clip, { everyS, scene: 0.3, maxFrames });
}
const summary = (f: Awaited<ReturnType<typeof frames>>) => f.frames.map((x) => [x.tMs, x.why]);

describe.skipIf(!FFMPEG)(ffmpegTitle('frames chosen from the fixture clips by the real ffmpeg'), () => {
  it('finds each cut within one frame of the scene change, and always takes the first frame', async () => {
    const f = await frames('two-places.mp4', 10);
    // --every 10 is longer than the clip: only the first frame and the cuts are candidates.
    const cuts = manifest.clips[0]!.scenes.slice(1).map((s) => s.from * 1000);
    expect(f.candidates).toBe(3);
    expect(f.frames[0]).toMatchObject({ tMs: 0, why: 'first', index: 0 });
    expect(f.frames[1]!.why).toBe('cut');
    expect(Math.abs(f.frames[1]!.tMs - cuts[0]!)).toBeLessThanOrEqual(FRAME_MS);
    // The cut back to Paris at 6 s is found too, and dropped: the same picture as frame 0.
    expect(f.dropped).toHaveLength(1);
    expect(Math.abs(f.dropped[0]!.tMs - cuts[1]!)).toBeLessThanOrEqual(FRAME_MS);
    expect(f.dropped[0]).toMatchObject({ why: 'duplicate', of: 0 });
  });

  it('takes a frame at least every --every seconds in a long take', async () => {
    // One 10 s take, no cut: --every 3 gives 0, 3, 6, 9 s; the default (10 s) the first frame only.
    expect(summary(await frames('one-place.mp4', 3))).toEqual([[0, 'first'], [3000, 'interval'], [6000, 'interval'], [9000, 'interval']]);
    expect(summary(await frames('one-place.mp4', 10))).toEqual([[0, 'first']]);
  });

  it('drops near-duplicates: the replayed shot is not sent again', async () => {
    // --every 2: candidates 0, 2, 3 (cut), 5, 6 (cut back), 8. 6 and 8 repeat 0 and 2.
    const f = await frames('two-places.mp4', 2);
    expect(f.candidates).toBe(6);
    expect(summary(f)).toEqual([[0, 'first'], [2000, 'interval'], [3000, 'cut'], [5000, 'interval']]);
    expect(f.dropped).toEqual([{ tMs: 6000, why: 'duplicate', of: 0 }, { tMs: 8000, why: 'duplicate', of: 1 }]);
    // Each frame stands for its stretch, the duplicates' stretches included.
    expect([...f.spans]).toEqual([[0, [[0, 2000], [6000, 8000]]], [1, [[2000, 3000], [8000, 9000]]], [2, [[3000, 5000]]], [3, [[5000, 6000]]]]);
  });

  it('the cap spreads the frames over the clip', async () => {
    // --every 1: ten candidates at 0..9 s. --max-frames 4 aims at 0, 2.5, 5 and 7.5 s and takes the
    // nearest (ties to the earlier): 0, 2, 5, 7. A dropped interval frame is still the same shot.
    const f = await frames('one-place.mp4', 1, 4);
    expect(f.candidates).toBe(10);
    expect(f.frames.map((x) => x.tMs)).toEqual([0, 2000, 5000, 7000]);
    expect(f.dropped.map((d) => [d.tMs, d.why])).toEqual([1000, 3000, 4000, 6000, 8000, 9000].map((t) => [t, 'cap']));
    expect([...f.spans].map(([i, s]) => [i, s[0]![0], s[s.length - 1]![1]])).toEqual([[0, 0, 2000], [1, 2000, 5000], [2, 5000, 7000], [3, 7000, 10000]]);
  });

  it('gives the same bytes on every run (a rerun after a crash sends the same sha256s)', async () => {
    const a = await frames('two-places.mp4', 2);
    const b = await frames('two-places.mp4', 2);
    expect(a.frames.map((x) => x.sha256)).toEqual(b.frames.map((x) => x.sha256));
    for (const x of a.frames) expect([...x.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });
});

describe('frame choice rules on hand-made candidates', () => {
  const c = (tMs: number, hash: string, why: Candidate['why'] = 'interval'): Candidate => ({ pts: tMs, tMs, hash, why });
  it('a candidate within 6 bits of a kept frame is its duplicate; the cap spreads the rest', () => {
    // 0 and 1 differ in 3 bits (a duplicate); 2 and 3 differ from everything in ≥ 8 bits.
    const choice = chooseFrames([c(0, '0000000000000000', 'first'), c(1000, '0000000000000007'), c(2000, '00000000000000ff', 'cut'), c(3000, 'ff00000000000000')], { maxFrames: 2, durationMs: 4000 });
    // Kept 0, 2000, 3000; cap 2 aims at 0 and 2000.
    expect(choice.frames.map((f) => [f.index, f.tMs])).toEqual([[0, 0], [1, 2000]]);
    expect(choice.dropped).toEqual([{ tMs: 1000, why: 'duplicate', of: 0 }, { tMs: 3000, why: 'cap' }]);
    // 3000 was an interval frame after the cut at 2000: the same shot, so frame 1 stands for it.
    expect([...choice.spans]).toEqual([[0, [[0, 1000], [1000, 2000]]], [1, [[2000, 3000], [3000, 4000]]]]);
  });

  it('a cut dropped by the cap stands for nothing: its shot was not seen', () => {
    const choice = chooseFrames([c(0, '0000000000000000', 'first'), c(1000, 'ffffffff00000000', 'cut'), c(2000, '00000000ffffffff', 'cut')], { maxFrames: 2, durationMs: 3000 });
    // Targets 0 and 1500: 0, then 1000 (500 from 1500, as 2000 is; ties to the earlier).
    expect(choice.frames.map((f) => f.tMs)).toEqual([0, 1000]);
    expect([...choice.spans]).toEqual([[0, [[0, 1000]]], [1, [[1000, 2000]]]]);
  });

  it('the difference hash: bit = left pixel darker than its right neighbour, row by row', () => {
    const grey = new Uint8Array(72);
    for (let y = 0; y < 8; y++) for (let x = 0; x < 9; x++) grey[y * 9 + x] = x * 10; // brighter to the right: all 1s
    expect(differenceHash(grey)).toBe('ffffffffffffffff');
    expect(hammingDistance('ffffffffffffffff', '0f0f0f0f0f0f0f0f')).toBe(32);
  });
});

describe('videos recognised by their bytes', () => {
  const box = (type: string, rest = '') => Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from(type + rest, 'latin1'), Buffer.alloc(8)]);
  it('MP4, MOV, Matroska, WebM and AVI are videos; AVIF, HEIC and JPEG are not', () => {
    expect(sniffVideo(box('ftyp', 'isom'))).toBe('mp4');
    expect(sniffVideo(box('ftyp', 'qt  '))).toBe('mov');
    expect(sniffVideo(box('moov'))).toBe('mov');
    expect(sniffVideo(Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84]), Buffer.from('webm')]))).toBe('webm');
    expect(sniffVideo(Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x82, 0x88]), Buffer.from('matroska')]))).toBe('mkv');
    expect(sniffVideo(Buffer.from('RIFF\x10\0\0\0AVI LIST', 'latin1'))).toBe('avi');
    expect(sniffVideo(box('ftyp', 'avif'))).toBeUndefined();
    expect(sniffVideo(box('ftyp', 'heic'))).toBeUndefined();
    expect(sniffVideo(readFileSync(new URL('../../fixtures/images/paris.jpg', import.meta.url)))).toBeUndefined();
  });
});

describe('ffmpeg found, never downloaded', () => {
  const reject = async (env: Record<string, string>) => {
    const err = await findTools(env, 'locating the video clip.mp4').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  };
  it('none on PATH: one line saying how to install it', async () => {
    const e = await reject({ PATH: mkdtempSync(join(tmpdir(), 'geo-empty-path-')) });
    expect(e.message).toBe('locating the video clip.mp4 needs ffmpeg, and none was found (GEO_FFMPEG, then PATH); nothing was sent');
    expect(e.hint).toMatch(/apt-get install ffmpeg.*brew install ffmpeg.*GEO_FFMPEG/);
  });

  it('GEO_FFMPEG that is not a program, and an ffmpeg older than 4.4, are refused', async () => {
    expect((await reject({ GEO_FFMPEG: '/nonexistent/ffmpeg', PATH: '' })).message).toMatch(/^GEO_FFMPEG=\/nonexistent\/ffmpeg: not an executable file/);
    const dir = mkdtempSync(join(tmpdir(), 'geo-old-ffmpeg-'));
    for (const name of ['ffmpeg', 'ffprobe']) {
      writeFileSync(join(dir, name), '#!/bin/sh\necho "ffmpeg version 3.4.11-0ubuntu0.1 Copyright (c) 2000-2022 the FFmpeg developers"\n');
      chmodSync(join(dir, name), 0o755);
    }
    expect((await reject({ PATH: dir })).message).toMatch(/^ffmpeg 3\.4\.11-0ubuntu0\.1 is too old: geo needs 4\.4 or newer/);
  });
});
