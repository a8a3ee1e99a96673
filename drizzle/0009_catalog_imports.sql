CREATE TABLE "catalog_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"dry_run" boolean NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"created_by_email" text NOT NULL,
	"total_rows" integer NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "catalog_imports_status_valid" CHECK ("catalog_imports"."status" in ('running', 'done', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX "catalog_imports_created_at_idx" ON "catalog_imports" USING btree ("created_at" DESC NULLS LAST);