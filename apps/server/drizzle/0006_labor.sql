CREATE TABLE "labor_entries" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"site_id" varchar(40),
	"account_id" varchar(40) NOT NULL,
	"task_id" varchar(40) NOT NULL,
	"batch_id" varchar(40) NOT NULL,
	"mode" varchar(10) NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"counted_from" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"seconds" integer DEFAULT 0 NOT NULL,
	"rounded_seconds" integer DEFAULT 0 NOT NULL,
	"qty_done" numeric(15, 4),
	"complete" boolean DEFAULT false NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "labor_entries_mode" CHECK ("labor_entries"."mode" in ('single', 'batch')),
	CONSTRAINT "labor_entries_seconds" CHECK ("labor_entries"."seconds" >= 0 and "labor_entries"."rounded_seconds" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"task_code" varchar(60) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"order_number" varchar(60),
	"operation_number" varchar(20),
	"description" text NOT NULL,
	"work_centre" varchar(40),
	"planned_minutes" numeric(12, 2),
	"active" boolean DEFAULT true NOT NULL,
	"_rev" integer DEFAULT 1 NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "tasks_kind" CHECK ("tasks"."kind" in ('wos', 'mos', 'rst', 'training', 'cleaning', 'meeting'))
);
--> statement-breakpoint
ALTER TABLE "labor_entries" ADD CONSTRAINT "labor_entries_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labor_entries" ADD CONSTRAINT "labor_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labor_entries" ADD CONSTRAINT "labor_entries_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "labor_entries_running" ON "labor_entries" USING btree ("org_id","account_id") WHERE "labor_entries"."stopped_at" is null;--> statement-breakpoint
CREATE INDEX "labor_entries_batch" ON "labor_entries" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "labor_entries_org_started" ON "labor_entries" USING btree ("org_id","started_at");--> statement-breakpoint
CREATE INDEX "labor_entries_task" ON "labor_entries" USING btree ("task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_org_task_code" ON "tasks" USING btree ("org_id","task_code");--> statement-breakpoint
CREATE INDEX "tasks_org_order" ON "tasks" USING btree ("org_id","order_number");