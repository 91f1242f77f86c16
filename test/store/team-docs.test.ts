/**
 * docs/store.md's team store, as an admin pastes it: every shell block of that part runs in bash
 * and in zsh with each word reaching its command whole (a URL's `?` and `&` are a glob and a
 * background job to an unquoted shell; zsh refuses an unmatched glob), and the grants it gives
 * are the ones the team store's tests run under (test/helpers/postgres.ts ANALYST_GRANTS).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANALYST_GRANTS } from '../helpers/postgres.js';

const doc = readFileSync(new URL('../../docs/store.md', import.meta.url), 'utf8');
const team = doc.slice(doc.indexOf('## A team store'));

/** Fenced blocks of the team part that are shell: ```sh, or unlabelled ones whose lines are geo commands. */
const blocks = [...team.matchAll(/```(\w*)\n([\s\S]*?)```/g)]
  .filter(([, lang, body]) => lang === 'sh' || (lang === '' && body!.trim().startsWith('geo ')))
  .map(([, , body]) => body!);

/** Stand-ins that print each argument in brackets (and read a here-document), so what the shell passed is seen. */
const STUBS = `
geo() { printf 'geo'; for a in "$@"; do printf ' [%s]' "$a"; done; printf '\\n'; }
psql() { printf 'psql'; for a in "$@"; do printf ' [%s]' "$a"; done; printf '\\n'; cat; }
sudo() { shift 2; "$@"; }
`;

describe('docs/store.md, pasted', () => {
  it('has the shell blocks of the team store (setup, migrate, grants, budget, an analyst\'s commands)', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(blocks.join('\n')).toMatch(/geo store migrate --store '/);
  });

  it.each(['bash', 'zsh'])('every block runs in %s as written: each postgres:// URL reaches its command as one word, ~/.pgpass is made 0600', (shell) => {
    for (const body of blocks) {
      const home = mkdtempSync(join(tmpdir(), 'geo-docs-'));
      const r = spawnSync(shell, ['-c', `${STUBS}\n${body}`], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } });
      expect({ body, status: r.status, stderr: r.stderr }).toEqual({ body, status: 0, stderr: '' });
      for (const url of body.match(/postgres(?:ql)?:\/\/[^'\s]+/g) ?? []) expect(r.stdout).toContain(`[${url}]`);
      if (body.includes('.pgpass')) expect(statSync(join(home, '.pgpass')).mode & 0o777).toBe(0o600);
    }
  });

  it('the analysts\' grants it gives are exactly those the team store\'s tests run under', () => {
    const granted = [...team.matchAll(/<<'SQL'\n([\s\S]*?)\nSQL/g)].map(([, sql]) => sql!).find((sql) => sql.includes('GRANT EXECUTE'));
    expect(granted?.trim()).toBe(ANALYST_GRANTS.trim());
  });
});
