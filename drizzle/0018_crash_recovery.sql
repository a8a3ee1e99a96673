ALTER TABLE "catalog_imports" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "leased_by" text;