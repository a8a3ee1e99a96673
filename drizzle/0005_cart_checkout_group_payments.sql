CREATE TABLE "addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"phone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "addresses_address_length" CHECK (char_length("addresses"."address") between 1 and 300),
	CONSTRAINT "addresses_phone_length" CHECK (char_length("addresses"."phone") between 1 and 30)
);
--> statement-breakpoint
CREATE TABLE "cart_items" (
	"user_id" uuid NOT NULL,
	"part_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_items_user_id_part_id_pk" PRIMARY KEY("user_id","part_id"),
	CONSTRAINT "cart_items_quantity_positive" CHECK ("cart_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "payment_intent_orders" (
	"intent_id" text NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	CONSTRAINT "payment_intent_orders_intent_id_order_id_pk" PRIMARY KEY("intent_id","order_id"),
	CONSTRAINT "payment_intent_orders_amount_positive" CHECK ("payment_intent_orders"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "payment_intents" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "group_key" text;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_part_id_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intent_orders" ADD CONSTRAINT "payment_intent_orders_intent_id_payment_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intent_orders" ADD CONSTRAINT "payment_intent_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_user_address_phone_unique" ON "addresses" USING btree ("user_id","address","phone");--> statement-breakpoint
CREATE INDEX "addresses_user_last_used_idx" ON "addresses" USING btree ("user_id","last_used_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payment_intent_orders_order_idx" ON "payment_intent_orders" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "orders_checkout_idx" ON "orders" USING btree ("checkout_id") WHERE "orders"."checkout_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_group_provider_unique" ON "payment_intents" USING btree ("group_key","provider");--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_order_or_group" CHECK ("payment_intents"."order_id" is not null or "payment_intents"."group_key" is not null);--> statement-breakpoint
-- Every intent made before this release paid one order: it gets its link row, so refunds and the webhook find
-- every order's payment in one place.
INSERT INTO "payment_intent_orders" ("intent_id", "order_id", "amount_cents")
SELECT "id", "order_id", "amount_cents" FROM "payment_intents" WHERE "order_id" IS NOT NULL
ON CONFLICT DO NOTHING;
