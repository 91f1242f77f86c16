/**
 * The root help lists the nouns from a recorder (src/root-help.ts listNouns) instead of building each one
 * with all its flags. Each line must be what the fully registered noun gives: same order, usage
 * term and description.
 */
import { PassThrough } from 'node:stream';
import { type Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { NOUN_NAMES, REGISTERED_NOUNS, buildProgram, processProbe } from '../../src/cli.js';
import { recordedTerms } from '../../src/root-help.js';
import { runCli } from '../helpers/run-cli.js';

async function program(argv: string[]): Promise<Command> {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, colorOut: false, colorErr: false, columns: 100 };
  return buildProgram({ io, env: {}, now: Date.now, sleep: async () => {}, signal: new AbortController().signal, version: '0.0.0', probe: processProbe(), outputClosed: new AbortController().signal, keepRunningOnClosedOutput: () => () => undefined, execPath: process.execPath }, argv, () => {});
}

describe('root help from recorded nouns', () => {
  it(`lists all ${NOUN_NAMES.length} nouns in order, each with the term and description of its full registration`, async () => {
    const root = await program(['--help']);
    // `help` is geo's help command (topics and command paths, src/help/dispatch.ts), not a noun.
    const nouns = root.commands.filter((c) => c.name() !== 'help');
    expect(nouns.map((c) => c.name())).toEqual([...NOUN_NAMES]);
    // The root help shows each noun by name (issue 34); the recorded term is still its full one.
    const terms = new Map(recordedTerms);
    for (const listed of nouns) {
      const full = (await program([listed.name()])).commands.find((c) => c.name() === listed.name())!;
      expect(terms.get(listed), listed.name()).toBe(new Help().subcommandTerm(full));
      expect(listed.description(), listed.name()).toBe(full.description());
    }
  });

  it('geo --help prints every noun line; geo help NOUN still shows that noun\'s own flags', async () => {
    const root = await runCli(['--help']);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/^ {2}locate {2,}locate images/m);
    expect(root.stdout).toMatch(/^ {2}completion {2,}print a shell completion script/m);
    const locate = await runCli(['help', 'locate']);
    expect(locate.code).toBe(0);
    expect(locate.stdout).toContain('--depth');
  });
});

describe('one list of nouns', () => {
  it('src/cli.ts registers exactly the nouns of bin/nouns.json, the list the code-cache loader reads', () => {
    expect([...REGISTERED_NOUNS].sort()).toEqual([...NOUN_NAMES].sort());
    expect(new Set(NOUN_NAMES).size).toBe(NOUN_NAMES.length);
  });

  it('no file under src/ imports the entry file src/cli.ts', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const root = new URL('../../src/', import.meta.url).pathname;
    const offenders = (readdirSync(root, { recursive: true }) as string[])
      // src/build/ runs at build time over the whole program (the man pages and docs/reference.md
      // are made from cli.ts's definitions, issue 34); nothing of it is bundled or imported by src/.
      .filter((f) => f.endsWith('.ts') && f !== 'cli.ts' && !f.startsWith('build/'))
      .filter((f) => /from '(\.\.\/)+cli\.js'|from '\.\/cli\.js'/.test(readFileSync(root + f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
