CREATE TABLE "label_agents" (
	"org_id" varchar(40) NOT NULL,
	"site_id" varchar(40) NOT NULL,
	"id" varchar(100) NOT NULL,
	"name" text NOT NULL,
	"account_id" varchar(40) NOT NULL,
	"connected" boolean DEFAULT false NOT NULL,
	"printers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "label_agents_pk" PRIMARY KEY("org_id","site_id","id")
);
--> statement-breakpoint
CREATE TABLE "label_jobs" (
	"org_id" varchar(40) NOT NULL,
	"id" varchar(100) NOT NULL,
	"site_id" varchar(40) NOT NULL,
	"kind" varchar(20) NOT NULL,
	"template_id" varchar(100) NOT NULL,
	"template_version" integer NOT NULL,
	"printer_id" varchar(200) NOT NULL,
	"agent_id" varchar(100) NOT NULL,
	"copies" integer NOT NULL,
	"labels" integer NOT NULL,
	"zpl" text NOT NULL,
	"state" varchar(10) NOT NULL,
	"reason" text,
	"request_hash" varchar(64) NOT NULL,
	"requested_by" varchar(40) NOT NULL,
	"requested_by_name" varchar(100) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "label_jobs_pk" PRIMARY KEY("org_id","id"),
	CONSTRAINT "label_jobs_state" CHECK ("label_jobs"."state" in ('queued', 'sent', 'printed', 'held', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "label_templates" (
	"org_id" varchar(40) NOT NULL,
	"id" varchar(100) NOT NULL,
	"version" integer NOT NULL,
	"kind" varchar(20) NOT NULL,
	"name" text NOT NULL,
	"zpl" text NOT NULL,
	"width_mm" double precision NOT NULL,
	"height_mm" double precision NOT NULL,
	"dpi" smallint NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"saved_by" varchar(100) NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "label_templates_pk" PRIMARY KEY("org_id","id","version")
);
--> statement-breakpoint
ALTER TABLE "label_agents" ADD CONSTRAINT "label_agents_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "label_jobs" ADD CONSTRAINT "label_jobs_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "label_templates" ADD CONSTRAINT "label_templates_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "label_jobs_site_created" ON "label_jobs" USING btree ("org_id","site_id","created_at");--> statement-breakpoint
CREATE INDEX "label_jobs_agent_state" ON "label_jobs" USING btree ("org_id","site_id","agent_id","state");--> statement-breakpoint
CREATE INDEX "label_templates_kind" ON "label_templates" USING btree ("org_id","kind");