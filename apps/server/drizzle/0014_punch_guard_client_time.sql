ALTER TABLE "punch_guards" ADD COLUMN "last_client_ts" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "punch_guards" ADD COLUMN "last_device_id" varchar(40);