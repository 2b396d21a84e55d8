CREATE TABLE "label_agent_credentials" (
	"org_id" varchar(40) NOT NULL,
	"site_id" varchar(40) NOT NULL,
	"agent_id" varchar(100) NOT NULL,
	"name" text NOT NULL,
	"secret_hash" varchar(64) NOT NULL,
	"created_by" varchar(40) NOT NULL,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "label_agent_credentials_pk" PRIMARY KEY("org_id","site_id","agent_id")
);
--> statement-breakpoint
ALTER TABLE "label_agents" ADD COLUMN "socket_id" varchar(60);--> statement-breakpoint
ALTER TABLE "label_agents" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "label_agent_credentials" ADD CONSTRAINT "label_agent_credentials_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "label_agent_credentials_secret" ON "label_agent_credentials" USING btree ("secret_hash");