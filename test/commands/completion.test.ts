/**
 * geo completion: the static command list (src/commands/completion/spec.ts) must match the real
 * commander program, and the bash script must actually complete in bash.
 */
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { NOUN_NAMES, buildProgram, processProbe } from '../../src/cli.js';
import { FLAG_HELP } from '../../src/commands/completion/flag-help.js';
import { COMMANDS, type CmdSpec, GLOBAL_FLAGS, SHORT_VALUE_FLAGS } from '../../src/commands/completion/spec.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';

async function program(argv: string[]): Promise<Command> {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, colorOut: false, colorErr: false, columns: 100 };
  return buildProgram({ io, env: {}, now: Date.now, sleep: async () => {}, signal: new AbortController().signal, version: '0.0.0', probe: processProbe(), outputClosed: new AbortController().signal, keepRunningOnClosedOutput: () => () => undefined, execPath: process.execPath }, argv, () => {});
}

/** "--depth=" for a flag that takes a value, "--async" otherwise (an optional value too: --json [fields]): the spec's notation. */
const flagsOf = (c: Command) => c.options.filter((o: Option) => !o.hidden).map((o: Option) => `${o.long}${o.required ? '=' : ''}`).sort();
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
        expect(spec.subcommands![sub.name()]!.aliases ?? [], `${noun} ${sub.name()} aliases: ${HINT}`).toEqual(sub.aliases());
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
    expect(await complete('geo c')).toEqual(['cases', 'claims', 'completion', 'config', 'credits']);
    expect(await complete('geo keys ')).toEqual(['add', 'list', 'migrate', 'remove', 'show', 'signing', 'test', 'use']);
    expect(await complete('geo --profile work keys a')).toEqual(['add']);
    expect(await complete('geo keys signing ')).toEqual(['create', 'list', 'show', 'test', 'use']);
    expect(await complete('geo keys add --no-')).toEqual(['--no-color', '--no-input', '--no-verify']);
    expect(await complete('geo cases create --')).toContain('--description');
    expect(await complete('geo locate -d ')).toEqual(['1', '2', '3']);
    expect(await complete('geo --format nd')).toEqual(['ndjson']);
    // Only the formats the command takes (issue 22: export has no table).
    expect(await complete('geo export --format ')).toEqual(['csv', 'geojson', 'html', 'json', 'kml', 'kmz', 'ndjson']);
    expect(await complete('geo credits --format ')).toEqual(['json', 'ndjson', 'table']);
    expect(await complete('geo locate x --format k')).toEqual(['kml', 'kmz']);
    expect(await complete('geo config set ')).toEqual(['accessible', 'confirm_threshold', 'depth', 'format', 'store', 'tsa']);
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

/** A real shell, or undefined when it is not installed (the tests then skip and say why). */
function shell(name: string): string | undefined {
  return spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined;
}

describe('every flag of the spec has a description for zsh and fish', () => {
  it('FLAG_HELP covers the global flags and each command\'s', () => {
    const all = new Set(GLOBAL_FLAGS);
    const walk = (c: CmdSpec) => {
      c.flags.forEach((f) => all.add(f));
      Object.values(c.subcommands ?? {}).forEach(walk);
    };
    Object.values(COMMANDS).forEach(walk);
    const missing = [...all].map((f) => f.replace(/=$/, '')).filter((f) => !FLAG_HELP[f]);
    expect(missing, 'add them to src/commands/completion/flag-help.ts').toEqual([]);
  });
});

const zsh = shell('zsh');
describe.runIf(zsh)('the zsh script in zsh -f (no compinit, no ~/.zshrc)', () => {
  /** What _geo offers for the words, with _describe replaced by a printer of its items. */
  async function offers(words: string[]): Promise<string[]> {
    const script = (await runCli(['completion', 'zsh'])).stdout;
    const prog = `${script}\n_describe() { print -rl -- "\${(@P)argv[-1]}" }\ncompadd() { print -rl -- "\${@[-1]}" }\nwords=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _geo`;
    const r = spawnSync(zsh!, ['-f', '-c', prog], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: tempConfigDir() } });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  }

  it('source <(geo completion zsh) registers _geo even though compinit never ran', async () => {
    const script = (await runCli(['completion', 'zsh'])).stdout;
    const r = spawnSync(zsh!, ['-f', '-c', `source /dev/stdin <<'EOF'\n${script}\nEOF\nprint -r -- \${_comps[geo]}`], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: tempConfigDir() } });
    expect(r.stderr).not.toMatch(/command not found/);
    expect(r.stdout.trim()).toBe('_geo');
  });

  it('nouns and flags come with their descriptions; ls completes as list', async () => {
    expect(await offers(['geo', 'ca'])).toContain('cases:investigation cases\\: on the service and on this machine');
    expect(await offers(['geo', 'locate', '--d'])).toContain('--depth:1 Surface (1 credit), 2 Standard (2), 3 Forensic (10)');
    expect(await offers(['geo', 'cases', 'ls', '--'])).toContain('--team:team id');
    expect(await offers(['geo', 'analyses', '--'])).toContain('--search:search neighborhood, city or filename');
  });
});

const fish = shell('fish');
describe.runIf(fish)('the fish script in fish --no-config', () => {
  it('completes nouns, subcommands and flags, each with its description', async () => {
    const script = (await runCli(['completion', 'fish'])).stdout;
    const dir = tempConfigDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/geo.fish`, script);
    const complete = (line: string) => spawnSync(fish!, ['--no-config', '-c', `source ${dir}/geo.fish; complete -C ${JSON.stringify(line)}`], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir } }).stdout.split('\n').filter(Boolean);
    expect(complete('geo ')).toContain('locate\tlocate images: files, folders, - (stdin), https URLs or a --from-file list');
    expect(complete('geo locate --dep')).toEqual(['--depth\t1 Surface (1 credit), 2 Standard (2), 3 Forensic (10)']);
    expect(complete('geo keys ls --')).toContain('--json\tprint JSON (same as --format json); --json f1,f2 only those fields');
    expect(complete('geo config ')).toContain('list\tall defaults');
  });
});

if (!zsh) console.log('skipped: zsh is not installed (apt-get install zsh)');
if (!fish) console.log('skipped: fish is not installed (apt-get install fish)');
