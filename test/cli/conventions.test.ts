/**
 * The gh / clig.dev conventions of issue 13: help for any depth of command, inherited flags in
 * every command's help, `version`, `ls` for every `list`, and an explicit format that TTY
 * detection never overrides.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NOUN_NAMES } from '../../src/cli.js';
import { helpPages } from '../help/pages.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';

const IMG = new URL('../../fixtures/images/', import.meta.url).pathname;

describe('help', () => {
  it('geo help cases create shows the help of create, not of cases', async () => {
    const r = await runCli(['help', 'cases', 'create']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: geo cases create \[options\]/);
    expect(r.stdout).toContain('--description <text>');
    expect(r.stdout).toEqual((await runCli(['cases', 'create', '--help'])).stdout);
    expect((await runCli(['--no-color', 'help', 'config', 'set'])).stdout).toMatch(/^Usage: geo config set \[options\] <key> <value>/);
  });

  it('geo help cases nope is a usage error (exit 2), as geo help nope is', async () => {
    for (const argv of [['help', 'cases', 'nope'], ['help', 'nope']]) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  });

  it.each([['cases', 'create'], ['keys', 'add'], ['locate'], ['config', 'set']])('geo %s %s --help lists the inherited global flags', async (...argv) => {
    const r = await runCli([...argv.filter(Boolean), '--help']);
    expect(r.code).toBe(0);
    const inherited = r.stdout.slice(r.stdout.indexOf('Global Options:'));
    expect(inherited).toMatch(/^Global Options:/);
    for (const flag of ['--json', '--format <fmt>', '-q, --quiet', '--sandbox', '--no-input', '--profile <name>']) expect(inherited).toContain(flag);
  });
});

describe('examples in --help', () => {
  it('every comment after an example starts with # (a pasted line runs as written, issue 22)', async () => {
    const { NOUN_NAMES } = await import('../../src/cli.js');
    const bad: string[] = [];
    const visit = async (path: string[]) => {
      const help = (await runCli([...path, '--help'])).stdout;
      for (const line of help.split('\n')) {
        if (/^\s+(\$ |geo )\S/.test(line) && / {2,}[^#\s]/.test(line.trim())) bad.push(`geo ${path.join(' ')}: ${line.trim()}`);
      }
      const at = help.indexOf('\nCommands:\n');
      if (at < 0 || path.length > 1) return;
      for (const l of help.slice(at + 11).split('\n')) {
        const m = /^ {2}([a-z][\w-]*)/.exec(l);
        if (!l.trim()) break;
        if (m && m[1] !== 'help') await visit([...path, m[1]!]);
      }
    };
    await visit([]);
    for (const noun of NOUN_NAMES) await visit([noun]);
    expect(bad).toEqual([]);
  });
});

describe('every example line of every help page', () => {
  // An example: a line that starts (after its indent, a `$ ` or a label such as `Also: `) with geo
  // and a command or a flag; wide enough that nothing wraps.
  const nouns = NOUN_NAMES.join('|');
  const EXAMPLE = new RegExp(`^\\s*(?<label>(?!Usage:)[A-Z][\\w ]*: +)?(?:\\$ )?(?<command>geo (?:--?[a-z]|(?:${nouns})\\b).*)$`);

  it('is the command alone, then at most a # comment: no label before it, no words after it that a shell would run or reject', async () => {
    const bad: string[] = [];
    for (const page of helpPages()) {
      const lines = (await runCli(page.argv, { columns: 400 })).stdout.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const m = EXAMPLE.exec(lines[i]!);
        if (!m) continue;
        let text = m.groups!.command!;
        while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++i]!.trim()}`;
        const at = text.search(/ {2,}# /);
        const command = at < 0 ? text : text.slice(0, at);
        if (m.groups!.label) bad.push(`${page.name}: a label before the example: ${lines[i]!.trim()}`);
        // Prose after a command ("(a reproducibly flaky service)", "; geo …") is a syntax error
        // to the shell, or runs as words of the command: bash -n says which.
        else if (spawnSync('bash', ['-n', '-c', command]).status !== 0) bad.push(`${page.name}: not a command alone: ${text}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('version', () => {
  it('geo version prints what geo --version prints', async () => {
    const a = await runCli(['version']);
    expect(a).toMatchObject({ code: 0, stderr: '' });
    expect(a.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(a.stdout).toBe((await runCli(['--version'])).stdout);
  });
});

describe('ls is list wherever list exists', () => {
  it.each([['config'], ['keys']])('geo %s ls = geo %s list', async (noun) => {
    const env = { GEO_CONFIG_DIR: tempConfigDir() };
    const list = await runCli([noun, 'list', '--json'], { env });
    expect(list.code).toBe(0);
    expect(await runCli([noun, 'ls', '--json'], { env })).toEqual(list);
  });

  it('geo --sandbox cases ls', async () => {
    const r = await runCli(['--sandbox', 'cases', 'ls', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('data');
  });
});

describe('an explicit format always wins; only the default depends on the terminal', () => {
  const many = ['--sandbox', 'locate', `${IMG}paris.jpg`, `${IMG}tokyo.jpg`];

  it('piped, nothing chosen: NDJSON, one line per image', async () => {
    const r = await runCli(many);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).ok)).toEqual([true, true]);
  });

  it('piped with --format table: the results table, not NDJSON', async () => {
    const r = await runCli([...many, '--format', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/^\{/m);
    expect(r.stdout).toMatch(/paris\.jpg/);
    expect(r.stdout).toMatch(/tokyo\.jpg/);
  });

  it('piped with `geo config set format table`: the table too; on a terminal with --format ndjson: NDJSON', async () => {
    const env = { GEO_CONFIG_DIR: tempConfigDir() };
    expect((await runCli(['config', 'set', 'format', 'table'], { env })).code).toBe(0);
    const table = await runCli(many, { env });
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(/^\{/m);
    const lines = await runCli([...many, '--format', 'ndjson'], { tty: true });
    expect(lines.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).ok)).toEqual([true, true]);
  });
});
