CREATE TABLE "part_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"part_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"storage_key" text NOT NULL,
	"widths" integer[] NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "part_photos_size_positive" CHECK ("part_photos"."width" > 0 and "part_photos"."height" > 0)
);
--> statement-breakpoint
ALTER TABLE "part_photos" ADD CONSTRAINT "part_photos_part_id_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "part_photos_part_idx" ON "part_photos" USING btree ("part_id","position");--> statement-breakpoint
CREATE INDEX "part_photos_storage_key_idx" ON "part_photos" USING btree ("storage_key");