/**
 * bench/video (issue 30, "Bounded media"): what a clip past the pixel limit costs. A 12000 x 12000
 * clip (144 MP, one frame of one colour, made with ffmpeg's lavfi) goes through `geo --sandbox
 * locate`; ffmpeg and ffprobe run under GNU time (wrapper scripts as GEO_FFMPEG / GEO_FFPROBE), so
 * each call's peak RSS is printed, with geo's own. Before issue 30 the frame was decoded and sent
 * (ffmpeg peaked at 827 MB); now ffprobe's answer refuses it and ffmpeg only answers -version.
 *
 *   node bench/video.mjs [--size 12000]
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GEO_BIN, GNU_TIME, benchEnv, load, measure, needBuild, printRows, row } from './lib.mjs';

const { values } = parseArgs({ options: { size: { type: 'string', default: '12000' } } });
needBuild();
if (!GNU_TIME) throw new Error('bench/video needs GNU time (/usr/bin/time) to measure ffmpeg');
const which = (cmd) => execFileSync('sh', ['-c', `command -v ${cmd}`]).toString().trim();
const dir = mkdtempSync(join(tmpdir(), 'geo-bench-video-'));
const clip = join(dir, 'huge.mp4');
const n = Number(values.size);
execFileSync(which('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `color=c=blue:s=${n}x${n}:d=0.1:r=10`, '-c:v', 'libx264', '-preset', 'ultrafast', clip]);

const log = join(dir, 'rss.log');
const wrap = (name) => {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nexec ${GNU_TIME} -a -o ${log} -f "${name} %M KB: $*" ${which(name)} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
};
const env = benchEnv({ GEO_FFMPEG: wrap('ffmpeg'), GEO_FFPROBE: wrap('ffprobe'), GEO_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'geo-bench-cfg-')), GEO_STATE_DIR: dir, GEO_DATA_DIR: dir });
console.log(`bench/video: ${n} x ${n} clip (${((n * n) / 1e6).toFixed(0)} MP); load ${load()}`);
const r = await measure(process.execPath, [GEO_BIN, '--sandbox', 'locate', clip], env);
console.log(`  geo exit ${r.code}: ${r.err.split('\n').find((l) => l.startsWith('error:')) ?? '(no error line)'}`);
const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter((l) => / KB: /.test(l)) : [];
for (const c of calls) console.log(`  ${c.slice(0, 140)}`);
const peak = (tool) => Math.max(0, ...calls.filter((c) => c.startsWith(`${tool} `)).map((c) => Number(/ (\d+) KB/.exec(c)[1])));
printRows([
  // GNU time's figure for geo is the largest of geo and the tools it waited for.
  row('geo and its tools, peak RSS', r.rssKb / 1024, 'MB'),
  row('ffprobe peak RSS', peak('ffprobe') / 1024, 'MB'),
  row('ffmpeg peak RSS (every call)', peak('ffmpeg') / 1024, 'MB', 'was 827 MB'),
  row('ffmpeg calls that decode', calls.filter((c) => c.startsWith('ffmpeg ') && !/-version/.test(c)).length, '', '0 past the limit'),
]);
