/**
 * Honest interruption (issue 11), through the real command against a real sandbox whose answers
 * take 600 ms: Ctrl-C (the in-process runner's AbortSignal) while requests are in flight. The
 * service finishes those and charges them, as the real one does; the summary's credits are the
 * answers received, the in-flight inputs have records of their own, and the hint is the exact
 * `geo locate --resume FILE` command (also after --fresh). Running it finishes the batch, and the
 * ledger shows no second debit for any key.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeImages } from '../batch/helpers.js';
import { parseJournal } from '../../src/batch/journal.js';
import { resumeCommand } from '../../src/commands/locate/notes.js';
import { shellQuote } from '../../src/files/shell.js';
import { type RunOptions, runCli } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const LATENCY_MS = 600;
const sb = withSandbox({ latencyMs: LATENCY_MS });
const KEY = KEYS.pro;
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

const debitsOf = () => sb.ledger().keys[KEY]!.entries.filter((e) => e.kind === 'debit');
const netByKey = () => {
  const m = new Map<string, number>();
  for (const e of sb.ledger().keys[KEY]!.entries) m.set(e.idempotency_key ?? '', (m.get(e.idempotency_key ?? '') ?? 0) + (e.kind === 'debit' ? e.amount : -e.amount));
  return m;
};

async function until(what: string, cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function run(argv: string[], env: Record<string, string>, opts: RunOptions = {}) {
  return runCli(argv, { ...opts, env: { GEO_API_KEY: KEY, GEO_BASE_URL: sb.url, ...env } });
}

const keysSeen = () => Object.keys(sb.ledger().keys[KEY]!.idempotency).length;

/**
 * Starts the command, waits until the service has answered `answered` requests of it and holds
 * the next `inFlight` ones in progress (their keys registered, their 600 ms not yet over), then
 * presses Ctrl-C; waits until the service has finished (and charged) what was in flight.
 */
async function interrupt(argv: string[], env: Record<string, string>, answered: number, inFlight: number) {
  const start = debitsOf().length;
  const keys = keysSeen();
  const ac = new AbortController();
  const pending = run(argv, env, { signal: ac.signal });
  await until('the first answers', () => debitsOf().length >= start + answered);
  await until('the next requests in progress on the service', () => keysSeen() >= keys + answered + inFlight);
  ac.abort(new Error('interrupted'));
  const r = await pending;
  await until('the service to finish what was in flight', () => debitsOf().length >= start + answered + inFlight);
  return { ...r, stderr: plain(r.stderr), recs: r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { input: string; ok: boolean; error?: { code: string; message: string } }) };
}

describe('Ctrl-C with requests in flight', () => {
  it('credits spent are the answers received; in-flight inputs are reported; the --resume command finishes without a second debit', async () => {
    const dir = makeImages(6);
    const journal = join(tmp('geo-int-j-'), 'case 7.ndjson'); // a space: the hint must quote it
    const env = { GEO_STATE_DIR: tmp('geo-int-state-'), GEO_DATA_DIR: tmp('geo-int-state-') };
    const r = await interrupt(['locate', dir, '--journal', journal, '--concurrency', '2', '--json'], env, 2, 2);
    expect(r.code).toBe(130);
    const codes = r.recs.map((x) => (x.ok ? 'ok' : x.error!.code));
    expect(codes.sort()).toEqual(['in_flight', 'in_flight', 'not_sent', 'not_sent', 'ok', 'ok']);
    expect(r.recs.find((x) => !x.ok && x.error!.code === 'in_flight')!.error!.message).toMatch(/^in flight when cancelled: may have been charged; resuming replays it free/);
    expect(r.stderr).toMatch(/6 inputs: 2 ok, 0 failed, 2 in flight, 2 not sent · 2 credits spent/);
    expect(r.stderr).toContain('2 in flight: may have been charged; resuming replays them free');
    expect(r.stderr).toContain(`to send what is left, with the same keys: \`geo locate --resume '${journal}'\`\n`);

    // The summary's 2 credits are exactly the ledger's debits for the answers it received; the two
    // in flight were charged too (the under-count of issue 11), once each.
    const st = parseJournal(readFileSync(journal, 'utf8'));
    const answeredKeys = [...st.done.values()].filter((d) => d.ok).map((d) => d.key);
    const inFlightKeys = [...st.keys].filter(([id]) => !st.done.has(id)).map(([, k]) => k);
    expect(answeredKeys).toHaveLength(2);
    expect(inFlightKeys).toHaveLength(2);
    const net = netByKey();
    expect(answeredKeys.reduce((s, k) => s + (net.get(k) ?? 0), 0)).toBe(2);
    expect(inFlightKeys.map((k) => net.get(k))).toEqual([1, 1]);

    const before = debitsOf().length;
    const resumed = await run(['locate', '--resume', journal, '--json'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).ok)).toEqual([true, true, true, true, true, true]);
    expect(plain(resumed.stderr)).toMatch(/6 inputs: 6 ok, 0 failed · 2 credits spent/);
    expect(plain(resumed.stderr)).toContain('2 answers replayed by the service for its idempotency key, not charged');
    expect(debitsOf().length).toBe(before + 2); // only the two never sent
    expect([...netByKey().values()].every((v) => v === 1)).toBe(true);
    console.log('[ctrl-c] ledger debits', { answered: 2, inFlight: 2, resumeNew: 2, keys: netByKey().size });
  }, 30_000);

  it('after --fresh the hint is the --resume command of the journal --fresh wrote, and it finishes free of second debits', async () => {
    const dir = makeImages(4, tmp('geo-int-fresh-'));
    const env = { GEO_STATE_DIR: tmp('geo-int-state-'), GEO_DATA_DIR: tmp('geo-int-state-') };
    const argv = ['locate', dir, '--concurrency', '2', '--json'];
    expect((await run(argv, env)).code).toBe(0);
    const r = await interrupt([...argv, '--fresh'], env, 2, 2);
    expect(r.code).toBe(130);
    const hint = /to send what is left, with the same keys: `(geo locate --resume (\S+))`\n/.exec(r.stderr);
    expect(hint, r.stderr).not.toBeNull();
    const journal = hint![2]!;
    expect(journal).toMatch(/^[0-9a-f]{24}$/); // the batch's id in the store
    expect(r.stderr).not.toContain('the same command');

    const before = debitsOf().length;
    const resumed = await run(['locate', '--resume', journal, '--json'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout.trimEnd().split('\n')).toHaveLength(4);
    expect(debitsOf().length).toBe(before); // the two in flight replayed free, the two answered re-emitted
    // Each image twice in all (the first run and --fresh), each key once.
    expect([...netByKey().values()].every((v) => v === 1)).toBe(true);
  }, 30_000);

  it('one image: exit 130, "may have been charged", and the hint is the --resume command, which replays it free', async () => {
    const env = { GEO_STATE_DIR: tmp('geo-int-state-'), GEO_DATA_DIR: tmp('geo-int-state-') };
    const dir = makeImages(1, tmp('geo-int-one-'));
    const r = await interrupt(['locate', join(dir, '000.jpg'), '--json'], env, 0, 1);
    expect(r.code).toBe(130);
    const m = /^error: cancelled while in flight: the request may have been charged — hint: `(geo locate --resume (\S+))` resends it with the same key, which the service replays free$/m.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(r.stdout).toBe('');
    const before = debitsOf().length;
    const again = await run(['locate', '--resume', m![2]!, '--json'], env);
    expect(again.code).toBe(0);
    // --resume FILE prints records (it names no image itself): one, replayed by the service.
    expect(plain(again.stderr)).toMatch(/1 input: 1 ok, 0 failed · 0 credits spent/);
    expect(again.stderr).toContain('1 answer replayed by the service for its idempotency key, not charged');
    expect(debitsOf().length).toBe(before);
  }, 30_000);
});

describe('the --resume hint', () => {
  it('is quoted for the shell, and carries what picks the account, the bytes and the consent given', () => {
    expect(shellQuote('/tmp/j/a.ndjson')).toBe('/tmp/j/a.ndjson');
    expect(shellQuote("/tmp/it's here.ndjson")).toBe(`'/tmp/it'\\''s here.ndjson'`);
    expect(shellQuote('$HOME/x')).toBe(`'$HOME/x'`);
    const globals = { profile: 'work', baseUrl: 'https://geo.example', yes: true };
    expect(resumeCommand({ globals }, '/j.ndjson', { downscale: true, maxCredits: 40 })).toBe('geo --profile work --base-url https://geo.example locate --resume /j.ndjson --downscale --max-credits 40 --yes');
    expect(resumeCommand({ globals: {} }, '/j.ndjson', {})).toBe('geo locate --resume /j.ndjson');
  });
});
