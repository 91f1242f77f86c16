/**
 * `geo … | head`: when the reader closes the pipe, geo stops quietly (exit 0, no EPIPE stack),
 * as Unix tools do. Runs the built binary with its stdout closed before it writes.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GEO_BIN, binEnv } from '../helpers/run-cli.js';

const built = existsSync(new URL('../../dist/cli.js', import.meta.url));

describe.runIf(built)('broken pipe on stdout', () => {
  for (const argv of [['locate', '--help'], ['completion', 'bash']]) {
    it(`geo ${argv.join(' ')} with its reader gone: exit 0, no stack on stderr`, async () => {
      const child = spawn(process.execPath, [GEO_BIN, ...argv], {
        env: binEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy(); // the reader leaves before the first byte
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
      expect(code).toBe(0);
    });
  }
});
