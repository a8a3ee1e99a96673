-- Issue 13: every instance keeps each part's facet facts (category, brand, price, stock, age, universal) in memory
-- (src/server/modules/catalog/part-facts.ts) and must know WHICH parts a write changed: a checkout that takes the
-- stock of three parts should refresh three parts, not reload the catalogue. Writes to `parts` now notify
-- 'parts:<id>,<id>,…' (the statement's rows, read from its transition table) when at most 100 rows changed, and
-- plain 'parts' (anything may have changed) when more did or the table was truncated. Other tables keep
-- notifying their name (0014). A statement that changed no row sends nothing.
DROP TRIGGER "parts_catalog_changed" ON "parts";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION redline_parts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  SELECT CASE
           WHEN count(*) = 0 THEN NULL
           WHEN count(*) <= 100 THEN 'parts:' || string_agg(id::text, ',')
           ELSE 'parts'
         END
    INTO payload
    FROM changed;
  IF payload IS NOT NULL THEN
    PERFORM pg_notify('redline_catalog', payload);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "parts_inserted_catalog_changed" AFTER INSERT ON "parts" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION redline_parts_changed();
--> statement-breakpoint
CREATE TRIGGER "parts_updated_catalog_changed" AFTER UPDATE ON "parts" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION redline_parts_changed();
--> statement-breakpoint
CREATE TRIGGER "parts_deleted_catalog_changed" AFTER DELETE ON "parts" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION redline_parts_changed();
--> statement-breakpoint
CREATE TRIGGER "parts_truncated_catalog_changed" AFTER TRUNCATE ON "parts" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
