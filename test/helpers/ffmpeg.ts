/** ffmpeg for the video tests (issue 23): found as geo finds it; tests skip with this reason when it is missing. */
import { spawnSync } from 'node:child_process';

const has = (cmd: string) => spawnSync(cmd, ['-version'], { stdio: 'ignore' }).status === 0;

/** Debian's ffmpeg (ffmpeg and ffprobe); .ci/run installs it when missing. */
export const FFMPEG = has(process.env.GEO_FFMPEG ?? 'ffmpeg') && has(process.env.GEO_FFPROBE ?? 'ffprobe');
export const FFMPEG_SKIP = 'ffmpeg missing: apt-get install -y ffmpeg';
/** The title suffix of a suite that needs ffmpeg: says it skipped and why. */
export const ffmpegTitle = (title: string) => `${title}${FFMPEG ? '' : ` (skipped: ${FFMPEG_SKIP})`}`;

export const CLIPS = new URL('../../fixtures/clips/', import.meta.url).pathname;
