/**
 * Collects the examples of every --help page of an installed geo (root, each noun, each
 * subcommand), from the program's own output, so an example added later is covered without a
 * hand-kept list. An example is a line `  $ command   # comment` (the comment starts with `#`,
 * so a pasted line runs as written: issue 22), or on the line(s) just above it where the help is
 * fitted to a narrow screen (issue 34, gh's layout); a comment naming `exit N` expects that exit
 * code (0 otherwise). A command continued with ` \` is one. Lines without `$` (after "With your
 * own key and photos:") are placeholders and are not run.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Example {
  command: string;
  expect: number;
}
export interface HelpPage {
  path: string[];
  examples: Example[];
}

/** The names listed under "Commands:" (commander shows aliases as `list|ls`); not `help`. */
function commandsOf(help: string): string[] {
  const at = help.indexOf('\nCommands:\n');
  if (at < 0) return [];
  const names: string[] = [];
  for (const line of help.slice(at + 11).split('\n')) {
    if (line.trim() === '') break;
    const m = /^ {2}([a-z][\w-]*)/.exec(line);
    if (m && m[1] !== 'help') names.push(m[1]!);
  }
  return names;
}

export function examplesOf(help: string): Example[] {
  const lines = help.split('\n');
  const out: Example[] = [];
  let above = '';
  for (let i = 0; i < lines.length; i++) {
    const comment = /^\s+# (.*)$/.exec(lines[i]!);
    if (comment) {
      above += ` ${comment[1]!}`;
      continue;
    }
    const m = /^\s+\$ (.*)$/.exec(lines[i]!);
    const before = above;
    above = '';
    if (!m) continue;
    let text = m[1]!;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
    // The command ends where two spaces and a # start the comment.
    const at = text.search(/ {2,}# /);
    const command = at < 0 ? text : text.slice(0, at);
    const code = /\bexit (\d+)\b/.exec(at < 0 ? before : text.slice(at));
    out.push({ command: command.trim(), expect: code ? Number(code[1]) : 0 });
  }
  return out;
}

/** Every help page, depth first, from `geo --help` down. */
export function collectPages(geo: string, env: NodeJS.ProcessEnv): HelpPage[] {
  const pages: HelpPage[] = [];
  const visit = (path: string[]) => {
    const r = spawnSync(geo, [...path, '--help'], { encoding: 'utf8', env });
    if (r.status !== 0) throw new Error(`geo ${path.join(' ')} --help exited ${r.status}: ${r.stderr}`);
    pages.push({ path, examples: examplesOf(r.stdout) });
    for (const name of commandsOf(r.stdout)) visit([...path, name]);
  };
  visit([]);
  return pages;
}

/**
 * The examples of a markdown page (issue 34: the README and docs/): inside ``` fences, a line
 * starting `geo `, or `$ ` and any command (as the topics write them; a `$ printf … > area.geojson`
 * that makes the file the next example reads, as a reader runs it), is a command to run as written
 * against the sandbox, its comment after two spaces and `#` naming `exit N` when it must fail so;
 * an indented `geo …` line needs your own key and files and is not run. Prose is never run.
 */
export function markdownExamples(markdown: string): Example[] {
  const out: Example[] = [];
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      fence = !fence;
      continue;
    }
    const m = fence ? /^(?:\$ (.+)|(geo .*))$/.exec(line) : null;
    if (!m) continue;
    const text = (m[1] ?? m[2])!;
    const at = text.search(/ {2,}# /);
    const code = at < 0 ? null : /\bexit (\d+)\b/.exec(text.slice(at));
    out.push({ command: (at < 0 ? text : text.slice(0, at)).trim(), expect: code ? Number(code[1]) : 0 });
  }
  return out;
}

/** README.md and every page under docs/, each with its examples; `path` is the file's, from the root. */
export function markdownPages(root: string): HelpPage[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.md') ? [join(dir, d.name)] : []));
  return ['README.md', ...walk('docs').sort()].map((file) => ({ path: [file], examples: markdownExamples(readFileSync(join(root, file), 'utf8')) }));
}
