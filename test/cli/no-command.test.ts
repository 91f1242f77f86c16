/** `geo` or `geo cases` without a command: the help on stderr, exit 2, and no stray error line. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('missing or mistyped commands', () => {
  for (const argv of [[], ['cases'], ['keys'], ['config']]) {
    it(`geo ${argv.join(' ') || '(nothing)'}: help on stderr, exit 2, no error line`, async () => {
      const r = await runCli(argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^Usage: geo/);
      expect(r.stderr).not.toMatch(/^error:/m);
    });
  }

  it('a mistyped command is one line with the suggestion and a hint', async () => {
    const r = await runCli(['locat', 'x.jpg']);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual(["error: unknown command 'locat' (Did you mean locate?) — hint: see `geo --help` or `geo <command> --help`"]);
  });
});
