/**
 * The team store's schema, as migrations kept in the database: schema_version holds one
 * row per migration applied (its number, when, by which database role). Only `geo store migrate`,
 * run by an admin role, applies them; an analyst's geo refuses a store behind or ahead of it
 * (migrate.ts). Add a migration; never edit one that has shipped.
 *
 * The tables mirror the local file's (store/sqlite/schema.ts), with what a team needs beside them:
 * - times that decide anything (claims' leases, created_at) are the SERVER's clock in ms since the
 *   epoch (geo_now_ms()), never a laptop's;
 * - results say who stored (paid for) them: paid_role (migration 3), paid_user, paid_host, paid_at; their words are in a
 *   tsvector under a GIN index in a narrow table of their own (results_search): `geo history
 *   --search` reads no record;
 * - one open claim per request at most: a partial unique index on claims(fp) WHERE state = 'open',
 *   so "two machines take one fingerprint" is settled by the index, not by timing;
 * - content_sha (sha256 of record and raw bytes) makes `geo store push` idempotent;
 * - file_hashes are keyed by host as well as path (a path means nothing on another machine);
 * - budget / spend: a team's cap per period and each key's reservation (postgres/budget.ts).
 * Migration 2 (tables, merged later): embedded, what an original said about itself
 * before it was stripped (its metadata and C2PA summary as JSON text, keyed by its sha256, never
 * the image), and the pending-timestamps index the local file has (sqlite/schema.ts 3 and 4).
 * Migration 3 (schema-roles.ts): who paid, reserved or appended is the role the server
 * authenticated, written by the server; only the admin writes the budget.
 * Migration 4: kept_files, the bytes an investigation keeps on purpose (exhibits, annotated
 * working copies, originals kept with --keep-original), keyed by sha256 (store/kept-rows.ts).
 * Migration 5: perceptual (an image's PDQ hash by its sha256), pdq_index (the near-duplicate index
 * over them: store/pdq-index.ts) and pdq_scanned (per host, how far the hashing of older results
 * has looked: their files are on the machine that located them), as the local file's migration 8.
 * Migration 6: copy_links (a result that is a copy of an earlier one: store/copy-links.ts), as the
 * local file's migration 9.
 * Never stored: API keys (claims and results carry an account fingerprint only), and no image
 * bytes but those an analyst chose to keep.
 */
import { ROLES_MIGRATION } from './schema-roles.js';

export const PG_MIGRATIONS: readonly string[] = [
  `
  CREATE FUNCTION geo_now_ms() RETURNS bigint LANGUAGE sql STABLE AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;

  CREATE TABLE results (
    id bigserial PRIMARY KEY,
    stored_at text NOT NULL,
    sha256 text,
    input_path text NOT NULL DEFAULT '',
    analysis_id text,
    origin text NOT NULL DEFAULT '',
    account text,
    sandbox integer NOT NULL DEFAULT 0,
    request text NOT NULL DEFAULT '{}',
    idem_key text,
    batch text,
    status integer,
    usable integer NOT NULL DEFAULT 1,
    listed integer NOT NULL DEFAULT 1,
    charge text NOT NULL DEFAULT 'unknown',
    depth integer,
    city text, neighborhood text, country text, address text,
    latitude double precision, longitude double precision, confidence double precision,
    raw bytea,
    body text,
    record text NOT NULL,
    imported_from text,
    content_sha text NOT NULL,
    paid_user text NOT NULL,
    paid_host text NOT NULL,
    paid_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX results_sha ON results(sha256, listed, usable, sandbox);
  CREATE INDEX results_time ON results(stored_at DESC, id DESC) WHERE listed = 1;
  CREATE INDEX results_aid ON results(analysis_id) WHERE analysis_id IS NOT NULL;
  CREATE UNIQUE INDEX results_key ON results(idem_key) WHERE idem_key IS NOT NULL;
  CREATE UNIQUE INDEX results_content ON results(content_sha);
  CREATE INDEX results_batch ON results(batch, stored_at) WHERE batch IS NOT NULL;
  -- The words apart from the wide rows (records and raw answers are kilobytes): a search that
  -- matches tens of thousands of results reads and counts narrow rows only (postgres/results.ts).
  CREATE TABLE results_search (
    id bigint PRIMARY KEY REFERENCES results(id),
    listed integer NOT NULL,
    search tsvector NOT NULL
  );
  CREATE INDEX results_search_words ON results_search USING gin(search);

  CREATE TABLE claims (
    key text PRIMARY KEY,
    fp text NOT NULL,
    state text NOT NULL CHECK (state IN ('open', 'answered', 'failed')),
    owner text,
    lease_until bigint,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    batch text,
    input text,
    result_id bigint,
    error text,
    credits integer,
    seq bigserial
  );
  CREATE INDEX claims_fp ON claims(fp, created_at);
  CREATE UNIQUE INDEX claims_one_open ON claims(fp) WHERE state = 'open';
  CREATE INDEX claims_owner ON claims(owner) WHERE owner IS NOT NULL;

  CREATE TABLE batches (
    id text PRIMARY KEY,
    head text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  );

  CREATE TABLE file_hashes (
    host text NOT NULL,
    path text NOT NULL,
    dev double precision NOT NULL, ino double precision NOT NULL, size bigint NOT NULL, mtime_ms double precision NOT NULL, ctime_ms double precision NOT NULL,
    sha256 text NOT NULL,
    kind text NOT NULL,
    PRIMARY KEY (host, path)
  );

  CREATE TABLE meta (name text PRIMARY KEY, value text NOT NULL);
  INSERT INTO meta (name, value) VALUES ('listed_results', '0');
  CREATE FUNCTION results_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' AND NEW.listed = 1 THEN
      UPDATE meta SET value = (value::bigint + 1)::text WHERE name = 'listed_results';
    ELSIF TG_OP = 'UPDATE' AND NEW.listed <> OLD.listed THEN
      UPDATE meta SET value = (value::bigint + CASE WHEN NEW.listed = 1 THEN 1 ELSE -1 END)::text WHERE name = 'listed_results';
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER results_count AFTER INSERT OR UPDATE OF listed ON results FOR EACH ROW EXECUTE FUNCTION results_count();

  CREATE TABLE cases (
    id text PRIMARY KEY,
    name text NOT NULL,
    description text NOT NULL DEFAULT '',
    team text,
    created_at text NOT NULL,
    service text,
    service_id text,
    service_note text,
    custody_entries integer NOT NULL DEFAULT 0,
    custody_head text
  );
  CREATE INDEX cases_name ON cases(lower(name));
  CREATE UNIQUE INDEX cases_service ON cases(service, service_id) WHERE service_id IS NOT NULL;

  CREATE TABLE case_results (
    case_id text NOT NULL,
    result_id bigint NOT NULL,
    linked_at text NOT NULL,
    seq bigserial,
    PRIMARY KEY (case_id, result_id)
  );

  CREATE TABLE custody (
    case_id text NOT NULL,
    seq integer NOT NULL,
    line text NOT NULL,
    PRIMARY KEY (case_id, seq)
  );

  CREATE TABLE timestamps (
    id bigserial PRIMARY KEY,
    case_id text NOT NULL,
    head text NOT NULL CHECK (length(head) = 64),
    seq integer,
    tsa text NOT NULL,
    state text NOT NULL CHECK (state IN ('pending', 'stamped', 'failed')),
    requested_at text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    last_error text,
    reply bytea,
    ca_pem text,
    gen_time text,
    stamped_at text,
    UNIQUE (case_id, head, tsa),
    CHECK (state <> 'stamped' OR (reply IS NOT NULL AND gen_time IS NOT NULL AND stamped_at IS NOT NULL))
  );

  CREATE TABLE budget (
    id integer PRIMARY KEY CHECK (id = 1),
    cap integer NOT NULL CHECK (cap >= 0),
    per text NOT NULL CHECK (per IN ('day', 'week', 'month')),
    period_start timestamptz NOT NULL,
    spent integer NOT NULL DEFAULT 0,
    reserved integer NOT NULL DEFAULT 0
  );
  CREATE TABLE spend (
    key text PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    os_user text NOT NULL,
    host text NOT NULL,
    case_id text,
    reserved integer NOT NULL,
    charged integer,
    state text NOT NULL CHECK (state IN ('reserved', 'settled', 'released'))
  );
  CREATE INDEX spend_at ON spend(at);
  `,
  `
  CREATE TABLE embedded (
    sha256 text PRIMARY KEY,
    read_at text NOT NULL,
    metadata text NOT NULL,
    c2pa text NOT NULL
  );
  CREATE INDEX timestamps_pending ON timestamps(requested_at) WHERE state = 'pending';
  `,
  ROLES_MIGRATION,
  `
  CREATE TABLE kept_files (
    sha256 text PRIMARY KEY,
    size integer NOT NULL,
    media_type text NOT NULL,
    kept_at text NOT NULL,
    bytes bytea NOT NULL
  );
  `,
  `
  CREATE TABLE perceptual (
    id bigserial PRIMARY KEY,
    sha256 text NOT NULL UNIQUE,
    pdq text NOT NULL CHECK (length(pdq) = 64),
    quality integer NOT NULL,
    hashed_at text NOT NULL
  );
  CREATE TABLE pdq_index (
    chunk integer NOT NULL,
    image bigint NOT NULL,
    PRIMARY KEY (chunk, image)
  );
  CREATE TABLE pdq_scanned (
    host text PRIMARY KEY,
    through bigint NOT NULL
  );
  `,
  `
  CREATE TABLE copy_links (
    result bigint PRIMARY KEY,
    of_result bigint NOT NULL,
    distance integer NOT NULL,
    reused integer NOT NULL,
    linked_at text NOT NULL
  );
  CREATE INDEX copy_links_of ON copy_links (of_result);
  `,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
