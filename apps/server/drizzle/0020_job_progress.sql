ALTER TABLE "label_jobs" ADD COLUMN "printed" integer;--> statement-breakpoint
ALTER TABLE "label_jobs" ADD COLUMN "rest_job" varchar(100);