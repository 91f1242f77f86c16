/**
 * Issue 34 item 3, `geo help TOPIC` (gh's `gh help environment`): `geo help` lists the topics; each
 * prints as a page (its title first, no "Usage:" line, exit 0); an unknown topic is one line on
 * stderr with the closest name, exit 2; `geo help A B` is command A B's help. The exit-codes topic
 * is made from cli.ts's table, so a code added there without words fails here.
 */
import { describe, expect, it } from 'vitest';
import { EXIT, EXIT_MEANINGS } from '../../src/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { topicNames } from './pages.js';

const REQUIRED = ['environment', 'exit-codes', 'formatting', 'sandbox', 'money', 'store', 'cases', 'claims', 'reference'];

describe('geo help', () => {
  it('lists every topic the issue asks for, with a summary each', async () => {
    const r = await runCli(['help']);
    expect(r.code).toBe(0);
    const listed = r.stdout.slice(r.stdout.indexOf('Help topics:'));
    for (const t of REQUIRED) expect(listed).toMatch(new RegExp(`^ {2}${t} {2,}\\S`, 'm'));
    expect(topicNames()).toEqual(expect.arrayContaining(REQUIRED));
  });

  it.each(topicNames().map((t) => [t]))('geo help %s prints the topic as a page: title first, no Usage line', async (topic) => {
    const r = await runCli(['help', topic]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toMatch(/^\w[\w -]*: \S/);
    // The page is not a command's help (the reference quotes each command's usage, indented below its name).
    expect(r.stdout.split('\n').slice(0, 3).join('\n')).not.toMatch(/Usage:/);
  });

  it('geo help histroy: one line naming geo help history, exit 2, nothing on stdout', async () => {
    const r = await runCli(['help', 'histroy']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('geo help history');
  });

  it('geo help monye suggests the topic money; geo help cases craete the command cases create', async () => {
    expect((await runCli(['help', 'monye'])).stderr).toContain('geo help money');
    const sub = await runCli(['help', 'cases', 'craete']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('geo help cases create');
  });

  it.each([['__proto__'], ['constructor'], ['toString'], ['hasOwnProperty']])('geo help %s: "no help topic", exit 2, one line', async (topic) => {
    const r = await runCli(['help', topic]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: no help topic/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('geo help <120,000 characters>: "no help topic", exit 2, echoing a few dozen characters of it at most', async () => {
    const r = await runCli(['help', 'x'.repeat(120_000)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no help topic/);
    expect(r.stderr.match(/x+/)![0].length).toBeLessThanOrEqual(48);
    expect(r.stderr.length).toBeLessThan(200);
  });

  it('geo help cases create prints that command\'s help', async () => {
    const r = await runCli(['help', 'cases', 'create']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: geo cases create/);
  });

  it('the exit-codes topic has words for every code of the one table in cli.ts', async () => {
    const codes = new Set(Object.values(EXIT));
    expect(new Set(EXIT_MEANINGS.map(([n]) => n))).toEqual(codes);
    const r = await runCli(['help', 'exit-codes']);
    for (const n of codes) expect(r.stdout).toMatch(new RegExp(`^ {2}${n} {2,}\\S`, 'm'));
  });
});
