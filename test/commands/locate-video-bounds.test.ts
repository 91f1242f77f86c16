/**
 * Bounded media (issue 30), the built binary against a sandbox, as a user runs it: a clip's size is
 * read (ffprobe) before any frame is decoded, and frames past the pixel limit images have are
 * refused; random bytes named x.mp4 are refused as a video; ffmpeg and ffprobe that hang are
 * stopped at their timeout with their whole process group, leaving no frames behind, and what a
 * geo killed with SIGKILL left in the temporary folder is removed by the next one.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GEO_BIN, binEnv, finished, spawnGeo } from '../helpers/run-cli.js';
import { CLIPS, FFMPEG, ffmpegTitle } from '../helpers/ffmpeg.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { footprint } from './locate-helpers.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const REAL_FFMPEG = execFileSync('sh', ['-c', 'command -v ffmpeg || true']).toString().trim();
const REAL_FFPROBE = execFileSync('sh', ['-c', 'command -v ffprobe || true']).toString().trim();
const TWO = join(CLIPS, 'two-places.mp4');

/** geo with its own temporary folder (TMPDIR), so what it leaves there is this test's to see. */
function geoIn(tmpDir: string, argv: string[], env: Record<string, string> = {}) {
  return spawnGeo(argv, { env: { GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, GEO_STATE_DIR: tmp('geo-vb-state-'), GEO_DATA_DIR: tmp('geo-vb-data-'), TMPDIR: tmpDir, ...env } });
}
const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error:'));
const frameFolders = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('geo-frames-'));

/** A shell script standing in for ffmpeg or ffprobe. */
function fakeTool(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}
/** The pids a hanging fake wrote: itself (its group's leader) and the child it started. */
const pidsIn = (file: string) => readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
/** Hangs, with a child of its own in its process group, after writing both pids to $1. */
const HANG = (pidFile: string) => `sleep 100000 &\necho "$$ $!" > ${pidFile}\nwait`;

/** Gone: no such process, or a zombie waiting for init to reap it (killed, not running). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}
async function allGone(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 30 && !pids.every(gone); i++) await new Promise((r) => setTimeout(r, 100));
  return pids.every(gone);
}
const killAll = (pids: number[]) => pids.forEach((p) => {
  try {
    process.kill(p, 'SIGKILL');
  } catch {
    /* gone */
  }
});

describe('random bytes named like a video', () => {
  it('x.mp4 of random bytes: one line that speaks of video, exit 2, nothing sent', async () => {
    const dir = tmp('geo-vb-rand-');
    const file = join(dir, 'x.mp4');
    writeFileSync(file, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251)));
    const before = footprint(sb);
    const r = await geoIn(dir, ['locate', file]);
    expect(r.code).toBe(2);
    expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/^error: \S+x\.mp4 is named like a video \(\.mp4\) but its bytes are not a video geo can read \(unrecognised bytes\): MP4 or MOV, WebM or Matroska, or AVI expected; nothing was sent/)]);
    expect(r.stderr).not.toMatch(/not an image/);
    expect(footprint(sb)).toEqual(before);
  });
});

describe.skipIf(!FFMPEG)(ffmpegTitle('a clip past the pixel limit'), () => {
  let big: string;
  let dir: string;
  beforeAll(() => {
    dir = tmp('geo-vb-big-');
    big = join(dir, 'huge.mp4');
    // 12000 x 12000 = 144 MP, one frame of one colour: a few hundred KB on disk.
    execFileSync(REAL_FFMPEG, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=blue:s=12000x12000:d=0.1:r=10', '-c:v', 'libx264', '-preset', 'ultrafast', big]);
  }, 120_000);

  it('12000x12000: refused from ffprobe\'s answer, before ffmpeg decodes a frame; exit 2, nothing sent', async () => {
    // An ffmpeg that logs how it is called, then is the real one.
    const log = join(dir, 'calls.log');
    const ffmpeg = fakeTool(dir, 'ffmpeg-logged', `echo "$*" >> ${log}\nexec ${REAL_FFMPEG} "$@"`);
    const before = footprint(sb);
    const r = await geoIn(dir, ['locate', big], { GEO_FFMPEG: ffmpeg, GEO_FFPROBE: REAL_FFPROBE });
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/^error: \S+huge\.mp4: the video's frames are 12,000 x 12,000 pixels \(144 MP\), above the 120 MP geo decodes; nothing was sent/)]);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['-hide_banner -version']);
    expect(footprint(sb)).toEqual(before);
  });

  it('an ffprobe that reports small frames does not get them decoded: ffmpeg itself refuses past the limit (-max_pixels)', async () => {
    // The lie: ffprobe describes the small fixture clip instead.
    const ffprobe = fakeTool(dir, 'ffprobe-lies', `for a; do last=$a; done\ncase "$last" in *huge.mp4) exec ${REAL_FFPROBE} -v error -print_format json -show_format -show_streams file:${TWO};; esac\nexec ${REAL_FFPROBE} "$@"`);
    const before = footprint(sb);
    const r = await geoIn(dir, ['locate', big], { GEO_FFPROBE: ffprobe });
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/^error: \S+huge\.mp4: the video's frames are 12,0\d\d x 12,000 pixels \(144 MP\), above the 120 MP geo decodes; nothing was sent/)]);
    expect(footprint(sb)).toEqual(before);
  });
});

describe.skipIf(!FFMPEG)(ffmpegTitle('ffmpeg and ffprobe that hang are stopped with their process group'), () => {
  it('GEO_FFPROBE that sleeps forever: exit 2 at its timeout (10 s + 1 s per 100 MB), its group gone, no folder left', async () => {
    const dir = tmp('geo-vb-probe-');
    const pids = join(dir, 'pids');
    const ffprobe = fakeTool(dir, 'ffprobe', HANG(pids));
    const t0 = Date.now();
    const r = await geoIn(dir, ['locate', TWO], { GEO_FFPROBE: ffprobe });
    const s = (Date.now() - t0) / 1000;
    const started = pidsIn(pids);
    try {
      expect(r.code, r.stderr).toBe(2);
      expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/^error: \S+two-places\.mp4: ffprobe did not finish within 11 s \(10 s \+ 1 s per 100 MB of the file\), so geo stopped it and everything it started; nothing was sent/)]);
      expect(s).toBeGreaterThanOrEqual(10);
      expect(s).toBeLessThan(40);
      expect(await allGone(started)).toBe(true);
      expect(frameFolders(dir)).toEqual([]);
    } finally {
      killAll(started);
    }
  }, 60_000);

  it('GEO_FFMPEG whose frame pass writes a frame and hangs: exit 2 at the pass timeout, its group gone, no frame left', async () => {
    const dir = tmp('geo-vb-pass-');
    const pids = join(dir, 'pids');
    const clip = join(dir, 'one-second.mp4');
    execFileSync(REAL_FFMPEG, ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=320x180:d=1:r=10', '-c:v', 'libx264', '-preset', 'ultrafast', clip]);
    // Pass 2 (the one that writes JPEGs with image2) leaves a frame in geo's folder, then hangs.
    const ffmpeg = fakeTool(dir, 'ffmpeg', `case "$*" in *image2*) for a; do last=$a; done; echo partial > "$(dirname "$last")/000000.jpg"; ${HANG(pids)};; esac\nexec ${REAL_FFMPEG} "$@"`);
    const t0 = Date.now();
    const r = await geoIn(dir, ['locate', clip], { GEO_FFMPEG: ffmpeg, GEO_FFPROBE: REAL_FFPROBE });
    const s = (Date.now() - t0) / 1000;
    const started = pidsIn(pids);
    try {
      expect(r.code, r.stderr).toBe(2);
      // 10 s + 2 s x 1 s of clip x max(1, 320 x 180 x 10 / (1920 x 1080 x 30)) = 12 s
      expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/^error: \S+one-second\.mp4: ffmpeg \(writing the chosen frames\) did not finish within 12 s \(10 s \+ 2 s per second of 1080p30-equivalent video: 0:01 of 320×180 at 10 fps\)/)]);
      expect(s).toBeGreaterThanOrEqual(12);
      expect(s).toBeLessThan(45);
      expect(await allGone(started)).toBe(true);
      expect(frameFolders(dir)).toEqual([]);
    } finally {
      killAll(started);
    }
  }, 60_000);

  it('GEO_FFMPEG that hangs on -version: exit 2 after 10 s, its group gone', async () => {
    const dir = tmp('geo-vb-version-');
    const pids = join(dir, 'pids');
    const ffmpeg = fakeTool(dir, 'ffmpeg', HANG(pids));
    const r = await geoIn(dir, ['locate', TWO], { GEO_FFMPEG: ffmpeg, GEO_FFPROBE: REAL_FFPROBE });
    const started = pidsIn(pids);
    try {
      expect(r.code, r.stderr).toBe(2);
      expect(errorLines(r.stderr)).toEqual([expect.stringMatching(/did not answer -version within 10 s, so geo stopped it; nothing was sent/)]);
      expect(await allGone(started)).toBe(true);
    } finally {
      killAll(started);
    }
  }, 60_000);
});

describe.skipIf(!FFMPEG)(ffmpegTitle('a geo killed with SIGKILL mid-extraction'), () => {
  /** geo (the built binary) until `ready` exists, then SIGKILL; its pid. */
  async function killedWhen(ready: string, env: Record<string, string | undefined>): Promise<number> {
    const child = spawn(process.execPath, [GEO_BIN, 'locate', TWO], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const done = finished(child);
    for (let i = 0; i < 300 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(ready)).toBe(true);
    child.kill('SIGKILL');
    await done;
    return child.pid!;
  }

  it('the ffmpeg writing the frames ends with it: a real ffmpeg that would run for minutes is gone within seconds', async () => {
    const dir = tmp('geo-vb-tether-');
    const pidFile = join(dir, 'ffmpeg.pid');
    // The frame pass, as geo starts it, read at the clip's own pace (-re) and looped: the real
    // ffmpeg, given minutes of work. Its pid is its own (exec).
    const ffmpeg = fakeTool(dir, 'ffmpeg', `case "$*" in *image2*) echo $$ > ${pidFile}.part; mv ${pidFile}.part ${pidFile}; exec ${REAL_FFMPEG} -re -stream_loop 100 "$@";; esac\nexec ${REAL_FFMPEG} "$@"`);
    const env = binEnv({ GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, GEO_STATE_DIR: tmp('geo-vb-state-'), GEO_DATA_DIR: tmp('geo-vb-data-'), TMPDIR: dir, GEO_FFMPEG: ffmpeg, GEO_FFPROBE: REAL_FFPROBE });
    await killedWhen(pidFile, env);
    const pid = pidsIn(pidFile)[0]!;
    try {
      expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe('ffmpeg');
    } catch (err) {
      // Gone before it could be looked at: what the test wants.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    try {
      expect(await allGone([pid])).toBe(true);
    } finally {
      killAll([pid]);
    }
  }, 60_000);

  it('leaves its folder (a frame in it), its tools gone with it; the next geo removes the folder, then works', async () => {
    const dir = tmp('geo-vb-kill-');
    const pids = join(dir, 'pids');
    const ffmpeg = fakeTool(dir, 'ffmpeg', `case "$*" in *image2*) for a; do last=$a; done; echo partial > "$(dirname "$last")/000000.jpg"; ${HANG(pids)};; esac\nexec ${REAL_FFMPEG} "$@"`);
    const env = binEnv({ GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, GEO_STATE_DIR: tmp('geo-vb-state-'), GEO_DATA_DIR: tmp('geo-vb-data-'), TMPDIR: dir, GEO_FFMPEG: ffmpeg, GEO_FFPROBE: REAL_FFPROBE });
    // Mid-extraction: the hanging pass has written its pids (after its frame).
    const geoPid = await killedWhen(pids, env);
    const orphan = pidsIn(pids);
    try {
      const left = frameFolders(dir);
      expect(left).toEqual([expect.stringMatching(new RegExp(`^geo-frames-${geoPid}-`))]);
      expect(readdirSync(join(dir, left[0]!))).toContain('000000.jpg');
      // The tool and the child it started went with geo (the tether), not at the next run.
      expect(await allGone(orphan)).toBe(true);

      // The next geo (the real ffmpeg this time) removes the folder first, then locates the clip.
      const r = await geoIn(dir, ['locate', TWO, '--json'], { GEO_FFMPEG: REAL_FFMPEG, GEO_FFPROBE: REAL_FFPROBE });
      expect(r.code, r.stderr).toBe(0);
      expect(frameFolders(dir)).toEqual([]);
    } finally {
      killAll(orphan);
    }
  }, 90_000);
});
