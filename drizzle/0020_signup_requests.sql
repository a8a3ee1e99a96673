CREATE TABLE "signup_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"password_hash" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signup_requests_email_length" CHECK (char_length("signup_requests"."email") between 3 and 254)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "signup_requests_token_hash_unique" ON "signup_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "signup_requests_email_idx" ON "signup_requests" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "signup_requests_expires_at_idx" ON "signup_requests" USING btree ("expires_at");