/**
 * The test files whose outcome does not depend on the Node version geo runs on: they drive a real
 * PostgreSQL (and PgBouncer), a pseudo-terminal, a browser (chromium renders the HTML report), or
 * npm installing the packed package. .ci/run runs them under Node 20 only: its Node 24 run sets
 * GEO_TEST_ONCE=skip, and test/vitest.config.ts leaves them out. Found by what they call, so a new
 * file of the kind is covered without a list to keep (test/reporters/once-files.test.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

/** A call that starts one of those: the helpers of test/helpers/postgres.ts, pgbouncer.ts, test/pty/pty.ts, test/report/chromium.ts. */
const STARTS = /\b(startPostgres|postgresPerFile|startPgBouncer|pgbouncerPerFile|spawnGeoInPty|dumpDom|dumpDomAtLoad|screenshot|screenshotAtLoad|printToPdfAtLoad)\(/;

/** Files named for what they do rather than what they call: npm packs and installs the package. */
const NAMED = ['test/install/packed.test.ts'];

/** The run-once test files, relative to the repository, sorted. */
export function onceFiles(root = ROOT): string[] {
  const files = (readdirSync(join(root, 'test'), { recursive: true }) as string[]).filter((f) => f.endsWith('.test.ts')).map((f) => `test/${f}`);
  return files.filter((f) => NAMED.includes(f) || STARTS.test(readFileSync(join(root, f), 'utf8'))).sort();
}
