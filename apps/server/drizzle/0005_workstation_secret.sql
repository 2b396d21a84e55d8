ALTER TABLE "workstations" ADD COLUMN "secret_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "workstations" ADD COLUMN "pair_code" varchar(8);--> statement-breakpoint
ALTER TABLE "workstations" ADD COLUMN "pair_expires" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workstations" ADD COLUMN "pair_approved" boolean DEFAULT false NOT NULL;