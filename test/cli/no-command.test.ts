/**
 * `geo` alone shows the help on stdout and exits 0 (clig.dev); `geo cases` without a command shows
 * that noun's help on stderr and exits 2; a typo is one line with a suggestion.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('missing or mistyped commands', () => {
  it('geo (nothing): the root help on stdout, exit 0, nothing on stderr', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: geo/);
    expect(r.stdout).toContain('Commands:');
    expect(r.stderr).toBe('');
  });

  for (const argv of [['cases'], ['keys'], ['config']]) {
    it(`geo ${argv.join(' ')}: help on stderr, exit 2, no error line`, async () => {
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
