/**
 * The topics made from the code: the reference (every command, flag, environment
 * variable and exit code, walked from the commander program that --help draws), the environment
 * (help/environment.ts) and the exit codes (the one table in cli.ts, passed in: nothing under src/
 * imports the entry file). `geo help NAME` renders them; the build writes the same markdown into
 * docs/ (docs/reference.md, docs/topics/environment.md, docs/topics/exit-codes.md).
 */
import type { Argument, Command, Help, Option } from 'commander';
import { ENVIRONMENT } from './environment.js';
import type { TopicSource } from './topics.js';

/** Exit code -> what it means: cli.ts's table. */
export type ExitMeanings = ReadonlyArray<readonly [number, string]>;

const GENERATED = 'Generated from the command definitions by `npm run build` (src/help/reference.ts): edit those, not this file.';

/** A markdown table cell: bars escaped, one line. */
const cell = (s: string) => s.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const code = (s: string) => `\`${s}\``;

function table(head: [string, string], rows: Array<[string, string]>): string[] {
  return [`| ${head[0]} | ${head[1]} |`, '|---|---|', ...rows.map(([a, b]) => `| ${cell(a)} | ${cell(b)} |`)];
}

const TITLES = {
  environment: 'Environment: the variables geo reads',
  'exit-codes': "Exit codes: what geo's exit status means",
  reference: 'Reference: every command, flag, environment variable and exit code',
};
const summary = (name: keyof typeof TITLES) => TITLES[name].slice(TITLES[name].indexOf(': ') + 2);

export function environmentMarkdown(): string {
  return [
    `# ${TITLES.environment}`,
    '',
    'A flag wins over the environment, which wins over the key profile, which wins over the default.',
    'A key and its base URL come from the same place: a profile\'s key goes only to that profile\'s',
    'origin, and GEO_API_KEY pairs with GEO_BASE_URL (or --base-url, else the default service); a',
    'mismatch is refused before anything is sent.',
    '',
    ...table(['variable', 'what it does'], ENVIRONMENT.map((v) => [code(v.name), v.what])),
    '',
    'Also: `geo help reference` (every flag), `geo keys show` (which key and base URL win now).',
    '',
  ].join('\n');
}

export function exitCodesMarkdown(meanings: ExitMeanings): string {
  return [
    `# ${TITLES['exit-codes']}`,
    '',
    'The same with every output format; a script can tell the failures apart without reading',
    'stderr. "Nothing was sent" means nothing was charged either.',
    '',
    ...table(['code', 'meaning'], meanings.map(([n, m]) => [String(n), m])),
    '',
  ].join('\n');
}

/** The commands under `cmd`, depth first, without commander's own `help`. */
export function commandsOf(cmd: Command): Command[] {
  return cmd.commands.filter((c) => c.name() !== 'help').flatMap((c) => [c, ...commandsOf(c)]);
}

export function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

const optionRows = (help: Help, options: readonly Option[]): Array<[string, string]> => options.map((o) => [code(help.optionTerm(o)), help.optionDescription(o)]);
const argumentRows = (help: Help, args: readonly Argument[]): Array<[string, string]> => args.filter((a) => a.description).map((a) => [code(help.argumentTerm(a)), help.argumentDescription(a)]);

export function referenceMarkdown(program: Command, meanings: ExitMeanings): string {
  const help = program.createHelp();
  const out = [
    `# ${TITLES.reference}`,
    '',
    GENERATED,
    '`geo help reference` prints the same; each command\'s `--help` adds its examples.',
    '',
    '## Global options',
    '',
    'Every command takes these.',
    '',
    ...table(['flag', 'what it does'], optionRows(help, help.visibleOptions(program).filter((o) => o.long !== '--help'))),
    '',
    '## Commands',
  ];
  for (const cmd of commandsOf(program)) {
    const h = cmd.createHelp();
    const options = h.visibleOptions(cmd).filter((o) => o.long !== '--help');
    const args = argumentRows(h, h.visibleArguments(cmd));
    out.push('', `### ${pathOf(cmd)}`, '', `Usage: ${code(h.commandUsage(cmd))}`, '', cmd.description());
    if (args.length) out.push('', ...table(['argument', 'what it is'], args));
    if (options.length) out.push('', ...table(['flag', 'what it does'], optionRows(h, options)));
    const subs = cmd.commands.filter((c) => c.name() !== 'help');
    if (subs.length) out.push('', `Commands: ${subs.map((s) => code(pathOf(s))).join(', ')}.`);
  }
  out.push('', '## Environment', '', ...table(['variable', 'what it does'], ENVIRONMENT.map((v) => [code(v.name), v.what])));
  out.push('', '## Exit codes', '', ...table(['code', 'meaning'], meanings.map(([n, m]) => [String(n), m])), '');
  return out.join('\n');
}

/**
 * `geo help reference` on a terminal: every command with what it does, in under 80 lines (
 * each topic short); every flag is in docs/reference.md (the full reference above), each command's
 * --help and its man page.
 */
export function referenceIndexMarkdown(program: Command): string {
  return [
    `# ${TITLES.reference}`,
    '',
    'Every command, and what it does. Its flags and examples: `geo COMMAND --help`, or',
    '`man geo-COMMAND` (geo-cases-create for geo cases create). The global flags: `geo --help`.',
    'The environment: `geo help environment`; the exit codes: `geo help exit-codes`. All of it on',
    'one page: docs/reference.md in the package.',
    '',
    ...table(['command', 'what it does'], program.commands.filter((c) => c.name() !== 'help').map((c) => {
      const subs = commandsOf(c).map((s) => pathOf(s).split(' ').slice(2).join(' '));
      return [c.name(), `${c.description()}${subs.length ? `${/[.?!]$/.test(c.description()) ? '' : '.'} Commands: ${subs.join(', ')}` : ''}`];
    })),
    '',
  ].join('\n');
}

/** The topics made from the code; `program()` is the program with every command registered. */
export function generatedTopics(program: () => Command, meanings: ExitMeanings): TopicSource[] {
  return [
    { name: 'environment', summary: summary('environment'), markdown: environmentMarkdown },
    { name: 'exit-codes', summary: summary('exit-codes'), markdown: () => exitCodesMarkdown(meanings) },
    { name: 'reference', summary: summary('reference'), markdown: () => referenceIndexMarkdown(program()) },
  ];
}
