/**
 * bench/team's bulk load (issue 32): a million team results made by the server from templates geo
 * stored itself, in the engine's own schema (src/store/postgres/schema.ts), as the admin role.
 *
 * Row i (TEMPLATES <= i < N) is template i % TEMPLATES with what bench/store-data.mjs and
 * bench/team.mjs record(i) compute from i put in: analysis id an_bench_<hex i> (in the columns,
 * the record, the body and the raw answer), path /cases/<i/1000>/photo-<i>.jpg, sha256 of
 * "image <i>", idempotency key bench-<i>, stored at 2026-01-01 + i seconds, body(i)'s coordinates
 * and confidence, analyst<i%7>@laptop<i%3> paying at that time; its words are the template's with
 * the path's and the id's words its own.
 *
 * While loading, the words' GIN index is dropped (built once at the end, as an admin restoring a
 * dump would) and the listed-results counter's trigger is off (meta is set once at the end).
 */
const CHUNK = 100_000;

/** Before the load: no GIN index to update per row, no counter row rewritten per row. */
export async function dropForFill(c) {
  await c.query('DROP INDEX IF EXISTS results_search_words');
  await c.query('ALTER TABLE results DISABLE TRIGGER results_count');
}

/** After it: the index the schema declares, the counter, fresh statistics. */
export async function restoreAfterFill(c) {
  await c.query('CREATE INDEX results_search_words ON results_search USING gin(search)');
  await c.query('ALTER TABLE results ENABLE TRIGGER results_count');
  await c.query(`UPDATE meta SET value = (SELECT count(*) FROM results WHERE listed = 1)::text WHERE name = 'listed_results'`);
  await c.query('VACUUM ANALYZE results');
  await c.query('VACUUM ANALYZE results_search');
}

export async function fillFromTemplates(c, cols, templates, n, progress) {
  if (n <= templates) return;
  await c.query(`CREATE TEMP TABLE tmpl AS
    SELECT substring(r.idem_key from 7)::int AS t, r.*, s.search FROM results r JOIN results_search s USING (id) WHERE r.idem_key ~ '^bench-[0-9]+$' AND substring(r.idem_key from 7)::int < $1`, [templates]);
  await c.query('CREATE UNIQUE INDEX ON tmpl (t)');
  const got = Number((await c.query('SELECT count(*) AS n FROM tmpl')).rows[0].n);
  if (got !== templates) throw new Error(`bench/team: ${got} templates found, ${templates} stored`);
  const aid = "'an_bench_' || lpad(to_hex(i), 8, '0')";
  const path = "'/cases/' || (i / 1000) || '/photo-' || i || '.jpg'";
  const sha = "encode(sha256(convert_to('image ' || i, 'UTF8')), 'hex')";
  const at = "(timestamptz '2026-01-01 00:00:00+00' + i * interval '1 second')";
  const text = (col) => `replace(replace(replace(replace(t.${col}, t.analysis_id, ${aid}), t.input_path, ${path}), t.sha256, ${sha}), t.idem_key, 'bench-' || i)`;
  const expr = {
    stored_at: `to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`,
    sha256: sha, input_path: path, analysis_id: aid, idem_key: "'bench-' || i",
    latitude: '-60 + ((i::bigint * 7919) % 12000) / 100.0', longitude: '-170 + ((i::bigint * 104729) % 34000) / 100.0', confidence: '(i % 97) / 100.0',
    record: text('record'), body: `replace(t.body, t.analysis_id, ${aid})`,
    raw: `convert_to(replace(convert_from(t.raw, 'UTF8'), t.analysis_id, ${aid}), 'UTF8')`,
  };
  const select = cols.map((col) => expr[col] ?? `t.${col}`).join(', ');
  // The template's own path and id words out, the row's in (words are cut as searchDocument cuts them).
  const words = `ts_delete(t.search, ARRAY[(t.t / 1000)::text, t.t::text, lpad(to_hex(t.t), 8, '0')]) || to_tsvector('simple', (i / 1000) || ' ' || i || ' ' || lpad(to_hex(i), 8, '0'))`;
  for (let from = templates; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK) - 1;
    await c.query(`WITH r AS (
        INSERT INTO results (${cols.join(', ')}, content_sha, paid_user, paid_host, paid_at)
        SELECT ${select}, encode(sha256(convert_to('bench content ' || i, 'UTF8')), 'hex'), 'analyst' || (i % 7), 'laptop' || (i % 3), ${at}
        FROM generate_series($1::int, $2::int) AS i JOIN tmpl t ON t.t = i % $3
        RETURNING id, listed, idem_key)
      INSERT INTO results_search (id, listed, search)
        SELECT r.id, r.listed, ${words} FROM r, LATERAL (SELECT substring(r.idem_key from 7)::int AS i) k JOIN tmpl t ON t.t = k.i % $3`, [from, to, templates]);
    progress(to + 1);
  }
  await c.query('DROP TABLE tmpl');
}
