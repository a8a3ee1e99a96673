DROP INDEX "payment_intents_order_provider_unique";--> statement-breakpoint
DROP INDEX "payment_intents_group_provider_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_order_provider_live_unique" ON "payment_intents" USING btree ("order_id","provider") WHERE "payment_intents"."status" <> 'canceled';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_group_provider_live_unique" ON "payment_intents" USING btree ("group_key","provider") WHERE "payment_intents"."status" <> 'canceled';