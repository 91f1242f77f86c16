/**
 * geo cases annotate on a team's PostgreSQL store: an analyst (the least grants docs/store.md
 * gives) makes the working copy, the bytes are kept in the team's kept_files, working_copy_made
 * names the database role that appended it, and a colleague on another machine bundles the case
 * with the copy in working/. The built program against a real PostgreSQL (skipped with the reason
 * where none starts).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unzip } from '../export/unzip.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile();
const dirs = () => ({ GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-team-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-team-state-')), CI: '1' });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('geo cases annotate on a team store', () => {
  it('an analyst makes the copy (kept in kept_files, logged with their role); a colleague bundles it in working/', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const alice = { ...dirs(), GEO_STORE_URL: db.pg.addRole('alice') };
    const bob = { ...dirs(), GEO_STORE_URL: db.pg.addRole('bob') };
    const made = await spawnGeo(['cases', 'create', '--name', 'Quay', '--local'], { env: alice });
    expect(made.code, made.stderr).toBe(0);
    const l = await spawnGeo(['--sandbox', 'locate', 'sample:paris', '--depth', '3', '--case', 'Quay', '-q'], { env: alice });
    expect(l.code, l.stderr).toBe(0);
    const out = mkdtempSync(join(tmpdir(), 'geo-team-copies-'));
    const a = await spawnGeo(['cases', 'annotate', 'Quay', '--out', out, '--json'], { env: alice });
    expect(a.code, a.stderr).toBe(0);
    const bytes = readFileSync(join(out, 'r1-annotated.png'));
    expect(JSON.parse(a.stdout).copies[0]).toMatchObject({ sha256: sha(bytes), appended: true });
    expect(db.pg.sql(`SELECT size || ' ' || media_type FROM kept_files WHERE sha256 = '${sha(bytes)}'`).trim()).toBe(`${bytes.length} image/png`);
    const line = JSON.parse(db.pg.sql("SELECT line FROM custody WHERE line LIKE '%\"working_copy_made\"%'").trim()) as { role?: string; data: { copy: { sha256: string } } };
    expect(line).toMatchObject({ role: 'alice', data: { copy: { sha256: sha(bytes) } } });

    const zip = join(out, 'quay.zip');
    const b = await spawnGeo(['cases', 'bundle', 'Quay', zip], { env: bob });
    expect(b.code, b.stderr).toBe(0);
    const member = unzip(readFileSync(zip)).find((e) => e.name === `working/${sha(bytes)}.png`);
    expect(member?.data.equals(bytes)).toBe(true);
    expect((await spawnGeo(['cases', 'verify', zip, '--allow-sandbox'], { env: bob })).code).toBe(0);
  });
});
