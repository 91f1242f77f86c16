/**
 * `geo … | head` and `geo … 2>&1 | head`: when the reader closes the pipe, geo stops quietly
 * (exit 0, no EPIPE stack), as Unix tools do, whichever stream notices first and whatever code
 * path writes (commander's help, a command's render, NDJSON/CSV lines during a --resume).
 * Runs the built binary with its stdout (and stderr) closed before it writes.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GEO_BIN, binEnv, spawnGeo } from '../helpers/run-cli.js';

const built = existsSync(new URL('../../dist/cli.js', import.meta.url));
const PHOTOS = new URL('../../fixtures/images/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'geo-pipe-'));
const env = binEnv({ GEO_CONFIG_DIR: join(dir, 'config'), GEO_STATE_DIR: join(dir, 'state'), GEO_DATA_DIR: join(dir, 'data') });
const journal = join(dir, 'j.ndjson');

/** Runs geo with stdout closed (and stderr too when `both`, as `2>&1 | head` does). */
async function closedPipe(argv: string[], both: boolean): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [GEO_BIN, ...argv], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy(); // the reader leaves before the first byte
  let stderr = '';
  if (both) child.stderr.destroy();
  else child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, stderr };
}

describe.runIf(built)('broken pipe', () => {
  beforeAll(async () => {
    // A journal of a finished batch (exit 7: blocked.png fails screening), for --resume below.
    expect((await spawnGeo(['--sandbox', 'locate', PHOTOS, '--journal', journal, '--format', 'ndjson'], { env })).code).toBe(7);
  }, 60_000);

  const cases: string[][] = [
    ['locate', '--help'],
    ['completion', 'bash'],
    ['--version'],
    ['version'],
    [],
    ['--sandbox', 'credits'],
    ['--sandbox', 'locate', '--resume', journal, '--format', 'csv'],
    ['--sandbox', 'locate', '--resume', journal, '--format', 'ndjson'],
  ];
  for (const argv of cases) {
    for (const both of [false, true]) {
      it(`geo ${argv.join(' ').replace(dir, 'DIR') || '(nothing)'}${both ? ' 2>&1' : ''} with its reader gone: exit 0, no stack`, async () => {
        const r = await closedPipe(argv, both);
        expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
        expect(r.code).toBe(0);
      }, 30_000);
    }
  }
});
