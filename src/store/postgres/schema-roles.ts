/**
 * The team store's migration 3 (schema.ts): who did something is the role the server
 * authenticated, and the budget is the admin's.
 *
 * - Who paid, who reserved, who appended: results.paid_role, spend.analyst and custody.author are
 *   written by the server as session_user (the role that logged in; SET ROLE does not change it):
 *   results and custody by triggers on INSERT that overwrite whatever a client sent (and keep the
 *   old value on UPDATE), spend by the reserving function below, its only writer besides the admin.
 *   The OS user and host a laptop says stay beside them as details (paid_user, paid_host; spend's
 *   os_user, host; an entry's user, host). Rows from before this migration have no role (NULL):
 *   nobody recorded one.
 * - A custody entry is hashed by the client (evidence/custody.ts) and chained, so the server
 *   cannot write the role into it without breaking the hash. The client reads session_user in the
 *   transaction that appends (postgres/cases.ts), puts it in the entry as `role`, and the trigger
 *   refuses (42501) an entry whose role is not the session_user that inserts it: no client can
 *   record another role in a hashed entry. A line without a role is one `geo store push` copied
 *   byte for byte from a laptop's file, where no role exists; its author column still names the
 *   role that pushed it.
 * - The budget: only the admin (the owner, who migrates) writes the budget row and spend.
 *   Analysts reserve and settle through three SECURITY DEFINER functions owned by the admin,
 *   which check their arguments (never a negative amount) and never touch cap, per or the period
 *   beyond rolling it over; their search_path is pinned to this schema (then pg_temp), so a
 *   caller's own objects are never looked up with the owner's rights. EXECUTE on them is revoked
 *   from PUBLIC and granted to the analysts' role (docs/store.md "Setting it up").
 * - The results counter's trigger runs as its owner, so analysts need no UPDATE on meta.
 * - A store set up with the grants geo documented before (UPDATE on every table): each role that
 *   could update the budget is granted the functions instead, and every role other than the
 *   owner loses what only the admin may do (writing budget, spend and schema_version; changing
 *   custody entries, deleting anything; UPDATE on results and cases beyond the columns geo
 *   updates), as do the admin's default privileges for new tables.
 */
export const ROLES_MIGRATION = `
  ALTER TABLE results ADD COLUMN paid_role text;
  ALTER TABLE spend ADD COLUMN analyst text;
  ALTER TABLE custody ADD COLUMN author text;

  CREATE FUNCTION results_paid_role() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN NEW.paid_role := session_user; ELSE NEW.paid_role := OLD.paid_role; END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER results_paid_role BEFORE INSERT OR UPDATE ON results FOR EACH ROW EXECUTE FUNCTION results_paid_role();

  CREATE FUNCTION custody_author() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE said text;
  BEGIN
    IF TG_OP = 'UPDATE' THEN NEW.author := OLD.author; RETURN NEW; END IF;
    NEW.author := session_user;
    said := NEW.line::jsonb ->> 'role';
    IF said IS NOT NULL AND said IS DISTINCT FROM session_user THEN
      RAISE EXCEPTION 'a custody entry names the role that appends it: % may not append one as %', session_user, said USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER custody_author BEFORE INSERT OR UPDATE ON custody FOR EACH ROW EXECUTE FUNCTION custody_author();

  CREATE FUNCTION geo_budget_now() RETURNS SETOF budget LANGUAGE plpgsql SECURITY DEFINER AS $$
  BEGIN
    UPDATE budget SET period_start = date_trunc(per, now(), 'UTC'), spent = 0 WHERE id = 1 AND period_start < date_trunc(per, now(), 'UTC');
    RETURN QUERY SELECT * FROM budget WHERE id = 1;
  END $$;

  CREATE FUNCTION geo_budget_reserve(p_key text, p_credits integer, p_case text, p_user text, p_host text) RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER AS $$
  BEGIN
    IF p_key IS NULL OR p_credits IS NULL OR p_credits < 0 THEN RAISE EXCEPTION 'a reservation is a key and 0 or more credits' USING ERRCODE = '22023'; END IF;
    PERFORM 1 FROM spend WHERE key = p_key AND state <> 'released' FOR UPDATE;
    IF FOUND THEN RETURN true; END IF;
    PERFORM geo_budget_now();
    UPDATE budget SET reserved = reserved + p_credits WHERE id = 1 AND spent + reserved + p_credits <= cap;
    IF NOT FOUND AND EXISTS (SELECT 1 FROM budget WHERE id = 1) THEN RETURN false; END IF;
    INSERT INTO spend (key, os_user, host, case_id, reserved, charged, state, analyst) VALUES (p_key, p_user, p_host, p_case, p_credits, NULL, 'reserved', session_user)
      ON CONFLICT (key) DO UPDATE SET at = now(), os_user = excluded.os_user, host = excluded.host, case_id = excluded.case_id, reserved = excluded.reserved, charged = NULL, state = 'reserved', analyst = excluded.analyst;
    RETURN true;
  END $$;

  CREATE FUNCTION geo_budget_finish(p_key text, p_charged integer, p_state text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS $$
  DECLARE held integer;
  BEGIN
    IF p_state NOT IN ('settled', 'released') OR p_charged IS NULL OR p_charged < 0 THEN RAISE EXCEPTION 'a reservation is settled at 0 or more credits, or released' USING ERRCODE = '22023'; END IF;
    UPDATE spend SET state = p_state, charged = p_charged, at = now() WHERE key = p_key AND state = 'reserved' RETURNING reserved INTO held;
    IF NOT FOUND THEN RETURN; END IF;
    PERFORM geo_budget_now();
    UPDATE budget SET reserved = greatest(0, reserved - held), spent = spent + p_charged WHERE id = 1;
  END $$;

  REVOKE EXECUTE ON FUNCTION geo_budget_now(), geo_budget_reserve(text, integer, text, text, text), geo_budget_finish(text, integer, text) FROM PUBLIC;
  ALTER FUNCTION results_count() SECURITY DEFINER;

  DO $$
  DECLARE
    r record;
    here text := quote_ident(current_schema());
    mine text[] := ARRAY['results', 'results_search', 'claims', 'batches', 'file_hashes', 'meta', 'cases', 'case_results', 'custody', 'timestamps', 'budget', 'spend', 'embedded', 'schema_version'];
  BEGIN
    FOR r IN SELECT unnest(ARRAY['geo_budget_now()', 'geo_budget_reserve(text, integer, text, text, text)', 'geo_budget_finish(text, integer, text)', 'results_count()']) AS fn LOOP
      EXECUTE format('ALTER FUNCTION %s SET search_path = %s, pg_temp', r.fn, here);
    END LOOP;
    FOR r IN SELECT DISTINCT a.grantee::regrole::text AS who FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
      WHERE c.oid = 'budget'::regclass AND a.privilege_type = 'UPDATE' AND a.grantee <> c.relowner AND a.grantee <> 0 LOOP
      EXECUTE format('GRANT EXECUTE ON FUNCTION geo_budget_now(), geo_budget_reserve(text, integer, text, text, text), geo_budget_finish(text, integer, text) TO %s', r.who);
    END LOOP;
    FOR r IN SELECT DISTINCT c.relname::text AS t, a.grantee::regrole::text AS who, a.privilege_type AS p FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ANY(mine) AND a.grantee <> c.relowner AND a.grantee <> 0 LOOP
      IF r.p IN ('DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER')
        OR (r.p IN ('INSERT', 'UPDATE') AND r.t IN ('budget', 'spend', 'schema_version', 'meta'))
        OR (r.p = 'UPDATE' AND r.t IN ('custody', 'results', 'cases')) THEN
        EXECUTE format('REVOKE %s ON %I FROM %s', r.p, r.t, r.who);
        IF r.p = 'UPDATE' AND r.t = 'results' THEN EXECUTE format('GRANT UPDATE (record) ON results TO %s', r.who); END IF;
        IF r.p = 'UPDATE' AND r.t = 'cases' THEN EXECUTE format('GRANT UPDATE (custody_entries, custody_head) ON cases TO %s', r.who); END IF;
      END IF;
    END LOOP;
    FOR r IN SELECT DISTINCT a.grantee::regrole::text AS who FROM pg_default_acl d CROSS JOIN LATERAL aclexplode(d.defaclacl) a
      WHERE d.defaclrole = current_user::regrole AND d.defaclobjtype = 'r' AND a.grantee <> 0 AND a.privilege_type IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE') LOOP
      EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %s REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON TABLES FROM %s', here, r.who);
      EXECUTE format('ALTER DEFAULT PRIVILEGES REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON TABLES FROM %s', r.who);
    END LOOP;
  END $$;
`;
