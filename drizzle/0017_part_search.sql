-- The search table (ADR 025): one narrow row per part with what a search's candidates are chosen by. Only the
-- database writes it, in the writing statement's transaction, so every write path (the catalogue, imports, photos,
-- orders, another module tomorrow) keeps it current and the rule of what it holds is written once, here:
-- `redline_part_search_refresh` copies the parts' searched columns and the models their fitment rows name.
CREATE TABLE "part_search" (
	"part_id" uuid PRIMARY KEY NOT NULL,
	"document" "tsvector" NOT NULL,
	"name" text NOT NULL,
	"part_numbers" text[] NOT NULL,
	"brand_id" uuid,
	"category_id" uuid,
	"model_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "part_search" ADD CONSTRAINT "part_search_part_id_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."parts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE FUNCTION redline_part_search_refresh(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO part_search (part_id, document, name, part_numbers, brand_id, category_id, model_ids, created_at)
  SELECT p.id, p.search_vector, p.name, p.part_numbers, p.brand_id, p.category_id,
         coalesce((SELECT array_agg(DISTINCT f.model_id ORDER BY f.model_id) FROM part_fitments f WHERE f.part_id = p.id), '{}'),
         p.created_at
    FROM parts p
   WHERE p.id = ANY (ids)
  ON CONFLICT (part_id) DO UPDATE
    SET document = excluded.document, name = excluded.name, part_numbers = excluded.part_numbers,
        brand_id = excluded.brand_id, category_id = excluded.category_id, model_ids = excluded.model_ids,
        created_at = excluded.created_at
    -- A row as it was is not written again (a new row version costs an entry in every GIN index).
    WHERE (part_search.document, part_search.name, part_search.part_numbers, part_search.brand_id,
           part_search.category_id, part_search.model_ids, part_search.created_at)
          IS DISTINCT FROM (excluded.document, excluded.name, excluded.part_numbers, excluded.brand_id,
                            excluded.category_id, excluded.model_ids, excluded.created_at)
$$;
--> statement-breakpoint
-- New parts, set-based: an import inserts hundreds per statement.
CREATE FUNCTION redline_part_search_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM redline_part_search_refresh(array(SELECT id FROM added));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "parts_added_part_search" AFTER INSERT ON "parts" REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION redline_part_search_added();
--> statement-breakpoint
-- A changed part, only when a searched column changed: the column list keeps the trigger from even being queued
-- for a stock or price change (every order), which a statement trigger with transition tables cannot do.
CREATE FUNCTION redline_part_search_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM redline_part_search_refresh(ARRAY[NEW.id]);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "parts_changed_part_search" AFTER UPDATE OF "name", "mpn", "description", "part_numbers", "brand_id", "category_id", "created_at" ON "parts" FOR EACH ROW
  WHEN ((OLD.name, OLD.mpn, OLD.description, OLD.part_numbers, OLD.brand_id, OLD.category_id, OLD.created_at)
        IS DISTINCT FROM (NEW.name, NEW.mpn, NEW.description, NEW.part_numbers, NEW.brand_id, NEW.category_id, NEW.created_at))
  EXECUTE FUNCTION redline_part_search_changed();
--> statement-breakpoint
-- Fitment rows added, changed or removed: their parts' models again, once per part and statement. A part's deletion
-- removes its row through the foreign key (its fitment rows' deletion then refreshes nothing).
CREATE FUNCTION redline_part_search_fitted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM redline_part_search_refresh(array(SELECT DISTINCT part_id FROM fitted));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "part_fitments_added_part_search" AFTER INSERT ON "part_fitments" REFERENCING NEW TABLE AS fitted FOR EACH STATEMENT EXECUTE FUNCTION redline_part_search_fitted();
--> statement-breakpoint
CREATE TRIGGER "part_fitments_changed_part_search" AFTER UPDATE ON "part_fitments" REFERENCING NEW TABLE AS fitted FOR EACH STATEMENT EXECUTE FUNCTION redline_part_search_fitted();
--> statement-breakpoint
CREATE TRIGGER "part_fitments_moved_part_search" AFTER UPDATE ON "part_fitments" REFERENCING OLD TABLE AS fitted FOR EACH STATEMENT EXECUTE FUNCTION redline_part_search_fitted();
--> statement-breakpoint
CREATE TRIGGER "part_fitments_removed_part_search" AFTER DELETE ON "part_fitments" REFERENCING OLD TABLE AS fitted FOR EACH STATEMENT EXECUTE FUNCTION redline_part_search_fitted();
--> statement-breakpoint
-- The existing parts, after the triggers (which lock out writes until this migration commits) and before the
-- indexes (built once over the whole table rather than row by row).
SELECT redline_part_search_refresh(array(SELECT id FROM parts));
--> statement-breakpoint
CREATE INDEX "part_search_document_idx" ON "part_search" USING gin ("document");--> statement-breakpoint
CREATE INDEX "part_search_name_trgm_idx" ON "part_search" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "part_search_part_numbers_idx" ON "part_search" USING gin ("part_numbers");--> statement-breakpoint
CREATE INDEX "part_search_model_ids_idx" ON "part_search" USING gin ("model_ids");--> statement-breakpoint
CREATE INDEX "part_search_brand_idx" ON "part_search" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "part_search_category_idx" ON "part_search" USING btree ("category_id");
--> statement-breakpoint
ANALYZE "part_search";
