/**
 * geo cases report on a team store: a case one analyst located on the sandbox, noted on and
 * annotated through the team store's own custody log (a working copy kept in its kept_files), is
 * reported by the built program on another machine: every entry names the database role that
 * wrote it, the working copy is embedded from the team store's bytes, and the report file is
 * logged in the team's log. A real PostgreSQL (test/helpers/postgres.ts; skipped with the reason
 * where none starts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseLog } from '../../src/batch/case-custody.js';
import { processProbe } from '../../src/cli.js';
import { type CustodyEntry, parseEntry } from '../../src/evidence/custody.js';
import { findCase } from '../../src/store/find.js';
import { openStore } from '../../src/store/index.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';

const db = postgresPerFile();
const machine = (url: string) => ({ GEO_STORE_URL: url, GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-team-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-team-state-')), CI: '1' });

describe('geo cases report against a real PostgreSQL team store', () => {
  it('reports a case written on another machine: roles named, the working copy embedded from the team store, the report logged there', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const a = machine(db.pg.analystUrl);
    const b = machine(db.pg.analystUrl);
    expect((await spawnGeo(['cases', 'create', '--name', 'Team case', '--local'], { env: a })).code).toBe(0);
    const located = await spawnGeo(['--sandbox', 'locate', 'sample:paris', '--depth', '2', '--case', 'Team case', '-q'], { env: a });
    expect(located.code, located.stderr).toBe(0);

    const api = await openStore({ kind: 'team', url: db.pg.analystUrl }, { probe: processProbe(), now: Date.now });
    let id: string;
    let copy: string;
    try {
      const c = await findCase(api, 'Team case');
      id = c.id;
      const input = parseEntry((await api.cases.lines(id)).find((l) => l.includes('"input_hashed"'))!).data.input as { path: string; sha256: string };
      copy = (await api.kept.put(readFileSync(FIXTURES + 'tokyo.jpg'), 'image/jpeg')).sha256;
      const log = caseLog(api, '0.0.0-test', Date.now);
      await log.append(id, { event: 'note_made', data: { note: { kind: 'observation', text: 'A quay with red cranes.' } } });
      await log.append(id, { event: 'working_copy_made', data: { copy: { of: { sha256: input.sha256, input_path: input.path }, sha256: copy, size: readFileSync(FIXTURES + 'tokyo.jpg').length, media_type: 'image/jpeg', method: 'boxes drawn', boxes: [] } } });
    } finally {
      await api.close();
    }

    const out = join(mkdtempSync(join(tmpdir(), 'geo-team-report-')), 'report.html');
    const r = await spawnGeo(['cases', 'report', id, '--out', out], { env: b });
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('A quay with red cranes.');
    expect(html).toMatch(/entry \d+ · [^<]+ · geo_analyst \(/);
    expect(html).toMatch(/<img src="data:image\/jpeg;base64,[^"]+" alt="working copy \(annotated\)">/);
    expect(html).toContain(copy);
    expect(html).toMatch(/<img src="data:image\/jpeg;base64,[^"]+" alt="original \(evidence\)"><figcaption><strong>original \(evidence\)<\/strong> · r1: /);

    const after = await openStore({ kind: 'team', url: db.pg.analystUrl }, { probe: processProbe(), now: Date.now });
    try {
      const last: CustodyEntry = parseEntry((await after.cases.lines(id)).at(-1)!);
      expect(last.event).toBe('file_written');
      expect(last.role).toBe('geo_analyst');
      expect(last.data.file).toMatchObject({ kind: 'report', format: 'html', path: out });
    } finally {
      await after.close();
    }
  }, 120_000);
});
