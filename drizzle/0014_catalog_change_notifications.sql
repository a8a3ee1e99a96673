-- Issue 15: every instance keeps the public catalogue answers in memory (ADR 016) and forgets them when any of the
-- tables those answers show changes. One notification per statement (FOR EACH STATEMENT), so a 100,000-row import
-- or an order that takes stock sends one, and it is delivered only when the writing transaction commits.
CREATE OR REPLACE FUNCTION redline_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('redline_catalog', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "parts_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "parts" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER "brands_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "brands" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER "categories_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER "vehicle_makes_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "vehicle_makes" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER "vehicle_models_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "vehicle_models" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER "vehicles_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "vehicles" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER "part_fitments_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "part_fitments" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER "reviews_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "reviews" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER "part_photos_catalog_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "part_photos" FOR EACH STATEMENT EXECUTE FUNCTION redline_catalog_changed();
