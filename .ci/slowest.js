#!/usr/bin/env node
/**
 * The slowest test files of vitest JSON reports, so the next change sees where the suite's time
 * goes (.ci/run prints them at the end, from the report each Node's run writes):
 *
 *   node .ci/slowest.js [--top 10] .cache/ci/vitest-node20.json .cache/ci/vitest-node24.json
 *
 * A file's time is its wall time in a run (its report's endTime - startTime: collection, hooks and
 * tests); one column per report, named from the file (vitest-node20.json -> node20), ranked by the
 * sum. A report that is missing (that run crashed or was not made) is named and left out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';

const args = process.argv.slice(2);
let top = 10;
const at = args.indexOf('--top');
if (at >= 0) {
  top = Number(args[at + 1]);
  args.splice(at, 2);
}
const root = new URL('..', import.meta.url).pathname;

const labels = [];
/** file -> seconds per report */
const times = new Map();
for (const file of args) {
  if (!existsSync(file)) {
    console.log(`slowest: ${file} is missing, left out`);
    continue;
  }
  const label = basename(file, '.json').replace(/^vitest-/, '');
  const column = labels.push(label) - 1;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const r of report.testResults ?? []) {
    if (!(r.endTime >= r.startTime)) continue;
    const name = relative(root, r.name);
    const row = times.get(name) ?? [];
    row[column] = (r.endTime - r.startTime) / 1000;
    times.set(name, row);
  }
}
if (labels.length > 0) {
  const sum = (row) => row.reduce((a, b) => a + (b ?? 0), 0);
  const rows = [...times].sort((a, b) => sum(b[1]) - sum(a[1])).slice(0, top);
  console.log(`the ${rows.length} slowest test files (wall seconds: ${labels.join(', ')}):`);
  for (const [name, row] of rows) console.log(`  ${labels.map((_, i) => (row[i] === undefined ? '-' : row[i].toFixed(1)).padStart(7)).join(' ')}  ${name}`);
}
