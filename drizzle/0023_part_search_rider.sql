-- Search that understands a rider (ADR 030): a vehicle named in a search keeps the universal parts too, so the search
-- table copies `parts.universal`; and a word the catalogue does not know is matched as the catalogue's words it is
-- probably a typo of, so the table of those words is kept beside it. Both are written by the database alone, as
-- ADR 025 has it: `redline_part_search_refresh` now copies `universal`, and `redline_part_search_words` adds the
-- words of new and changed parts.
CREATE TABLE "part_search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "part_search" ADD COLUMN "universal" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION redline_part_search_refresh(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO part_search (part_id, document, name, part_numbers, brand_id, category_id, model_ids, universal, created_at)
  SELECT p.id, p.search_vector, p.name, p.part_numbers, p.brand_id, p.category_id,
         coalesce((SELECT array_agg(DISTINCT f.model_id ORDER BY f.model_id) FROM part_fitments f WHERE f.part_id = p.id), '{}'),
         p.universal, p.created_at
    FROM parts p
   WHERE p.id = ANY (ids)
  ON CONFLICT (part_id) DO UPDATE
    SET document = excluded.document, name = excluded.name, part_numbers = excluded.part_numbers,
        brand_id = excluded.brand_id, category_id = excluded.category_id, model_ids = excluded.model_ids,
        universal = excluded.universal, created_at = excluded.created_at
    -- A row as it was is not written again (a new row version costs an entry in every GIN index).
    WHERE (part_search.document, part_search.name, part_search.part_numbers, part_search.brand_id,
           part_search.category_id, part_search.model_ids, part_search.universal, part_search.created_at)
          IS DISTINCT FROM (excluded.document, excluded.name, excluded.part_numbers, excluded.brand_id,
                            excluded.category_id, excluded.model_ids, excluded.universal, excluded.created_at)
$$;
--> statement-breakpoint
-- The words of these parts' names and descriptions, lower case as written, letters only, three or more of them.
-- Inserted in order and never deleted or updated: two imports adding the same new words wait for each other in the
-- same order (no deadlock), and an existing word costs no write at all.
CREATE FUNCTION redline_part_search_words(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO part_search_words (word)
  SELECT DISTINCT word
    FROM parts p, unnest(tsvector_to_array(to_tsvector('simple', p.name || ' ' || p.description))) word
   WHERE p.id = ANY (ids) AND word ~ '^[[:alpha:]]{3,40}$'
   ORDER BY word
  ON CONFLICT (word) DO NOTHING
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION redline_part_search_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM redline_part_search_refresh(array(SELECT id FROM added));
  PERFORM redline_part_search_words(array(SELECT id FROM added));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION redline_part_search_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM redline_part_search_refresh(ARRAY[NEW.id]);
  IF (OLD.name, OLD.description) IS DISTINCT FROM (NEW.name, NEW.description) THEN
    PERFORM redline_part_search_words(ARRAY[NEW.id]);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The same trigger, `universal` added to its columns.
DROP TRIGGER "parts_changed_part_search" ON "parts";
--> statement-breakpoint
CREATE TRIGGER "parts_changed_part_search" AFTER UPDATE OF "name", "mpn", "description", "part_numbers", "brand_id", "category_id", "universal", "created_at" ON "parts" FOR EACH ROW
  WHEN ((OLD.name, OLD.mpn, OLD.description, OLD.part_numbers, OLD.brand_id, OLD.category_id, OLD.universal, OLD.created_at)
        IS DISTINCT FROM (NEW.name, NEW.mpn, NEW.description, NEW.part_numbers, NEW.brand_id, NEW.category_id, NEW.universal, NEW.created_at))
  EXECUTE FUNCTION redline_part_search_changed();
--> statement-breakpoint
UPDATE part_search SET universal = true FROM parts p WHERE p.id = part_search.part_id AND p.universal;
--> statement-breakpoint
SELECT redline_part_search_words(array(SELECT id FROM parts));
--> statement-breakpoint
CREATE INDEX "part_search_words_trgm_idx" ON "part_search_words" USING gin ("word" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "part_search_universal_idx" ON "part_search" USING btree ("part_id") WHERE "part_search"."universal";
--> statement-breakpoint
ANALYZE "part_search";
--> statement-breakpoint
ANALYZE "part_search_words";
