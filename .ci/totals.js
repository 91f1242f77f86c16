#!/usr/bin/env node
/**
 * Sums vitest JSON reports into the one line the CI reader recognises:
 *   N passed, N failed, N skipped
 * A test file that failed to load has no tests but a failed suite: it counts as one failure, so a
 * broken import can never turn into a green total. A missing report (the run crashed before
 * writing it) also counts as one failure.
 *
 *   node .ci/totals.js report1.json [report2.json ...]
 */
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`totals: ${file} is missing (the test run crashed?): counted as 1 failure`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  for (const s of r.testResults ?? []) {
    if (s.status === 'failed' && (s.assertionResults ?? []).length === 0) {
      console.error(`totals: ${s.name} failed to run: ${(s.message ?? '').split('\n')[0]}`);
      failed += 1;
    }
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
