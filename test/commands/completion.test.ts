/**
 * geo completion: the static command list (src/commands/completion/spec.ts) must match the real
 * commander program, and the bash script must actually complete in bash.
 */
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { NOUN_NAMES, buildProgram } from '../../src/cli.js';
import { COMMANDS, type CmdSpec, GLOBAL_FLAGS, SHORT_VALUE_FLAGS } from '../../src/commands/completion/spec.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';

async function program(argv: string[]): Promise<Command> {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, colorOut: false, colorErr: false, columns: 100 };
  return buildProgram({ io, env: {}, now: Date.now, sleep: async () => {}, signal: new AbortController().signal, version: '0.0.0' }, argv, () => {});
}

/** "--depth=" for a flag that takes a value, "--async" otherwise: the spec's notation. */
const flagsOf = (c: Command) => c.options.map((o: Option) => `${o.long}${o.required || o.optional ? '=' : ''}`).sort();
const shortValued = (c: Command) => c.options.filter((o: Option) => o.short && (o.required || o.optional)).map((o: Option) => o.short!);
const HINT = 'update src/commands/completion/spec.ts to match the command';

describe('completion spec matches the real program', () => {
  it('lists every noun', () => {
    expect(Object.keys(COMMANDS).sort(), HINT).toEqual([...NOUN_NAMES].sort());
  });

  it('global flags', async () => {
    const root = await program(['completion']);
    expect([...GLOBAL_FLAGS].sort(), HINT).toEqual([...flagsOf(root), '--help'].sort());
  });

  it.each(NOUN_NAMES)('%s: subcommands and flags', async (noun) => {
    const cmd = (await program([noun])).commands.find((c) => c.name() === noun);
    expect(cmd, `${noun} is not registered`).toBeDefined();
    const spec: CmdSpec = COMMANDS[noun]!;
    const shorts: string[] = shortValued(cmd!);
    if (cmd!.commands.length === 0) {
      expect(spec.subcommands, HINT).toBeUndefined();
      expect([...spec.flags].sort(), `${noun}: ${HINT}`).toEqual(flagsOf(cmd!));
    } else {
      expect(Object.keys(spec.subcommands ?? {}).sort(), HINT).toEqual(cmd!.commands.map((c) => c.name()).sort());
      for (const sub of cmd!.commands) {
        expect([...spec.subcommands![sub.name()]!.flags].sort(), `${noun} ${sub.name()}: ${HINT}`).toEqual(flagsOf(sub));
        shorts.push(...shortValued(sub));
      }
    }
    for (const s of shorts) expect(SHORT_VALUE_FLAGS, `${noun} ${s}: ${HINT}`).toContain(s);
  });
});

describe('geo completion', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: prints a script on stdout, TTY or not', async (shell) => {
    for (const tty of [false, true]) {
      const r = await runCli(['completion', shell], { tty });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      for (const noun of NOUN_NAMES) expect(r.stdout).toContain(noun);
      expect(r.stdout).toContain('no-verify');
    }
  });

  it('an unknown shell is a usage error; a missing one too', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/no completion for "tcsh" — hint: use one of: bash, zsh, fish/);
    expect((await runCli(['completion'])).code).toBe(2);
  });
});

describe('the bash script in bash', () => {
  let script = '';
  /** Completes `line` (cursor at its end) the way bash would, with geo on PATH for profile names. */
  async function complete(line: string, env: Record<string, string> = {}): Promise<string[]> {
    script ||= (await runCli(['completion', 'bash'])).stdout;
    const words = line.split(' ');
    const prog = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _geo; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', prog], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean).sort();
  }

  it('parses', async () => {
    script ||= (await runCli(['completion', 'bash'])).stdout;
    expect(spawnSync('bash', ['--norc', '-n'], { input: script, encoding: 'utf8' }).status).toBe(0);
  });

  it('nouns, subcommands, flags and flag values', async () => {
    expect(await complete('geo ke')).toEqual(['keys']);
    expect(await complete('geo c')).toEqual(['cases', 'completion', 'config', 'credits']);
    expect(await complete('geo keys ')).toEqual(['add', 'list', 'remove', 'show', 'test', 'use']);
    expect(await complete('geo --profile work keys a')).toEqual(['add']);
    expect(await complete('geo keys add --no-')).toEqual(['--no-color', '--no-input', '--no-verify']);
    expect(await complete('geo cases create --')).toContain('--description');
    expect(await complete('geo locate -d ')).toEqual(['1', '2', '3']);
    expect(await complete('geo --format nd')).toEqual(['ndjson']);
    expect(await complete('geo config set ')).toEqual(['confirm_threshold', 'depth', 'format']);
    expect(await complete('geo completion ')).toEqual(['bash', 'fish', 'zsh']);
  });

  it('offers file names for locate and profile names from geo itself', async () => {
    const dir = tempConfigDir();
    const files = await complete(`geo locate ${dir}/`);
    expect(files).toEqual([]);
    // A stand-in `geo` on PATH answering `keys list --format ndjson` the way the real one does.
    const bin = tempConfigDir();
    const { writeFileSync, chmodSync } = await import('node:fs');
    writeFileSync(`${bin}/geo`, '#!/bin/sh\nprintf \'{"name":"work","key":"x"}\\n{"name":"play","key":"y"}\\n\'\n');
    chmodSync(`${bin}/geo`, 0o755);
    expect(await complete('geo keys use ', { PATH: `${bin}:${process.env.PATH}` })).toEqual(['play', 'work']);
    expect(await complete('geo --profile w', { PATH: `${bin}:${process.env.PATH}` })).toEqual(['work']);
  });
});
