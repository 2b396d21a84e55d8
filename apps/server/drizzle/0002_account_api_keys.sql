ALTER TABLE "accounts" ADD COLUMN "api_key_hash" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "api_key_prefix" varchar(16);--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "api_key_created_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_api_key_prefix" ON "accounts" USING btree ("api_key_prefix");