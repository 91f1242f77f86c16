/**
 * The reviewed case the review tests share: two signing keys made by ssh-keygen (alice, bob) and
 * an allowed_signers file of both; a case on the sandbox whose conclusion is alice's, and a copy of
 * its data folder that bob approved with his own key. Each analyst has a config folder of their own.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CliRun } from '../helpers/run-cli.js';
import { FIXTURES, type TestSandbox } from '../helpers/sandbox.js';
import { makeKey, tmp as sshTmp } from '../helpers/ssh.js';
import { caseId, caseRunner, tmp } from './helpers.js';

export const BECAUSE = 'the Eiffel Tower stands where r1 puts it; shadows agree with mid-morning';

export function reviewKeys() {
  const keys = sshTmp('geo-review-keys-');
  const alice = makeKey(keys, 'alice', { comment: 'alice@example.org' });
  const bob = makeKey(keys, 'bob', { comment: 'bob@example.org' });
  const allowed = join(keys, 'allowed_signers');
  writeFileSync(allowed, `alice@example.org namespaces="geo-custody" ${alice.pub}\nbob@example.org namespaces="geo-custody" ${bob.pub}\n`);
  return { keys, alice, bob, allowed };
}

/** A data folder copied whole, to change one copy per test. */
export function copy(from: string): string {
  const to = tmp('geo-review-copy-');
  cpSync(from, to, { recursive: true });
  return to;
}

/** One analyst: a config folder of their own (their chosen key) over the data folder given. */
export const analyst = (sb: TestSandbox, config = tmp('geo-review-analyst-')) => (data: string, argv: string[]): Promise<CliRun> => caseRunner(sb, data).run(argv, { env: { GEO_CONFIG_DIR: config, HOME: config } });

/** Alice locates a photo into case "Reviewed" and concludes; bob approves a copy. */
export async function reviewedCase(sb: TestSandbox, k: ReturnType<typeof reviewKeys>) {
  const asAlice = analyst(sb);
  const asBob = analyst(sb);
  const concluded = tmp('geo-review-data-');
  const ok = async (p: Promise<CliRun>) => {
    const r = await p;
    expect(r.code, r.stderr).toBe(0);
  };
  await ok(asAlice(concluded, ['keys', 'signing', 'use', k.alice.path, '--principal', 'alice@example.org']));
  await ok(asBob(concluded, ['keys', 'signing', 'use', k.bob.path, '--principal', 'bob@example.org']));
  await ok(asAlice(concluded, ['cases', 'create', '--name', 'Reviewed', '--local']));
  await ok(asAlice(concluded, ['locate', FIXTURES + 'paris.jpg', '--case', 'Reviewed']));
  await ok(asAlice(concluded, ['cases', 'conclude', 'Reviewed', '--at', '48.8584,2.2945', '--within', '300', '--confidence', 'probable', '--because', 'r1 and the tower', '--result', 'r1']));
  const approved = copy(concluded);
  await ok(asBob(approved, ['cases', 'review', 'Reviewed', '--approve', '--because', BECAUSE]));
  return { id: caseId(concluded, 'Reviewed'), concluded, approved, asAlice, asBob };
}
