ALTER TABLE "orders" ADD COLUMN "placed_from_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "held_by_new_account" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_unpaid_address_part_idx" ON "orders" USING btree ("placed_from_key","part_id") WHERE "orders"."status" = 'unpaid' and "orders"."placed_from_key" is not null;--> statement-breakpoint
CREATE INDEX "orders_unpaid_new_account_part_idx" ON "orders" USING btree ("part_id") WHERE "orders"."status" = 'unpaid' and "orders"."held_by_new_account";--> statement-breakpoint
CREATE INDEX "orders_paid_user_idx" ON "orders" USING btree ("user_id") WHERE "orders"."paid";