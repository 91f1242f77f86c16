/**
 * The investigation on a team store (a real PostgreSQL, test/helpers/postgres.ts; skipped with the
 * reason where none starts): two analysts, each with their own database role and machine, write
 * notes, a judgement, an exhibit and a conclusion into one case's chain, as the built program.
 * Each entry names the role its server authenticated; the chain verifies from either machine. A
 * colleague's review, signed with their own key, counts from either machine too.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CustodyEntry, parseEntry } from '../../src/evidence/custody.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { machineEnv, spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { reviewKeys } from '../cases/review-setup.js';

const db = postgresPerFile();

describe('the investigation on a team store, from two analysts\' roles', () => {
  it('notes from geo_ana and geo_bo land in one case\'s chain, each entry naming its role; show gives them with their roles and verify passes', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const ana = { ...machineEnv(), GEO_STORE_URL: db.pg.addRole('geo_ana'), CI: '1' };
    const bo = { ...machineEnv(), GEO_STORE_URL: db.pg.addRole('geo_bo'), CI: '1' };
    const geo = async (env: Record<string, string>, argv: string[]) => {
      const r = await spawnGeo(argv, { env });
      expect(r.code, `geo ${argv.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const id = (JSON.parse((await geo(ana, ['cases', 'create', '--local', '--name', 'Harbour fire', '--json'])).stdout) as { id: string }).id;
    await geo(ana, ['--sandbox', 'locate', 'sample:paris', '--depth', '3', '--case', id, '-q']);
    const exhibit = join(FIXTURES, 'nogps.jpg');
    await geo(ana, ['cases', 'note', id, '--observation', 'Haussmann facades', '--result', 'r1', '--exhibit', exhibit, '--source', 'https://example.org/ref']);
    await geo(bo, ['cases', 'note', id, '--hypothesis', 'the 8th arrondissement', '--clue', 'r1.clue1']);
    await geo(bo, ['cases', 'clues', id, 'accept', 'r1.clue1', '--because', 'the same traffic side']);
    await geo(ana, ['cases', 'conclude', id, '--at', '48.8698,2.3078', '--within', '150', '--confidence', 'probable', '--because', 'facades match']);

    // The chain as the server holds it, read by the admin as an outside observer.
    const entries: CustodyEntry[] = db.pg.sql(`SELECT line FROM custody WHERE case_id = '${id}' ORDER BY seq`).trim().split('\n').map(parseEntry);
    const mine = entries.filter((e) => ['note_made', 'clue_judged', 'conclusion_made'].includes(e.event)).map((e) => [e.event, e.role]);
    expect(mine).toEqual([['note_made', 'geo_ana'], ['note_made', 'geo_bo'], ['clue_judged', 'geo_bo'], ['conclusion_made', 'geo_ana']]);
    // The exhibit went into the team store's kept_files (an analyst may INSERT there), byte for byte.
    const sha = createHash('sha256').update(readFileSync(exhibit)).digest('hex');
    expect(db.pg.sql(`SELECT sha256 || '|' || size || '|' || media_type FROM kept_files`).trim()).toBe(`${sha}|${readFileSync(exhibit).length}|image/jpeg`);

    for (const env of [ana, bo]) {
      const shown = JSON.parse((await geo(env, ['cases', 'show', id, '--json'])).stdout) as { investigation: { notes: Array<{ kind: string; role: string }>; judgements: Array<{ role: string }>; conclusion: { role: string } } };
      expect(shown.investigation.notes.map((n) => [n.kind, n.role])).toEqual([['observation', 'geo_ana'], ['hypothesis', 'geo_bo']]);
      expect(shown.investigation.judgements.map((j) => j.role)).toEqual(['geo_bo']);
      expect(shown.investigation.conclusion.role).toBe('geo_ana');
      const human = (await geo(env, ['cases', 'show', id])).stdout;
      expect(human).toMatch(/observation: Haussmann facades {2}\[r1\]\n.*\n +geo_ana, /);
      expect(human).toMatch(/hypothesis: the 8th arrondissement {2}\[r1\.clue1\]\n +geo_bo, /);
      await geo(env, ['cases', 'verify', id, '--allow-sandbox']);
    }
  }, 120_000);

  it('a review on the team store: ana concludes with her key, bo approves with his; strict verify passes from both machines, and the review names bo\'s role', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const k = reviewKeys();
    const ana = { ...machineEnv(), GEO_STORE_URL: db.pg.addRole('geo_rev_ana'), CI: '1' };
    const bo = { ...machineEnv(), GEO_STORE_URL: db.pg.addRole('geo_rev_bo'), CI: '1' };
    const geo = async (env: Record<string, string>, argv: string[]) => {
      const r = await spawnGeo(argv, { env });
      expect(r.code, `geo ${argv.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
      return r;
    };
    await geo(ana, ['keys', 'signing', 'use', k.alice.path, '--principal', 'alice@example.org']);
    await geo(bo, ['keys', 'signing', 'use', k.bob.path, '--principal', 'bob@example.org']);
    const id = (JSON.parse((await geo(ana, ['cases', 'create', '--local', '--name', 'Quay', '--json'])).stdout) as { id: string }).id;
    await geo(ana, ['--sandbox', 'locate', 'sample:paris', '--depth', '3', '--case', id, '-q']);
    await geo(ana, ['cases', 'conclude', id, '--at', '48.8584,2.2945', '--within', '300', '--confidence', 'probable', '--because', 'the tower', '--result', 'r1']);
    // ana may not review her own conclusion, on the team store as on a laptop.
    const own = await spawnGeo(['cases', 'review', id, '--approve', '--because', 'looks right'], { env: ana });
    expect(own.code).toBe(2);
    await geo(bo, ['cases', 'review', id, '--approve', '--because', 'checked against Street View']);
    const review = db.pg.sql(`SELECT line FROM custody WHERE case_id = '${id}' ORDER BY seq`).trim().split('\n').map(parseEntry).find((e) => e.event === 'review_made')!;
    expect(review.role).toBe('geo_rev_bo');
    for (const env of [ana, bo]) await geo(env, ['cases', 'verify', id, '--require-signature', '--require-reviews', '1', '--allowed-signers', k.allowed, '--allow-sandbox']);
  }, 120_000);
});
