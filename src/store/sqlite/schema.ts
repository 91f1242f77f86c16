/**
 * The database's schema, as migrations: migration i takes PRAGMA user_version from i to i + 1,
 * inside one transaction. Add a migration; never edit one that has shipped.
 *
 * results   every paid answer: the raw bytes exactly as received (BLOB), the provenance record
 *           (JSON, without the raw body), and the columns history, search, reuse and export ask by.
 *           `listed` 0 = kept only so a rerun replays it (--no-store): not in history or exports.
 * results_fts  contentless FTS5 index over input path, place names, reasoning and analysis id
 *           (rowid = results.id), so `geo history --search` does not read every record.
 * claims    one row per idempotency key: which request (fp) it sends, whether it is still open
 *           (sent or about to be, no final outcome), answered (result_id) or failed (final error),
 *           and which process holds it (owner, lease_until) while its request is in flight.
 * batches   a command's identity (head: inputs, cwd, request fields, service, account), so
 *           `--resume ID` reruns it; the keys and answers are the claims'.
 * legacy_files  every older file the import has read (JSON record or NDJSON journal) and what
 *           came of it; a damaged one keeps the sha256 its folder named, so an image whose only
 *           record was damaged is never paid again without the plan saying so.
 * file_hashes  the sha256 and type of files already read, keyed by path and checked against their
 *           device, inode, size, mtime and ctime (as git's index does): a folder located again is
 *           not read again to find which images it holds.
 * meta      small facts: row counts kept by triggers, what has been imported.
 *
 * Migration 2 (cases as evidence):
 * cases     local cases: id (geo's own, `lc_…`), name, description, team, when created, and the
 *           service's case (its origin and id) when it was created there too (`service_note` says
 *           why not, when geo tried and could not). custody_entries and custody_head pin the end of
 *           its custody log, so entries cut off the end are caught (evidence/custody-verify.ts).
 * case_results  which stored results belong to which case, and when they were linked.
 * custody   each case's custody log, one row per entry: the entry's canonical JSON exactly as
 *           sealed (evidence/custody.ts), in append order (seq); UNIQUE(case_id, seq) is the backstop
 *           behind appends made in BEGIN IMMEDIATE transactions (store/cases.ts).
 *
 * Migration 3 (trusted timestamps):
 * timestamps  one row per (case, head, TSA): a request for an RFC 3161 token over a custody head,
 *           queued when it was asked for (pending: sent by `geo cases stamp --pending` once the TSA
 *           is reachable), then either stamped (the TSA's reply DER exactly as received, the
 *           certificates kept beside it, its genTime) or failed (the TSA refused it, or its reply
 *           did not hold: last_error says why). store/timestamps.ts; evidence/timestamp.ts.
 * Migration 4 (provenance kept before stripping):
 * embedded  what an original said about itself before geo stripped it for the upload, keyed by the
 *           original's sha256: its metadata as exiftool-style JSON (image/metadata.ts, at most
 *           256 KB) and its C2PA summary (image/c2pa.ts, {"present":false} when it has none), and
 *           when geo read them. Written once per image (the bytes, hence what they say, never change
 *           under one sha256); never sent anywhere.
 *
 * Migration 5 (a budget; the same tables as the team store's, store/postgres/schema.ts):
 * budget    at most one row: the cap in credits per period (day, week, month: UTC), the current
 *           period's start, and the credits spent (settled) and reserved (in flight) in it.
 * spend     one row per idempotency key that was reserved against it: who (OS user, host, case),
 *           what was held, what the service charged once settled, or released (not charged).
 *
 * Migration 6 (`geo history --search` at a million results):
 * results_unlisted  the few results kept out of history (--no-store runs), so a search counts its
 *           matches from the full-text index alone, less these, without reading each matching
 *           row of the results table (10,000 random page reads at a million results).
 *
 * Migration 7 (what an investigation keeps):
 * kept_files  bytes geo keeps on purpose, keyed by their sha256 (store/kept-rows.ts): a case's
 *           exhibits and annotated working copies, and originals kept with --keep-original. Custody
 *           entries name them by sha256; a bundle carries them.
 *
 * Migration 8 (near-duplicates; store/perceptual-rows.ts, store/pdq-index.ts):
 * perceptual  one row per image sha256 that geo hashed: its PDQ hash (64 hex digits), PDQ's quality
 *           and when. Results find theirs by their sha256. Older results get theirs on first use,
 *           read from their file when it is still there with the same sha256 (meta's
 *           pdq_scanned_through says how far that has looked).
 * pdq_index the multi-index over them: per image, 16 rows (chunk number x 65,536 + the chunk's
 *           16 bits, the image's perceptual id), the primary key the index a look-up probes.
 *
 * Migration 9 (copies of a photo; store/copy-links.ts):
 * copy_links  one row per result that is a copy of an earlier one (its image within the
 *           near-duplicate distance): the earlier result, the distance, and whether its answer was
 *           reused (the copy's row then holds none: charge 'reused_similar', unusable) or paid for.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    stored_at TEXT NOT NULL,
    sha256 TEXT,
    input_path TEXT NOT NULL DEFAULT '',
    analysis_id TEXT,
    origin TEXT NOT NULL DEFAULT '',
    account TEXT,
    sandbox INTEGER NOT NULL DEFAULT 0,
    request TEXT NOT NULL DEFAULT '{}',
    idem_key TEXT,
    batch TEXT,
    status INTEGER,
    usable INTEGER NOT NULL DEFAULT 1,
    listed INTEGER NOT NULL DEFAULT 1,
    charge TEXT NOT NULL DEFAULT 'unknown',
    depth INTEGER,
    city TEXT, neighborhood TEXT, country TEXT, address TEXT,
    latitude REAL, longitude REAL, confidence REAL,
    raw BLOB,
    body TEXT,
    record TEXT NOT NULL,
    imported_from TEXT
  );
  -- Covering for export --all's newest run per image (results.ts iterateResults): no table read.
  CREATE INDEX results_sha ON results(sha256, listed, usable, sandbox);
  CREATE INDEX results_time ON results(stored_at);
  CREATE INDEX results_aid ON results(analysis_id) WHERE analysis_id IS NOT NULL;
  CREATE UNIQUE INDEX results_key ON results(idem_key) WHERE idem_key IS NOT NULL;
  CREATE INDEX results_imported ON results(imported_from) WHERE imported_from IS NOT NULL;
  CREATE VIRTUAL TABLE results_fts USING fts5(input, places, reasoning, aid, content='', tokenize='unicode61 remove_diacritics 2');

  CREATE TABLE claims (
    key TEXT PRIMARY KEY,
    fp TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('open', 'answered', 'failed')),
    owner TEXT,
    lease_until INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    batch TEXT,
    input TEXT,
    result_id INTEGER,
    error TEXT,
    credits INTEGER
  );
  CREATE INDEX claims_fp ON claims(fp, created_at);
  CREATE INDEX claims_owner ON claims(owner) WHERE owner IS NOT NULL;

  CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    head TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );

  CREATE TABLE legacy_files (
    file TEXT PRIMARY KEY,
    sha256 TEXT,
    outcome TEXT NOT NULL CHECK (outcome IN ('imported', 'duplicate', 'damaged')),
    reason TEXT,
    found_at INTEGER NOT NULL
  );
  CREATE INDEX legacy_damaged ON legacy_files(sha256) WHERE outcome = 'damaged';

  CREATE TABLE file_hashes (
    path TEXT PRIMARY KEY,
    dev REAL NOT NULL, ino REAL NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, ctime_ms REAL NOT NULL,
    sha256 TEXT NOT NULL,
    kind TEXT NOT NULL
  );

  CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
  INSERT INTO meta (name, value) VALUES ('listed_results', '0');
  CREATE TRIGGER results_count_insert AFTER INSERT ON results WHEN NEW.listed = 1
    BEGIN UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE name = 'listed_results'; END;
  CREATE TRIGGER results_count_listed AFTER UPDATE OF listed ON results WHEN NEW.listed <> OLD.listed
    BEGIN UPDATE meta SET value = CAST(value AS INTEGER) + (CASE WHEN NEW.listed = 1 THEN 1 ELSE -1 END) WHERE name = 'listed_results'; END;
  `,
  `
  CREATE TABLE cases (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    team TEXT,
    created_at TEXT NOT NULL,
    service TEXT,
    service_id TEXT,
    service_note TEXT,
    custody_entries INTEGER NOT NULL DEFAULT 0,
    custody_head TEXT
  );
  CREATE INDEX cases_name ON cases(name COLLATE NOCASE);
  CREATE UNIQUE INDEX cases_service ON cases(service, service_id) WHERE service_id IS NOT NULL;

  CREATE TABLE case_results (
    case_id TEXT NOT NULL,
    result_id INTEGER NOT NULL,
    linked_at TEXT NOT NULL,
    PRIMARY KEY (case_id, result_id)
  );

  CREATE TABLE custody (
    case_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (case_id, seq)
  );
  `,
  `
  CREATE TABLE timestamps (
    id INTEGER PRIMARY KEY,
    case_id TEXT NOT NULL,
    head TEXT NOT NULL CHECK (length(head) = 64),
    seq INTEGER,
    tsa TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'stamped', 'failed')),
    requested_at TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    reply BLOB,
    ca_pem TEXT,
    gen_time TEXT,
    stamped_at TEXT,
    UNIQUE (case_id, head, tsa),
    CHECK (state <> 'stamped' OR (reply IS NOT NULL AND gen_time IS NOT NULL AND stamped_at IS NOT NULL))
  );
  CREATE INDEX timestamps_pending ON timestamps(requested_at) WHERE state = 'pending';
  `,
  `
  CREATE TABLE embedded (
    sha256 TEXT PRIMARY KEY,
    read_at TEXT NOT NULL,
    metadata TEXT NOT NULL,
    c2pa TEXT NOT NULL
  );
  `,
  `
  CREATE TABLE budget (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    cap INTEGER NOT NULL CHECK (cap >= 0),
    per TEXT NOT NULL CHECK (per IN ('day', 'week', 'month')),
    period_start INTEGER NOT NULL,
    spent INTEGER NOT NULL DEFAULT 0,
    reserved INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE spend (
    key TEXT PRIMARY KEY,
    at INTEGER NOT NULL,
    os_user TEXT NOT NULL,
    host TEXT NOT NULL,
    case_id TEXT,
    reserved INTEGER NOT NULL,
    charged INTEGER,
    state TEXT NOT NULL CHECK (state IN ('reserved', 'settled', 'released'))
  );
  CREATE INDEX spend_at ON spend(at);
  `,
  `
  CREATE INDEX results_unlisted ON results(id) WHERE listed = 0;
  `,
  `
  CREATE TABLE kept_files (
    sha256 TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    media_type TEXT NOT NULL,
    kept_at TEXT NOT NULL,
    bytes BLOB NOT NULL
  );
  `,
  `
  CREATE TABLE perceptual (
    id INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,
    pdq TEXT NOT NULL CHECK (length(pdq) = 64),
    quality INTEGER NOT NULL,
    hashed_at TEXT NOT NULL
  );
  CREATE TABLE pdq_index (
    chunk INTEGER NOT NULL,
    image INTEGER NOT NULL,
    PRIMARY KEY (chunk, image)
  ) WITHOUT ROWID;
  `,
  `
  CREATE TABLE copy_links (
    result INTEGER PRIMARY KEY,
    of_result INTEGER NOT NULL,
    distance INTEGER NOT NULL,
    reused INTEGER NOT NULL,
    linked_at TEXT NOT NULL
  );
  CREATE INDEX copy_links_of ON copy_links(of_result);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
