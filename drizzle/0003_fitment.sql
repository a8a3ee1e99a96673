CREATE TABLE "brands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"parent_id" uuid,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "garage_vehicles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"name" text,
	"is_current" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "part_fitments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"part_id" uuid NOT NULL,
	"model_id" uuid NOT NULL,
	"year_from" integer NOT NULL,
	"year_to" integer NOT NULL,
	"variant" text,
	CONSTRAINT "part_fitments_years_ordered" CHECK ("part_fitments"."year_from" <= "part_fitments"."year_to")
);
--> statement-breakpoint
CREATE TABLE "vehicle_makes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicle_models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"make_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vehicle_models_type_valid" CHECK ("vehicle_models"."type" in ('motorcycle', 'car', 'atv', 'scooter'))
);
--> statement-breakpoint
CREATE TABLE "vehicles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"model_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"variant" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vehicles_year_range" CHECK ("vehicles"."year" between 1950 and 2030)
);
--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "brand_id" uuid;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "category_id" uuid;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "mpn" text;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "oem_numbers" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "part_numbers" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "parts" ADD COLUMN "universal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garage_vehicles" ADD CONSTRAINT "garage_vehicles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garage_vehicles" ADD CONSTRAINT "garage_vehicles_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "part_fitments" ADD CONSTRAINT "part_fitments_part_id_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "part_fitments" ADD CONSTRAINT "part_fitments_model_id_vehicle_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."vehicle_models"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_models" ADD CONSTRAINT "vehicle_models_make_id_vehicle_makes_id_fk" FOREIGN KEY ("make_id") REFERENCES "public"."vehicle_makes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_model_id_vehicle_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."vehicle_models"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brands_slug_unique" ON "brands" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_slug_unique" ON "categories" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "garage_vehicles_user_vehicle_unique" ON "garage_vehicles" USING btree ("user_id","vehicle_id");--> statement-breakpoint
CREATE UNIQUE INDEX "garage_vehicles_one_current" ON "garage_vehicles" USING btree ("user_id") WHERE "garage_vehicles"."is_current";--> statement-breakpoint
CREATE INDEX "garage_vehicles_vehicle_idx" ON "garage_vehicles" USING btree ("vehicle_id");--> statement-breakpoint
CREATE INDEX "part_fitments_model_idx" ON "part_fitments" USING btree ("model_id","year_from","year_to","variant","part_id");--> statement-breakpoint
CREATE INDEX "part_fitments_part_idx" ON "part_fitments" USING btree ("part_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vehicle_makes_name_unique" ON "vehicle_makes" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "vehicle_models_make_name_unique" ON "vehicle_models" USING btree ("make_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_model_year_variant_unique" ON "vehicles" USING btree ("model_id","year","variant");--> statement-breakpoint
CREATE INDEX "vehicles_year_idx" ON "vehicles" USING btree ("year");--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parts" ADD CONSTRAINT "parts_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "parts_part_numbers_idx" ON "parts" USING gin ("part_numbers");--> statement-breakpoint
CREATE INDEX "parts_category_idx" ON "parts" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "parts_brand_idx" ON "parts" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "parts_universal_idx" ON "parts" USING btree ("id") WHERE "parts"."universal";
--> statement-breakpoint
-- The category tree is product data (Brakes › Pads, …), the same in every shop: written here, not by the demo seed.
INSERT INTO "categories" ("slug", "name", "position") VALUES
  ('brakes', 'Brakes', 1),
  ('drivetrain', 'Drivetrain', 2),
  ('engine', 'Engine', 3),
  ('controls', 'Controls', 4),
  ('electrical', 'Electrical', 5),
  ('wheels-tyres', 'Wheels & Tyres', 6),
  ('body', 'Body', 7),
  ('gear', 'Gear', 8),
  ('tools', 'Tools', 9);--> statement-breakpoint
INSERT INTO "categories" ("slug", "name", "parent_id", "position")
SELECT v.slug, v.name, p.id, v.position FROM (VALUES
  ('brake-pads', 'Pads', 'brakes', 1),
  ('brake-discs', 'Discs', 'brakes', 2),
  ('chains', 'Chains', 'drivetrain', 1),
  ('sprockets', 'Sprockets', 'drivetrain', 2),
  ('filters', 'Filters', 'engine', 1),
  ('ignition', 'Ignition', 'engine', 2),
  ('exhaust', 'Exhaust', 'engine', 3),
  ('levers', 'Levers', 'controls', 1),
  ('mirrors', 'Mirrors', 'controls', 2),
  ('lighting', 'Lighting', 'electrical', 1),
  ('tyres', 'Tyres', 'wheels-tyres', 1),
  ('seats', 'Seats', 'body', 1),
  ('helmets', 'Helmets', 'gear', 1),
  ('gloves', 'Gloves', 'gear', 2),
  ('boots', 'Boots', 'gear', 3),
  ('protection', 'Protection', 'gear', 4),
  ('gauges', 'Gauges', 'tools', 1)
) AS v(slug, name, parent, position) INNER JOIN "categories" p ON p.slug = v.parent;
