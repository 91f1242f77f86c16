/**
 * A reporter beside vitest's default (issue 34: `npm test` showed "N skipped" and never why): at the
 * end of the run, one line per skipped test with its reason, the note of `ctx.skip(note)` or the
 * "(skipped: …)" its title carries (the convention of describe.skipIf/it.skipIf here, e.g.
 * test/helpers/ffmpeg.ts ffmpegTitle). Tests skipped by a -t filter or .only elsewhere carry no
 * reason: they are only counted, so a filtered run is not a wall of names.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** What "(skipped: ffmpeg is not installed (apt-get …))" in a test's or a suite's title says, parentheses balanced. */
export function reasonInTitle(title: string): string | undefined {
  const at = title.indexOf('(skipped: ');
  if (at < 0) return undefined;
  let depth = 1;
  for (let i = at + 1; i < title.length; i++) {
    if (title[i] === '(') depth++;
    else if (title[i] === ')' && --depth === 0) return title.slice(at + '(skipped: '.length, i);
  }
  return title.slice(at + '(skipped: '.length);
}

export interface Skip {
  test: string;
  reason: string | undefined;
}

/** The skipped tests of a run, each with its reason when it has one. */
export function skipsOf(modules: readonly TestModule[]): Skip[] {
  const skips: Skip[] = [];
  for (const m of modules) {
    for (const t of m.children.allTests() as Iterable<TestCase>) {
      const r = t.result();
      if (r.state !== 'skipped') continue;
      const reason = r.note ?? reasonInTitle(t.fullName);
      skips.push({ test: `${m.moduleId.replace(`${process.cwd()}/`, '')} > ${t.fullName}`, reason });
    }
  }
  return skips;
}

export function skipLines(skips: readonly Skip[]): string[] {
  const said = skips.filter((s) => s.reason !== undefined);
  const rest = skips.length - said.length;
  if (said.length === 0 && rest === 0) return [];
  return [
    '',
    ...(said.length ? [`Skipped, with why (${said.length}):`, ...said.map((s) => `  ↓ ${s.test}\n      why: ${s.reason}`)] : []),
    ...(rest ? [`${rest} more skipped by a filter (-t, a file name) or .only, not by a missing tool`] : []),
  ];
}

export default class SkipReasons implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    const lines = skipLines(skipsOf(modules));
    if (lines.length) process.stdout.write(lines.join('\n') + '\n');
  }
}
