/** `--json` alone or with gh's field list (src/argv.ts settleJsonValue): which word after it is a value. */
import { describe, expect, it } from 'vitest';
import { settleJsonValue } from '../../src/argv.js';

const subs: Record<string, string[]> = { cases: ['list', 'ls', 'create'] };
const settle = (argv: string[], files: string[] = []) => settleJsonValue(argv, (path) => subs[path.join(' ')] ?? [], (w) => files.includes(w));

describe('settleJsonValue', () => {
  it('a field list after the noun is the value', () => {
    expect(settle(['analyses', '--json', 'id,city'])).toEqual(['analyses', '--json', 'id,city']);
    expect(settle(['credits', '--json', 'balance'])).toEqual(['credits', '--json', 'balance']);
  });
  it('before the noun, a subcommand, a file or a path-like word stays an argument', () => {
    expect(settle(['--json', 'credits'])).toEqual(['--json=', 'credits']);
    expect(settle(['cases', '--json', 'list'])).toEqual(['cases', '--json=', 'list']);
    expect(settle(['locate', '--json', 'shots'], ['shots'])).toEqual(['locate', '--json=', 'shots']);
    expect(settle(['locate', '--json', 'photo.jpg'])).toEqual(['locate', '--json=', 'photo.jpg']);
    expect(settle(['inspect', '--json', '-'])).toEqual(['inspect', '--json=', '-']);
  });
  it('--json followed by a flag or nothing is --json alone', () => {
    expect(settle(['credits', '--json'])).toEqual(['credits', '--json']);
    expect(settle(['credits', '--json', '-q'])).toEqual(['credits', '--json', '-q']);
  });
});
