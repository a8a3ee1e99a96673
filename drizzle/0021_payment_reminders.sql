ALTER TABLE "orders" ADD COLUMN "payment_reminder_at" timestamp with time zone;--> statement-breakpoint
-- Orders placed before this migration were mailed when they were placed: the reminder job must not mail them again.
UPDATE "orders" SET "payment_reminder_at" = "created_at";--> statement-breakpoint
CREATE INDEX "orders_unreminded_created_idx" ON "orders" USING btree ("created_at") WHERE "orders"."status" = 'unpaid' and "orders"."payment_reminder_at" is null;